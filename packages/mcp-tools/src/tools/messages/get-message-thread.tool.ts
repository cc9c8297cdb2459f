import { getMessageThreadOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_message_thread: a reservation's conversation with its guest. */
export const getMessageThreadTool = defineTool({
  operation: getMessageThreadOperation,
  name: 'get_message_thread',
  title: 'Read a guest conversation',
  description:
    'The conversation with one reservation’s guest, oldest first: author (guest, host, automation, ' +
    'system), time, text, delivery status and deliveryError; the stay in brief; needsReply and when the ' +
    'guest last wrote. Page with messages.nextCursor. Reply with send_message.',
});
