import { gapAnalysisInputSchema, gapAnalysisSchema } from '@innkeep/domain/analytics';
import { defineOperation } from '../operation.ts';

/** get_gap_analysis: open runs between bookings and orphan nights. */
export const getGapAnalysisOperation = defineOperation({
  id: 'get_gap_analysis',
  scopes: ['reservations:read', 'calendar:read'],
  access: 'read',
  input: gapAnalysisInputSchema,
  output: gapAnalysisSchema,
  run: (input, { actor, domain }) => domain.analytics.getGapAnalysis(actor, input),
});
