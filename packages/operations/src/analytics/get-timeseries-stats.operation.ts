import { timeseriesStatsInputSchema, timeseriesStatsSchema } from '@innkeep/domain/analytics';
import { defineOperation } from '../operation.ts';

/** get_timeseries_stats: performance per day, week or month. */
export const getTimeseriesStatsOperation = defineOperation({
  id: 'get_timeseries_stats',
  scopes: ['reservations:read', 'calendar:read'],
  access: 'read',
  input: timeseriesStatsInputSchema,
  output: timeseriesStatsSchema,
  run: (input, { actor, domain }) => domain.analytics.getTimeseriesStats(actor, input),
});
