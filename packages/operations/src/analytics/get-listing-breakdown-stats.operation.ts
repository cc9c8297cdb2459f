import { listingBreakdownInputSchema, listingBreakdownSchema } from '@innkeep/domain/analytics';
import { defineOperation } from '../operation.ts';

/** get_listing_breakdown_stats: performance per listing or listing group. */
export const getListingBreakdownStatsOperation = defineOperation({
  id: 'get_listing_breakdown_stats',
  scopes: ['reservations:read', 'calendar:read'],
  access: 'read',
  input: listingBreakdownInputSchema,
  output: listingBreakdownSchema,
  run: (input, { actor, domain }) => domain.analytics.getListingBreakdownStats(actor, input),
});
