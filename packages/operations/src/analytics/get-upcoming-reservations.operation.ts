import { upcomingReservationsInputSchema, upcomingReservationsSchema } from '@innkeep/domain/analytics';
import { defineOperation } from '../operation.ts';

/** get_upcoming_reservations: guests in house and the next arrivals. */
export const getUpcomingReservationsOperation = defineOperation({
  id: 'get_upcoming_reservations',
  scopes: ['reservations:read'],
  access: 'read',
  input: upcomingReservationsInputSchema,
  output: upcomingReservationsSchema,
  run: (input, { actor, domain }) => domain.analytics.getUpcomingReservations(actor, input),
});
