import { createMessageRuleInputSchema, messageRuleSchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';

/** create_message_rule: adds an automated guest message, active at once. */
export const createMessageRuleOperation = defineOperation({
  id: 'create_message_rule',
  scopes: ['messageRules:write'],
  access: 'write',
  input: createMessageRuleInputSchema,
  output: messageRuleSchema,
  run: (input, { actor, domain }) => domain.messageRules.create(actor, input),
});
