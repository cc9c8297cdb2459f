import { getResponseTimeBreakdownOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_response_time_breakdown: response times by channel, stage, hour, weekday and listing. */
export const getResponseTimeBreakdownTool = defineTool({
  operation: getResponseTimeBreakdownOperation,
  name: 'get_response_time_breakdown',
  title: 'Response times, broken down',
  description:
    'Where answers to guests are slow. The measures of get_response_time_stats (waits, answered, median, mean ' +
    'and p90 minutes, shares within 1 and 24 hours), each with its number of waits, overall and by channel, ' +
    'by stage (inquiry: the guest wrote before the booking was confirmed; booked: after), by the listing-local ' +
    'hour (0–23) and weekday the guest wrote, and by listing (slowest median first, listings with no answer ' +
    'at all first, at most listingLimit). Small groups (few waits) swing easily: check waits before drawing ' +
    'conclusions.',
});
