import { sendMessageOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** send_message: writes to the guest of one reservation, as the host. */
export const sendMessageTool = defineTool({
  operation: sendMessageOperation,
  name: 'send_message',
  title: 'Send a message to a guest',
  description:
    'Sends the host’s message to one reservation’s guest. Read get_message_thread first and send only ' +
    'text the host approved, as written but trimmed ({{variables}} are not filled in). What changes: ⚠️ a ' +
    'direct guest is emailed when the server has email (queued, then sent or failed); it cannot be ' +
    'unsent; each call sends another. Otherwise it is stored not_delivered with deliveryError (channel ' +
    'guests: reply in the channel’s inbox). Returns the message.',
  writeHints: { destructiveHint: false, idempotentHint: false, openWorldHint: true },
});
