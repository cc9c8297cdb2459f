import { getBookingPatternStatsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_booking_pattern_stats: how and when the period's check-ins were booked. */
export const getBookingPatternStatsTool = defineTool({
  operation: getBookingPatternStatsOperation,
  name: 'get_booking_pattern_stats',
  title: 'Booking patterns',
  description:
    'How guests book (accepted stays checking in during the period): booking and arrival weekday, lead ' +
    'time, length of stay, party size; occupancy per weekday. For minimum stays, weekday prices and ' +
    'last-minute rules.',
});
