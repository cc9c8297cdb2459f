import { occupancyStatsSchema, periodTotalsInputSchema } from '@innkeep/domain/analytics';
import { defineOperation } from '../operation.ts';

/** get_occupancy_stats: supply, booked nights and occupancy of a period. */
export const getOccupancyStatsOperation = defineOperation({
  id: 'get_occupancy_stats',
  scopes: ['reservations:read', 'calendar:read'],
  access: 'read',
  input: periodTotalsInputSchema,
  output: occupancyStatsSchema,
  run: (input, { actor, domain }) => domain.analytics.getOccupancyStats(actor, input),
});
