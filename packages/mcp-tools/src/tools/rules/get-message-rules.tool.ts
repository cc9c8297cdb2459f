import { getMessageRulesOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_message_rules: the automated guest messages. */
export const getMessageRulesTool = defineTool({
  operation: getMessageRulesOperation,
  name: 'get_message_rules',
  title: 'List automated message rules',
  description:
    'Lists the rules that message guests automatically (e.g. check-in instructions two days before arrival, a ' +
    'review request after check-out), by name: what triggers each one, the offset in days, the listing-local ' +
    'send time, the text with its {{variables}}, the listings and channels it covers (null = all), and whether ' +
    'it is paused. Filter by listingId for the rules that apply to one listing (its own and the all-listing ' +
    'ones). Use it before create_message_rule to avoid duplicates, or to find the rule to pause_message_rule. ' +
    'Returns up to limit (default 20) and nextCursor when more exist.',
});
