import { ratioStatsInputSchema, revparStatsSchema } from '@innkeep/domain/analytics';
import { defineOperation } from '../operation.ts';

/** get_revpar_stats: revenue per available night with its ADR × occupancy parts. */
export const getRevparStatsOperation = defineOperation({
  id: 'get_revpar_stats',
  scopes: ['reservations:read', 'calendar:read'],
  access: 'read',
  input: ratioStatsInputSchema,
  output: revparStatsSchema,
  run: (input, { actor, domain }) => domain.analytics.getRevparStats(actor, input),
});
