import { getGapAnalysisOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_gap_analysis: open runs between bookings and orphan nights. */
export const getGapAnalysisTool = defineTool({
  operation: getGapAnalysisOperation,
  name: 'get_gap_analysis',
  title: 'Calendar gaps',
  description:
    'Finds gaps: runs of open nights between two held nights (an accepted or pending reservation, or a ' +
    'block) on a listing, found whole even when they reach past the period. A gap is orphan when shorter ' +
    'than the minimum stay of its first night, or at most maxGapNights. Totals split at each listing’s today: ' +
    'past nights are lost, future ones still sellable, with orphan nights valued at listed prices per ' +
    'currency; then the soonest (or longest) gaps, bounded. Use it to decide where to lower minimum stays or ' +
    'discount orphan nights (set_availability, set_prices).',
});
