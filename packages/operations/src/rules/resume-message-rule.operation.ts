import { messageRuleRefInputSchema, messageRuleSchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';

/** resume_message_rule: lets a paused automated guest message send again; an active one stays as it is. */
export const resumeMessageRuleOperation = defineOperation({
  id: 'resume_message_rule',
  scopes: ['messageRules:write'],
  access: 'write',
  input: messageRuleRefInputSchema,
  output: messageRuleSchema,
  run: (input, { actor, domain }) => domain.messageRules.resume(actor, input),
});
