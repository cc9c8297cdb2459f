import { paceStatsInputSchema, paceStatsSchema } from '@innkeep/domain/analytics';
import { defineOperation } from '../operation.ts';

/** get_pace_stats: on-the-books against the same time last year, with pickup. */
export const getPaceStatsOperation = defineOperation({
  id: 'get_pace_stats',
  scopes: ['reservations:read'],
  access: 'read',
  input: paceStatsInputSchema,
  output: paceStatsSchema,
  run: (input, { actor, domain }) => domain.analytics.getPaceStats(actor, input),
});
