import { getRevparStatsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_revpar_stats: revenue per available night with its ADR × occupancy parts. */
export const getRevparStatsTool = defineTool({
  operation: getRevparStatsOperation,
  name: 'get_revpar_stats',
  title: 'Revenue per available night (RevPAR)',
  description:
    'Revenue per available night, per currency: accommodation revenue / available nights, with its parts ' +
    'ADR and occupancy (RevPAR = ADR × occupancy), gross RevPAR (per calendar night, blocks as unsold) ' +
    'and overall occupancy. revenueBasis total gives TRevPAR.',
});
