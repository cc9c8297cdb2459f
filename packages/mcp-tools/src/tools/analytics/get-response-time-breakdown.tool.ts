import { getResponseTimeBreakdownOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_response_time_breakdown: response times by channel, stage, hour, weekday and listing. */
export const getResponseTimeBreakdownTool = defineTool({
  operation: getResponseTimeBreakdownOperation,
  name: 'get_response_time_breakdown',
  title: 'Response times, broken down',
  description:
    'Where guest answers are slow: get_response_time_stats’s measures by channel, stage (inquiry, ' +
    'booked), hour and weekday the guest wrote, and listing (slowest first). Small groups swing easily: ' +
    'check their waits.',
});
