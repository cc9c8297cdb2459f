import { getRevenueStatsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_revenue_stats: the revenue family per currency and per channel. */
export const getRevenueStatsTool = defineTool({
  operation: getRevenueStatsOperation,
  name: 'get_revenue_stats',
  title: 'Revenue',
  description:
    'What a period earned, per currency and per channel: booked nights, accommodation revenue (rent after ' +
    'discounts), fees, total, channel fees, net (total − channel fees), payout, and each channel’s share. ' +
    'Accepted stays only (cancellations: get_cancellation_stats).',
});
