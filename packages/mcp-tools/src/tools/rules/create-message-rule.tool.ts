import { createMessageRuleOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** create_message_rule: adds an automated guest message, active at once. */
export const createMessageRuleTool = defineTool({
  operation: createMessageRuleOperation,
  name: 'create_message_rule',
  title: 'Create an automated message rule',
  description:
    'Creates an automated guest message rule. What changes: the rule is active at once, and from then on ' +
    'Innkeep sends its text to the guest of every matching reservation (the listings in listingIds or all, the ' +
    'channels in channels or all) when its trigger comes due. Triggers: inquiry, booking_confirmed and ' +
    'cancelled count offsetDays after the event; check_in, check_out and review_request count days before ' +
    '(negative) or after that date; during_stay counts days after check-in. sendTime is the listing-local HH:MM to send at; without it the ' +
    'message goes as soon as it is due. The body may use {{variables}} such as {{guest_first_name}}, ' +
    '{{listing_name}} or {{check_in_date}}; unknown names are refused with the list of valid ones (the help ' +
    'article message-rules, via get_help_article, has the table). Call get_message_rules first so an existing ' +
    'rule is not duplicated, and show the host the exact text before creating it. Rules cannot be edited: to ' +
    'change one, create a new rule and pause the old one with pause_message_rule, which also stops a rule ' +
    'created by mistake. Each call creates another rule. Returns the rule.',
  writeHints: { destructiveHint: false, idempotentHint: false },
});
