// Help articles on messaging.

import { stayRuleDefaultSendTime } from '../messages/message-rules.ts';
import { templateVariables } from '../messages/template-variables.ts';
import type { HelpArticleSource } from './help.ts';

// Built from the list the rule validator uses, so the article can never name a variable rules refuse.
const templateVariableTable = [
  '| Variable | Becomes | When Innkeep does not know it yet |',
  '|---|---|---|',
  ...templateVariables.map(
    (variable) =>
      `| \`{{${variable.name}}}\` | ${variable.description} | ${'whenMissing' in variable ? variable.whenMissing : '—'} |`,
  ),
].join('\n');

/** Message rule triggers, offsets, scope and pausing, with the template variables table. */
export const messageRulesArticle: HelpArticleSource = {
  slug: 'message-rules',
  title: 'Message rules and template variables',
  collection: 'messaging',
  summary:
    'Automate guest messages with rules triggered by bookings and stay dates, personalise them with template variables, and pause them.',
  body: `A message rule sends the same kind of message to every matching reservation at the right moment: a thank-you
when a booking is confirmed, check-in instructions the day before arrival, a review request after check-out.

## When a rule sends

Each rule has a **trigger** and an **offset** in days (\`offsetDays\`, −60 to 60).

| Trigger | Counts from | Offset |
|---|---|---|
| \`inquiry\` | a new inquiry | 0 or days after |
| \`booking_confirmed\` | the booking being confirmed | 0 or days after |
| \`cancelled\` | the cancellation | 0 or days after |
| \`check_in\` | the check-in date | days before (negative) or after |
| \`during_stay\` | the check-in date | 0 or days after |
| \`check_out\` | the check-out date | days before (negative) or after |
| \`review_request\` | the check-out date | days before (negative) or after |

For example \`check_in\` with \`offsetDays -1\` sends the day before arrival, and \`review_request\` with
\`offsetDays 1\` the day after check-out.

## Where a message goes

A message, a rule's or your own, is emailed to the guest of a direct booking when the server has email set up
(and the guest an email address); its status becomes \`sent\`, or \`failed\` with the mail server's reason.
Otherwise it is kept in the thread as \`not_delivered\` with the reason: Innkeep has no connector to Airbnb,
Vrbo or Booking.com, so answer those guests in the channel's own inbox.

\`sendTime\` (24-hour \`HH:MM\`, in the listing's time zone) sends at that time of the day. Without it, event
triggers (\`inquiry\`, \`booking_confirmed\`, \`cancelled\`) send as soon as they are due; \`check_in\` and
\`check_out\` send at the stay's check-in or check-out hour; \`during_stay\` and \`review_request\` at
${stayRuleDefaultSendTime}.

Innkeep checks the rules every minute and sends each rule at most once per reservation. A rule only reaches
back one day: a new rule does not message guests whose moment passed earlier, and after a pause in service the
messages of the last day still go out.

**Last-minute bookings**: a \`check_in\` rule can have a second text, \`lastMinuteBody\`, used for bookings made
after the regular send time had already passed, so late guests still get their instructions, worded for them.

## Which reservations a rule covers

- \`listingIds\`: the listings it applies to; omit it for all listings, including ones you add later.
- \`channels\`: only bookings from these channels (\`airbnb\`, \`vrbo\`, \`booking\`, \`direct\`); omit for all.

## Template variables

Write a variable's name between double braces anywhere in the text, e.g. \`{{guest_first_name}}\` (spaces inside
the braces are fine); it is replaced with the reservation's own value when the message is sent. A rule whose
text uses a name not in this list is refused when you create it, with the unknown names and the list of valid
ones, so a typo never reaches a guest.

${templateVariableTable}

Example:

\`\`\`
Hi {{guest_first_name}}, we look forward to hosting you at {{listing_name}} from {{check_in_date}}.
Check-in is from {{check_in_time}}; your door code is {{access_code}}. — {{host_first_name}}
\`\`\`

## Pausing

A paused rule sends nothing until it is resumed; its settings are kept. Pausing a rule that is already paused
changes nothing. Rules are not edited in place: to change a rule's text or timing, create a new rule and pause
the old one.

## Tools

\`get_message_rules\` lists the rules (optionally those that apply to one listing), \`create_message_rule\` adds
an active rule, and \`pause_message_rule\` pauses one. These need the \`messageRules:read\` and
\`messageRules:write\` scopes.
`,
};
