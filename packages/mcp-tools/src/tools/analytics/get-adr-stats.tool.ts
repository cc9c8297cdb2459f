import { maxNightlyDetailNights } from '@innkeep/domain/analytics';
import { getAdrStatsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_adr_stats: average daily rate per currency and channel. */
export const getAdrStatsTool = defineTool({
  operation: getAdrStatsOperation,
  name: 'get_adr_stats',
  title: 'Average daily rate (ADR)',
  description:
    'Average daily rate = accommodation revenue / booked nights, per currency and channel; revenueBasis ' +
    'changes the numerator. Gross of commission (net ADR: get_channel_performance). Up to ' +
    `${maxNightlyDetailNights} nights, also the median nightly rate and weekday (Sun–Thu) vs weekend ADR.`,
});
