import { reservationDetailSchema, updateReservationInputSchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';

/** update_reservation: changes guest details, counts, times, access code, notes, dates or price. */
export const updateReservationOperation = defineOperation({
  id: 'update_reservation',
  scopes: ['reservations:write'],
  access: 'write',
  input: updateReservationInputSchema,
  output: reservationDetailSchema,
  run: (input, { actor, domain }) => domain.reservations.update(actor, input),
});
