import { getOccupancyStatsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_occupancy_stats: supply, booked nights and occupancy of a period. */
export const getOccupancyStatsTool = defineTool({
  operation: getOccupancyStatsOperation,
  name: 'get_occupancy_stats',
  title: 'Occupancy',
  description:
    'How full were the listings over a date range. Returns calendar nights (listings × nights; every ' +
    'listing counts every night), blocked nights by reason (owner, maintenance, manual), available nights ' +
    '(calendar − blocked), booked nights of accepted stays, occupancy = booked / available (the standard, ' +
    'adjusted figure) and gross occupancy = booked / calendar (lower by the blocks). null occupancy means no ' +
    'available nights (e.g. an owner-blocked month), not 0 %. A channel filter counts only that channel’s ' +
    'booked nights against the whole supply. compareTo adds the previous period and/or the same period last ' +
    'year with the changes. Per listing: get_listing_breakdown_stats; per month or week: get_timeseries_stats.',
});
