import { getMessageRulesOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_message_rules: the automated guest messages. */
export const getMessageRulesTool = defineTool({
  operation: getMessageRulesOperation,
  name: 'get_message_rules',
  title: 'List automated message rules',
  description:
    'Lists the automated guest message rules: trigger and offset, send time, text with {{variables}}, ' +
    'listings and channels covered (null = all), paused. Check it before create_message_rule, or to find ' +
    'a rule to pause.',
});
