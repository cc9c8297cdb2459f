import { channelPerformanceInputSchema, channelPerformanceSchema } from '@innkeep/domain/analytics';
import { defineOperation } from '../operation.ts';

/** get_channel_performance: volume, price, commission and booking behaviour per channel. */
export const getChannelPerformanceOperation = defineOperation({
  id: 'get_channel_performance',
  scopes: ['reservations:read'],
  access: 'read',
  input: channelPerformanceInputSchema,
  output: channelPerformanceSchema,
  run: (input, { actor, domain }) => domain.analytics.getChannelPerformance(actor, input),
});
