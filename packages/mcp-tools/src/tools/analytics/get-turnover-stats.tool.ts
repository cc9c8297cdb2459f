import { getTurnoverStatsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_turnover_stats: check-outs and the time until the next guest. */
export const getTurnoverStatsTool = defineTool({
  operation: getTurnoverStatsOperation,
  name: 'get_turnover_stats',
  title: 'Turnovers',
  description:
    'Turnovers in the period — check-outs of accepted stays, plus owner-block ends with includeOwnerStays — ' +
    'and the days until the listing’s next accepted check-in (looked up past the period): same-day ' +
    '(back-to-back) count and rate, mean and median turnaround, buckets 0, 1, 2, 3–6, 7+ days, turnovers ' +
    'with no next booking yet, and the busiest listings. Use it to plan cleaning capacity or spot listings ' +
    'with tight changeovers.',
});
