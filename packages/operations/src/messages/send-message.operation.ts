import { messageSchema, sendMessageInputSchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';

/** send_message: writes to the guest of one reservation, as the host. */
export const sendMessageOperation = defineOperation({
  id: 'send_message',
  scopes: ['messages:write'],
  access: 'write',
  input: sendMessageInputSchema,
  output: messageSchema,
  run: (input, { actor, domain }) => domain.messages.send(actor, input),
});
