import { reservationStatusStatsInputSchema, reservationStatusStatsSchema } from '@innkeep/domain/analytics';
import { defineOperation } from '../operation.ts';

/** get_reservation_status_stats: reservations per normalised status. */
export const getReservationStatusStatsOperation = defineOperation({
  id: 'get_reservation_status_stats',
  scopes: ['reservations:read'],
  access: 'read',
  input: reservationStatusStatsInputSchema,
  output: reservationStatusStatsSchema,
  run: (input, { actor, domain }) => domain.analytics.getReservationStatusStats(actor, input),
});
