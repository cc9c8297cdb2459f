import { getTimeseriesStatsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_timeseries_stats: performance per day, week or month. */
export const getTimeseriesStatsTool = defineTool({
  operation: getTimeseriesStatsOperation,
  name: 'get_timeseries_stats',
  title: 'Performance over time',
  description:
    'Trends: the chosen metrics per month (default), ISO week or day. Partial buckets hold only their ' +
    'nights in the period, so buckets add up. compareToLastYear adds each bucket a year earlier (364 days ' +
    'back for days and weeks, so weekdays match).',
});
