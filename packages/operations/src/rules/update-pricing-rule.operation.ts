import { pricingRuleSchema, updatePricingRuleInputSchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';

/** update_pricing_rule: changes a pricing rule's adjustment, conditions or switch; its place in the order stays. */
export const updatePricingRuleOperation = defineOperation({
  id: 'update_pricing_rule',
  scopes: ['pricing:write'],
  access: 'write',
  input: updatePricingRuleInputSchema,
  output: pricingRuleSchema,
  run: (input, { actor, domain }) => domain.pricing.updateRule(actor, input),
});
