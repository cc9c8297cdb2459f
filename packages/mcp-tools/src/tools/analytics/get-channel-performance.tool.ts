import { getChannelPerformanceOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_channel_performance: volume, price, commission and booking behaviour per channel. */
export const getChannelPerformanceTool = defineTool({
  operation: getChannelPerformanceOperation,
  name: 'get_channel_performance',
  title: 'Performance by channel',
  description:
    'Which channel brings what and pays best. Per channel: booked nights and share, revenue, fees, ADR, ' +
    'net ADR, effective commission; for the period’s check-ins, stays, length, lead time, cancellation ' +
    'rate. Shares are of all channels, even with a channel filter.',
});
