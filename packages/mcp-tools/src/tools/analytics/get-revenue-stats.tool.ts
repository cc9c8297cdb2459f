import { getRevenueStatsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_revenue_stats: the revenue family per currency and per channel. */
export const getRevenueStatsTool = defineTool({
  operation: getRevenueStatsOperation,
  name: 'get_revenue_stats',
  title: 'Revenue',
  description:
    'How much a date range earned. Returns per currency (never added across currencies) the booked nights ' +
    'and every revenue basis: accommodation (rent after discounts), fees (cleaning, extra guest, pet, other; ' +
    'no taxes), total revenue (accommodation + fees), channel fees (commission), net revenue (total − channel ' +
    'fees) and payout; then the same per channel with each channel’s share of total revenue. Money is ' +
    'attributed by stay night: a stay’s rent by its nightly rates and its fees pro rata over its nights, so ' +
    'a stay crossing the period edge contributes only the part of its money inside it. Accepted stays only ' +
    '(cancellations: get_cancellation_stats). compareTo adds comparison periods with the changes.',
});
