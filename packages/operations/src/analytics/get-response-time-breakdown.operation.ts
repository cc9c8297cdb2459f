import { responseTimeBreakdownInputSchema, responseTimeBreakdownSchema } from '@innkeep/domain/analytics';
import { defineOperation } from '../operation.ts';

/** get_response_time_breakdown: response times by channel, stage, hour, weekday and listing. */
export const getResponseTimeBreakdownOperation = defineOperation({
  id: 'get_response_time_breakdown',
  scopes: ['messages:read'],
  access: 'read',
  input: responseTimeBreakdownInputSchema,
  output: responseTimeBreakdownSchema,
  run: (input, { actor, domain }) => domain.analytics.getResponseTimeBreakdown(actor, input),
});
