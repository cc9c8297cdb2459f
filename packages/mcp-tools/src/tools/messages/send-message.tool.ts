import { sendMessageOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** send_message: writes to the guest of one reservation, as the host. */
export const sendMessageTool = defineTool({
  operation: sendMessageOperation,
  name: 'send_message',
  title: 'Send a message to a guest',
  description:
    'Sends a message from the host to the guest of one reservation: a reply to their question, or news about ' +
    'their stay. Read the conversation first with get_message_thread (and the stay with get_reservation) so the ' +
    'message answers what the guest actually wrote, and send only text the host has approved. ' +
    'What changes: the message is queued for delivery to the guest on the booking’s channel (Airbnb, Vrbo, ' +
    'Booking.com or direct). ⚠️ It cannot be unsent or edited, and every call sends one more message, so do not ' +
    'repeat a call that succeeded. The body is sent exactly as written, 1–5000 characters of plain text; ' +
    '{{variables}} are not filled in here, so write the real values. Returns the message with deliveryStatus queued (it ' +
    'becomes sent or failed once the channel has taken it).',
  writeHints: { destructiveHint: true, idempotentHint: false },
});
