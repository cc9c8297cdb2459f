import { getGapAnalysisOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_gap_analysis: open runs between bookings and orphan nights. */
export const getGapAnalysisTool = defineTool({
  operation: getGapAnalysisOperation,
  name: 'get_gap_analysis',
  title: 'Calendar gaps',
  description:
    'Open runs of nights between held nights (reservations, blocks), found whole past the period’s edges. ' +
    'Orphan: shorter than its first night’s minimum stay, or at most maxGapNights. Gives lost (past) and ' +
    'sellable (future) nights, orphan value at listed prices, and the gaps.',
});
