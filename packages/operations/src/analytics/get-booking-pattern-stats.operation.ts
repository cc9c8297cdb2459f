import { bookingPatternStatsInputSchema, bookingPatternStatsSchema } from '@innkeep/domain/analytics';
import { defineOperation } from '../operation.ts';

/** get_booking_pattern_stats: how and when the period's check-ins were booked. */
export const getBookingPatternStatsOperation = defineOperation({
  id: 'get_booking_pattern_stats',
  scopes: ['reservations:read'],
  access: 'read',
  input: bookingPatternStatsInputSchema,
  output: bookingPatternStatsSchema,
  run: (input, { actor, domain }) => domain.analytics.getBookingPatternStats(actor, input),
});
