import { getBookingPatternStatsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_booking_pattern_stats: how and when the period's check-ins were booked. */
export const getBookingPatternStatsTool = defineTool({
  operation: getBookingPatternStatsOperation,
  name: 'get_booking_pattern_stats',
  title: 'Booking patterns',
  description:
    'How guests book: for the accepted stays checking in during the period, the weekday they booked on and ' +
    'the weekday they arrive, lead time (mean, median and buckets 0–1 … 181+ days), length of stay (ALOS, ' +
    'median, buckets 1 … 28+ nights) and party sizes; plus occupancy per weekday of the stay night over the ' +
    'whole period. Dates are each listing’s own. Use it to set minimum stays, weekday prices or last-minute ' +
    'rules; for cancellations use get_cancellation_stats.',
});
