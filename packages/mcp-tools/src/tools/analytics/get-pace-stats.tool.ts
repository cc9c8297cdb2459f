import { getPaceStatsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_pace_stats: on-the-books against the same time last year, with pickup. */
export const getPaceStatsTool = defineTool({
  operation: getPaceStatsOperation,
  name: 'get_pace_stats',
  title: 'Booking pace',
  description:
    'How bookings for a stay period are pacing: what was on the books (accepted reservations, their nights ' +
    'inside the period, rent per currency, occupancy of available nights) at the end of asOf (default today), ' +
    'against the same stay dates a year earlier as of the same day last year, with absolute and relative ' +
    'changes, and pickup over the last 1, 7 and 30 days (net change, new bookings, cancellations). Replays the ' +
    'reservation change log, so date and price edits count as they stood then. Use it for "are we ahead of ' +
    'last year for summer?" or "what did we pick up this week?"; for final results of a past period use ' +
    'get_occupancy_stats or get_revenue_stats.',
});
