import { getResponseTimeStatsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_response_time_stats: how fast guests get an answer. */
export const getResponseTimeStatsTool = defineTool({
  operation: getResponseTimeStatsOperation,
  name: 'get_response_time_stats',
  title: 'Response times',
  description:
    'How fast the host answers guests, over waits begun in the period (from a guest message after the ' +
    'host’s last to the host’s next): waits, answered, median, mean and p90 minutes, shares answered ' +
    'within 1 h and 24 h. Message rules answer only with countAutomatedReplies.',
});
