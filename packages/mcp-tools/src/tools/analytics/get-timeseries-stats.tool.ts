import { maxSeriesBuckets } from '@innkeep/domain/analytics';
import { getTimeseriesStatsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_timeseries_stats: performance per day, week or month. */
export const getTimeseriesStatsTool = defineTool({
  operation: getTimeseriesStatsOperation,
  name: 'get_timeseries_stats',
  title: 'Performance over time',
  description:
    'Trends and seasonality: the figures of a date range per bucket — month (default), ISO week or day. ' +
    'Choose metrics among bookedNights, availableNights, blockedNights, occupancy, grossOccupancy, adr, ' +
    'revpar, accommodationRevenue, totalRevenue, netRevenue, payout (default: booked nights, occupancy, ADR, ' +
    'RevPAR, accommodation revenue); money comes per currency. Buckets the period cuts are flagged partial ' +
    'and cover only their nights inside it, so the buckets add up to the period. compareToLastYear adds ' +
    'each bucket a year earlier (same dates for months, 364 days back for days and weeks so weekdays ' +
    `match). At most ${maxSeriesBuckets.day} day or ${maxSeriesBuckets.week} week buckets: use a coarser ` +
    'granularity for longer periods.',
});
