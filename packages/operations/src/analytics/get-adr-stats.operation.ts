import { adrStatsSchema, ratioStatsInputSchema } from '@innkeep/domain/analytics';
import { defineOperation } from '../operation.ts';

/** get_adr_stats: average daily rate per currency and channel. */
export const getAdrStatsOperation = defineOperation({
  id: 'get_adr_stats',
  scopes: ['reservations:read'],
  access: 'read',
  input: ratioStatsInputSchema,
  output: adrStatsSchema,
  run: (input, { actor, domain }) => domain.analytics.getAdrStats(actor, input),
});
