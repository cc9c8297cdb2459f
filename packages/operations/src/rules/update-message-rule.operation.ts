import { messageRuleSchema, updateMessageRuleInputSchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';

/** update_message_rule: changes an automated guest message; guests it already wrote to are not written to again. */
export const updateMessageRuleOperation = defineOperation({
  id: 'update_message_rule',
  scopes: ['messageRules:write'],
  access: 'write',
  input: updateMessageRuleInputSchema,
  output: messageRuleSchema,
  run: (input, { actor, domain }) => domain.messageRules.update(actor, input),
});
