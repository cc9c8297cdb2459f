import {
  createPricingRuleOperation,
  deletePricingRuleOperation,
  getPricingRulesOperation,
  reorderPricingRulesOperation,
  updatePricingRuleOperation,
} from '@innkeep/operations';
import { defineRoute, type RestRoute } from '../../route-definition.ts';

/** Rules that adjust nightly prices: list, create, change, delete and set the order they apply in. */
export const pricingRulesRoutes: readonly RestRoute[] = [
  defineRoute({
    operation: getPricingRulesOperation,
    method: 'GET',
    path: '/getPricingRules',
    summary: 'Lists the pricing rules in the order they apply, optionally those that apply to one listing.',
    description: 'A page of pricing rules with nextCursor/hasMore.',
    tag: 'Pricing rules',
    paging: 'page',
  }),
  defineRoute({
    operation: createPricingRuleOperation,
    method: 'POST',
    path: '/createPricingRule',
    summary: 'Adds a rule that adjusts nightly prices, applied after all existing rules.',
    description: 'The new pricing rule.',
    tag: 'Pricing rules',
    successStatus: 201,
  }),
  defineRoute({
    operation: updatePricingRuleOperation,
    method: 'POST',
    path: '/updatePricingRule/:ruleId',
    summary: 'Changes a pricing rule; omitted fields stay, null removes a condition, its place stays.',
    description: 'The pricing rule as changed.',
    tag: 'Pricing rules',
  }),
  defineRoute({
    operation: deletePricingRuleOperation,
    method: 'DELETE',
    path: '/deletePricingRule/:ruleId',
    summary: 'Deletes a pricing rule; the others keep their order.',
    description: 'The id of the deleted rule and deleted: true.',
    tag: 'Pricing rules',
  }),
  defineRoute({
    operation: reorderPricingRulesOperation,
    method: 'POST',
    path: '/reorderPricingRules',
    summary: 'Sets the order the pricing rules apply in: send every rule id once, first applies first.',
    description: 'Every pricing rule of the account, in the new order.',
    tag: 'Pricing rules',
  }),
];
