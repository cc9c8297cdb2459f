import { pricingRuleRefInputSchema } from '@innkeep/domain';
import { z } from 'zod';
import { defineOperation } from '../operation.ts';

/** delete_pricing_rule: deletes a pricing rule; the others keep their order. */
export const deletePricingRuleOperation = defineOperation({
  id: 'delete_pricing_rule',
  scopes: ['pricing:write'],
  access: 'write',
  input: pricingRuleRefInputSchema,
  output: z.object({
    id: z.string().describe('Id of the deleted pricing rule.'),
    deleted: z.literal(true),
  }),
  run: (input, { actor, domain }) => domain.pricing.deleteRule(actor, input),
});
