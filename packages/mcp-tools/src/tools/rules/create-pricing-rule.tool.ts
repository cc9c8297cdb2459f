import { createPricingRuleOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** create_pricing_rule: adds a rule that adjusts nightly prices, applied after all existing rules. */
export const createPricingRuleTool = defineTool({
  operation: createPricingRuleOperation,
  name: 'create_pricing_rule',
  title: 'Create a pricing rule',
  description:
    'Adds a rule raising or lowering nightly prices by a percent or an amount on nights matching all its ' +
    'conditions (weekdays, dates, last minute, orphan gaps), after existing rules and never below ' +
    'minPrice. Check get_pricing_rules first. What changes: ⚠️ prices here (for every channel) and, without ' +
    'listingIds, every listing, also future ones; no tool here edits or removes it. Returns the rule.',
  writeHints: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
});
