import { getMessageThreadOperation, sendMessageOperation } from '@innkeep/operations';
import { defineRoute, type RestRoute } from '../../route-definition.ts';

/** A reservation's conversation with its guest: read it, paged, and write to the guest. */
export const messagesRoutes: readonly RestRoute[] = [
  defineRoute({
    operation: getMessageThreadOperation,
    method: 'GET',
    path: '/getMessageThread/:reservationId',
    summary: 'A reservation’s conversation with its guest, oldest message first.',
    description:
      'The reservation in brief, a page of messages (messages.nextCursor/hasMore), and whether the guest ' +
      'awaits a reply.',
    tag: 'Messages',
    paging: 'page',
  }),
  defineRoute({
    operation: sendMessageOperation,
    method: 'POST',
    path: '/sendGuestMessage/:reservationId',
    summary: 'Writes to the guest of a reservation, as the signed-in user.',
    description:
      'The message as recorded: its id, sender and delivery status (queued until the channel delivers it).',
    tag: 'Messages',
  }),
];
