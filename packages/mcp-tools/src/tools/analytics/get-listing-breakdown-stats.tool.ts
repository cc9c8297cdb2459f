import { getListingBreakdownStatsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_listing_breakdown_stats: performance per listing or listing group. */
export const getListingBreakdownStatsTool = defineTool({
  operation: getListingBreakdownStatsOperation,
  name: 'get_listing_breakdown_stats',
  title: 'Performance by listing',
  description:
    'Which listings (or groups, by: group) do best or worst: nights, occupancy, per currency revenue, ADR ' +
    'and RevPAR per row, sorted by sortBy, cut to limit; totals cover the whole scope. A listing in two ' +
    'groups counts in both group rows.',
});
