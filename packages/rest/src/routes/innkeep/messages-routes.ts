import { getMessageThreadOperation } from '@innkeep/operations';
import { defineRoute, type RestRoute } from '../../route-definition.ts';

/** A reservation's conversation with its guest, paged. */
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
];
