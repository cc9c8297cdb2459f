import { maxBreakdownRows } from '@innkeep/domain/analytics';
import { getListingBreakdownStatsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_listing_breakdown_stats: performance per listing or listing group. */
export const getListingBreakdownStatsTool = defineTool({
  operation: getListingBreakdownStatsOperation,
  name: 'get_listing_breakdown_stats',
  title: 'Performance by listing',
  description:
    'Which listings (or listing groups, by: group) do best or worst over a date range. Each row: nights ' +
    '(calendar, blocked, available, booked), occupancy and gross occupancy, and per currency accommodation ' +
    'and total revenue, ADR and RevPAR. Sorted by sortBy (default occupancy; money keys sort within each ' +
    'currency) in order desc (default) or asc, cut to limit rows (default 25, at most ' +
    `${maxBreakdownRows}) with truncated and totalRows; totals cover the whole scope, each listing once. A ` +
    'group row adds up its listings (ratio of sums), so a listing in two groups counts in both rows.',
});
