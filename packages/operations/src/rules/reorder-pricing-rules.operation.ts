import { pricingRuleSchema, reorderPricingRulesInputSchema } from '@innkeep/domain';
import { z } from 'zod';
import { defineOperation } from '../operation.ts';

/** reorder_pricing_rules: sets the order in which the account's pricing rules apply. */
export const reorderPricingRulesOperation = defineOperation({
  id: 'reorder_pricing_rules',
  scopes: ['pricing:write'],
  access: 'write',
  input: reorderPricingRulesInputSchema,
  output: z.object({
    rules: z.array(pricingRuleSchema).describe('Every pricing rule of the account, in the new order.'),
  }),
  run: async (input, { actor, domain }) => ({ rules: await domain.pricing.reorderRules(actor, input) }),
});
