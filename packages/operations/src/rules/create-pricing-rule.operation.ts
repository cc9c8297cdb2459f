import { createPricingRuleInputSchema, pricingRuleSchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';

/** create_pricing_rule: adds a rule that adjusts nightly prices, applied after all existing rules. */
export const createPricingRuleOperation = defineOperation({
  id: 'create_pricing_rule',
  scopes: ['pricing:write'],
  access: 'write',
  input: createPricingRuleInputSchema,
  output: pricingRuleSchema,
  run: (input, { actor, domain }) => domain.pricing.createRule(actor, input),
});
