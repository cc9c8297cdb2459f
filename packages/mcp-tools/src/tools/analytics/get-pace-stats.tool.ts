import { getPaceStatsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_pace_stats: on-the-books against the same time last year, with pickup. */
export const getPaceStatsTool = defineTool({
  operation: getPaceStatsOperation,
  name: 'get_pace_stats',
  title: 'Booking pace',
  description:
    'Pacing of a stay period: on the books at the end of asOf (default today) — nights, rent, occupancy — ' +
    'against the same stay dates a year earlier as of the same day, and pickup over the last 1, 7 and 30 ' +
    'days.',
});
