import { sendMessageOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** send_message: writes to the guest of one reservation, as the host. */
export const sendMessageTool = defineTool({
  operation: sendMessageOperation,
  name: 'send_message',
  title: 'Send a message to a guest',
  description:
    'Sends the host’s message to one reservation’s guest. Read get_message_thread first and send only ' +
    'text the host approved: it goes as written but for leading and trailing whitespace, which is trimmed ' +
    '({{variables}} are not filled in). What changes: ⚠️ the guest receives it on the booking’s channel; ' +
    'it cannot be unsent, and each call sends another. ' +
    'Returns the message, queued.',
  writeHints: { destructiveHint: false, idempotentHint: false, openWorldHint: true },
});
