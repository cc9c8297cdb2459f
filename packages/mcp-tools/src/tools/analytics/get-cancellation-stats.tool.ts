import { getCancellationStatsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_cancellation_stats: cancellation rates and their timing. */
export const getCancellationStatsTool = defineTool({
  operation: getCancellationStatsOperation,
  name: 'get_cancellation_stats',
  title: 'Cancellations',
  description:
    'Cancellation rate of the reservations due to check in during the period (or, with cohort "booked", ' +
    'booked during it): cancelled / (cancelled + accepted) by count, nights and rent as booked per currency; ' +
    'who cancelled (guest, host, channel); the rate per channel; days from cancellation to planned check-in ' +
    '(mean, median, buckets) and from booking to cancellation. Inquiries, requests, declined and expired ' +
    'reservations are left out. Says when the figures are not final because stays are still ahead.',
});
