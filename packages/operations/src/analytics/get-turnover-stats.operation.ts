import { turnoverStatsInputSchema, turnoverStatsSchema } from '@innkeep/domain/analytics';
import { defineOperation } from '../operation.ts';

/** get_turnover_stats: check-outs and the time until the next guest. */
export const getTurnoverStatsOperation = defineOperation({
  id: 'get_turnover_stats',
  scopes: ['reservations:read'],
  access: 'read',
  input: turnoverStatsInputSchema,
  output: turnoverStatsSchema,
  run: (input, { actor, domain }) => domain.analytics.getTurnoverStats(actor, input),
});
