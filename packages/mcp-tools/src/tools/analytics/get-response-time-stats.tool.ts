import { getResponseTimeStatsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_response_time_stats: how fast guests get an answer. */
export const getResponseTimeStatsTool = defineTool({
  operation: getResponseTimeStatsOperation,
  name: 'get_response_time_stats',
  title: 'Response times',
  description:
    'How fast the host answers guests, over the waits that began in a date range (by the listing-local date ' +
    'of the guest’s message). A wait is a guest message (or several in a row) after the host’s last message; ' +
    'it ends with the host’s next message. Returns the number of waits, answered and unanswered ones, the ' +
    'median (the usual headline), mean and 90th-percentile response time in minutes over answered waits, and ' +
    'the shares answered within 1 hour and within 24 hours (the response rate; unanswered waits count as ' +
    'misses). Automated messages from message rules do not count as answers unless countAutomatedReplies is ' +
    'true; automatedFirst says how many waits got one before the host replied. Use ' +
    'get_response_time_breakdown to see where the slow answers are.',
});
