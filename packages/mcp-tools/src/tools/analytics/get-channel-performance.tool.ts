import { getChannelPerformanceOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_channel_performance: volume, price, commission and booking behaviour per channel. */
export const getChannelPerformanceTool = defineTool({
  operation: getChannelPerformanceOperation,
  name: 'get_channel_performance',
  title: 'Performance by channel',
  description:
    'Which booking channel (airbnb, vrbo, booking, direct) brings what over a date range, and which pays ' +
    'best. Per channel: booked nights and their share of all nights, and per currency accommodation, total ' +
    'and net revenue, channel fees, revenue share, ADR, net ADR (ADR after the channel’s commission at its ' +
    'effective rate) and effective commission (channel fees / total revenue); plus, for the stays due to ' +
    'check in during the period, reservations, average length of stay, mean and median lead time and the ' +
    'cancellation rate. Shares are always of all channels, also with a channel filter.',
});
