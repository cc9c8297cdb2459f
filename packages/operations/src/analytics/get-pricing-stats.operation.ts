import { pricingStatsInputSchema, pricingStatsSchema } from '@innkeep/domain/analytics';
import { defineOperation } from '../operation.ts';

/** get_pricing_stats: listed prices of open nights, booked ADR and realisation. */
export const getPricingStatsOperation = defineOperation({
  id: 'get_pricing_stats',
  scopes: ['calendar:read'],
  access: 'read',
  input: pricingStatsInputSchema,
  output: pricingStatsSchema,
  run: (input, { actor, domain }) => domain.analytics.getPricingStats(actor, input),
});
