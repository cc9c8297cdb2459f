import { reservationDetailSchema, reservationIdSchema } from '@innkeep/domain';
import { z } from 'zod';
import { defineOperation } from '../operation.ts';

/** get_reservation: one reservation with its money lines and nightly rates. */
export const getReservationOperation = defineOperation({
  id: 'get_reservation',
  scopes: ['reservations:read'],
  access: 'read',
  input: z.object({ reservationId: reservationIdSchema }),
  output: reservationDetailSchema,
  run: ({ reservationId }, { actor, domain }) => domain.reservations.get(actor, reservationId),
});
