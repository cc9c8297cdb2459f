import { listPricingRulesInputSchema, pricingRuleSchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';
import { pageOutput } from '../page-output.ts';
import { fetchPageThatFits, modelLimit } from '../read-paging.ts';

/** get_pricing_rules: the rules that adjust nightly prices. */
export const getPricingRulesOperation = defineOperation({
  id: 'get_pricing_rules',
  scopes: ['pricing:read'],
  access: 'read',
  input: listPricingRulesInputSchema.extend({ limit: modelLimit('rules') }),
  output: pageOutput(pricingRuleSchema),
  run: (input, { actor, domain }) =>
    fetchPageThatFits(
      input.limit,
      (limit) => domain.pricing.listRules(actor, { ...input, limit }),
      (page) => page,
    ),
});
