import { getTurnoverStatsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_turnover_stats: check-outs and the time until the next guest. */
export const getTurnoverStatsTool = defineTool({
  operation: getTurnoverStatsOperation,
  name: 'get_turnover_stats',
  title: 'Turnovers',
  description:
    'Turnovers (check-outs of accepted stays; owner-block ends with includeOwnerStays) and days to the ' +
    'listing’s next check-in: same-day rate, turnaround, buckets, turnovers with no next booking, busiest ' +
    'listings. For cleaning plans.',
});
