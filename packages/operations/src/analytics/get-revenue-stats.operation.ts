import { periodTotalsInputSchema, revenueStatsSchema } from '@innkeep/domain/analytics';
import { defineOperation } from '../operation.ts';

/** get_revenue_stats: the revenue family per currency and per channel. */
export const getRevenueStatsOperation = defineOperation({
  id: 'get_revenue_stats',
  scopes: ['reservations:read'],
  access: 'read',
  input: periodTotalsInputSchema,
  output: revenueStatsSchema,
  run: (input, { actor, domain }) => domain.analytics.getRevenueStats(actor, input),
});
