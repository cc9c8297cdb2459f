import { cancellationStatsInputSchema, cancellationStatsSchema } from '@innkeep/domain/analytics';
import { defineOperation } from '../operation.ts';

/** get_cancellation_stats: cancellation rates and their timing. */
export const getCancellationStatsOperation = defineOperation({
  id: 'get_cancellation_stats',
  scopes: ['reservations:read'],
  access: 'read',
  input: cancellationStatsInputSchema,
  output: cancellationStatsSchema,
  run: (input, { actor, domain }) => domain.analytics.getCancellationStats(actor, input),
});
