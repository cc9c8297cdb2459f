import { messageRuleRefInputSchema, messageRuleSchema } from '@innkeep/domain';
import { z } from 'zod';
import { defineOperation } from '../operation.ts';

/** pause_message_rule: pauses an automated message rule, or resumes a paused one. */
export const pauseMessageRuleOperation = defineOperation({
  id: 'pause_message_rule',
  scopes: ['messageRules:write'],
  access: 'write',
  input: messageRuleRefInputSchema.extend({
    paused: z.boolean().default(true).describe('true (default) pauses; false resumes.'),
  }),
  output: messageRuleSchema,
  run: ({ paused, ...rule }, { actor, domain }) =>
    paused ? domain.messageRules.pause(actor, rule) : domain.messageRules.resume(actor, rule),
});
