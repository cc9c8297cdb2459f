import { cancelReservationInputSchema, reservationDetailSchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';

/** cancel_reservation: cancels a direct reservation and frees its nights. */
export const cancelReservationOperation = defineOperation({
  id: 'cancel_reservation',
  scopes: ['reservations:write'],
  access: 'write',
  input: cancelReservationInputSchema,
  output: reservationDetailSchema,
  // Idempotent: a second identical call is refused (already cancelled) and changes nothing more.
  run: (input, { actor, domain }) => domain.reservations.cancel(actor, input),
});
