import { messageRuleRefInputSchema } from '@innkeep/domain';
import { z } from 'zod';
import { defineOperation } from '../operation.ts';

/** delete_message_rule: deletes an automated guest message; what it already sent stays in the threads. */
export const deleteMessageRuleOperation = defineOperation({
  id: 'delete_message_rule',
  scopes: ['messageRules:write'],
  access: 'write',
  input: messageRuleRefInputSchema,
  output: z.object({
    id: z.string().describe('Id of the deleted message rule.'),
    deleted: z.literal(true),
  }),
  run: (input, { actor, domain }) => domain.messageRules.delete(actor, input),
});
