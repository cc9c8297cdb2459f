import { getOccupancyStatsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_occupancy_stats: supply, booked nights and occupancy of a period. */
export const getOccupancyStatsTool = defineTool({
  operation: getOccupancyStatsOperation,
  name: 'get_occupancy_stats',
  title: 'Occupancy',
  description:
    'How full the listings were: calendar, blocked (by reason), available and booked nights; occupancy = ' +
    'booked / available (the standard) and gross occupancy = booked / calendar. Per listing: ' +
    'get_listing_breakdown_stats; per month or week: get_timeseries_stats.',
});
