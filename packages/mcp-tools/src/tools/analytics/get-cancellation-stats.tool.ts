import { getCancellationStatsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_cancellation_stats: cancellation rates and their timing. */
export const getCancellationStatsTool = defineTool({
  operation: getCancellationStatsOperation,
  name: 'get_cancellation_stats',
  title: 'Cancellations',
  description:
    'Cancellation rate of stays checking in during the period (cohort booked: booked in it) = cancelled / ' +
    '(cancelled + accepted), by count, nights and rent; who cancelled, per channel, and when. Says when ' +
    'figures are not final.',
});
