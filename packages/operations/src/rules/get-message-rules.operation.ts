import { listMessageRulesInputSchema, messageRuleSchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';
import { pageOutput } from '../page-output.ts';
import { fetchPageThatFits, modelLimit } from '../read-paging.ts';

/** get_message_rules: the automated guest messages. */
export const getMessageRulesOperation = defineOperation({
  id: 'get_message_rules',
  scopes: ['messageRules:read'],
  access: 'read',
  input: listMessageRulesInputSchema.extend({ limit: modelLimit('rules') }),
  output: pageOutput(messageRuleSchema),
  run: (input, { actor, domain }) =>
    fetchPageThatFits(
      input.limit,
      (limit) => domain.messageRules.list(actor, { ...input, limit }),
      (page) => page,
    ),
});
