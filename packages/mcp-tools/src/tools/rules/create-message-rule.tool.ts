import { createMessageRuleOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** create_message_rule: adds an automated guest message, active at once. */
export const createMessageRuleTool = defineTool({
  operation: createMessageRuleOperation,
  name: 'create_message_rule',
  title: 'Create an automated message rule',
  description:
    'Creates an automated guest message, sent to the guest of every matching reservation when its trigger ' +
    'comes due, offsetDays from it. Unknown {{variables}} are refused with the valid list. Check ' +
    'get_message_rules first and show the host the text. What changes: the rule is active at once; it ' +
    'cannot be edited (pause it, create anew); each call adds one. Returns the rule.',
  writeHints: { destructiveHint: false, idempotentHint: false, openWorldHint: true },
});
