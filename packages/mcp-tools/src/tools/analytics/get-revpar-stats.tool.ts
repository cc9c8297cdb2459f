import { getRevparStatsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_revpar_stats: revenue per available night with its ADR × occupancy parts. */
export const getRevparStatsTool = defineTool({
  operation: getRevparStatsOperation,
  name: 'get_revpar_stats',
  title: 'Revenue per available night (RevPAR)',
  description:
    'Revenue per available night over a date range: how well price and occupancy together used the ' +
    'calendar. Per currency: accommodation revenue / available nights of the listings priced in that ' +
    'currency, shown with its parts — ADR and occupancy of those listings, RevPAR = ADR × occupancy up to ' +
    'rounding — plus gross RevPAR (per calendar night, blocks counted as unsold) and the scope’s overall ' +
    'occupancy. revenueBasis total gives TRevPAR (rent + fees). null RevPAR means no available nights. ' +
    'compareTo adds comparison periods with the changes.',
});
