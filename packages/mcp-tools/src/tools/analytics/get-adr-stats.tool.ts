import { maxNightlyDetailNights } from '@innkeep/domain/analytics';
import { getAdrStatsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_adr_stats: average daily rate per currency and channel. */
export const getAdrStatsTool = defineTool({
  operation: getAdrStatsOperation,
  name: 'get_adr_stats',
  title: 'Average daily rate (ADR)',
  description:
    'The average price of a sold night over a date range. ADR = accommodation revenue (rent after ' +
    'discounts, without cleaning and other fees) / booked nights of accepted stays, per currency and per ' +
    'channel and currency; revenueBasis switches the numerator to total, net or payout. For periods of up ' +
    `to ${maxNightlyDetailNights} nights also the median nightly rate and weekday (Sun–Thu) vs weekend ` +
    '(Fri–Sat) ADR. ADR is gross of channel commission; get_channel_performance gives net ADR. null ADR ' +
    'means no booked nights. compareTo adds comparison periods with the changes.',
});
