import { responseTimeStatsInputSchema, responseTimeStatsSchema } from '@innkeep/domain/analytics';
import { defineOperation } from '../operation.ts';

/** get_response_time_stats: how fast guests get an answer. */
export const getResponseTimeStatsOperation = defineOperation({
  id: 'get_response_time_stats',
  scopes: ['messages:read'],
  access: 'read',
  input: responseTimeStatsInputSchema,
  output: responseTimeStatsSchema,
  run: (input, { actor, domain }) => domain.analytics.getResponseTimeStats(actor, input),
});
