import { createReservationInputSchema, reservationDetailSchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';

/** create_reservation: books a direct reservation. */
export const createReservationOperation = defineOperation({
  id: 'create_reservation',
  scopes: ['reservations:write'],
  access: 'write',
  input: createReservationInputSchema,
  output: reservationDetailSchema,
  run: (input, { actor, domain }) => domain.reservations.create(actor, input),
});
