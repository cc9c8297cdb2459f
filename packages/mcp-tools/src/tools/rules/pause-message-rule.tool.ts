import { pauseMessageRuleOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** pause_message_rule: pauses an automated message rule, or resumes a paused one. */
export const pauseMessageRuleTool = defineTool({
  operation: pauseMessageRuleOperation,
  name: 'pause_message_rule',
  title: 'Pause or resume a message rule',
  description:
    'Pauses an automated message rule (paused true, the default), or resumes a paused one (paused false). Use ' +
    'get_message_rules to find the rule’s id and whether it is paused. What changes: a paused rule sends guests ' +
    'nothing more; a resumed rule sends to matching reservations again from then on. The rule’s settings are ' +
    'kept either way, and messages it already sent stay sent. Pausing a paused rule or resuming an active one ' +
    'changes nothing, so the call is safe to repeat. Returns the rule with paused and pausedAt.',
  writeHints: { destructiveHint: false, idempotentHint: true },
});
