import { pauseMessageRuleOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** pause_message_rule: pauses an automated message rule, or resumes a paused one. */
export const pauseMessageRuleTool = defineTool({
  operation: pauseMessageRuleOperation,
  name: 'pause_message_rule',
  title: 'Pause or resume a message rule',
  description:
    'Pauses an automated message rule, or resumes it with paused false; get_message_rules gives its id. ' +
    'What changes: a paused rule sends guests nothing more; settings and sent messages stay; repeating ' +
    'changes nothing. Returns the rule.',
  writeHints: { destructiveHint: false, idempotentHint: true, openWorldHint: true },
});
