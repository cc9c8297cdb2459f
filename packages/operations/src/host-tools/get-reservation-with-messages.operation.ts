import {
  type Message,
  messageSchema,
  pageLimits,
  reservationDetailSchema,
  reservationIdSchema,
} from '@innkeep/domain';
import { z } from 'zod';
import { defineOperation } from '../operation.ts';

/**
 * get_reservation_with_messages: one reservation with its money lines and its whole conversation with the
 * guest, for integrations that read a reservation and its messages as one record (Host Tools' `posts`).
 */
export const getReservationWithMessagesOperation = defineOperation({
  id: 'get_reservation_with_messages',
  scopes: ['reservations:read'],
  access: 'read',
  input: z.object({ reservationId: reservationIdSchema }),
  output: reservationDetailSchema.extend({
    messages: z.array(messageSchema).describe('Every message of the conversation, oldest first.'),
  }),
  run: async ({ reservationId }, { actor, domain }) => {
    const reservation = await domain.reservations.get(actor, reservationId);
    const messages: Message[] = [];
    let cursor: string | undefined;
    for (;;) {
      const thread = await domain.messages.getThread(actor, { reservationId, limit: pageLimits.max, cursor });
      messages.push(...thread.messages.items);
      if (!thread.messages.hasMore || thread.messages.nextCursor === null) break;
      cursor = thread.messages.nextCursor;
    }
    return { ...reservation, messages };
  },
});
