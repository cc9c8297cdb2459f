import { createPricingRuleOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** create_pricing_rule: adds a rule that adjusts nightly prices, applied after all existing rules. */
export const createPricingRuleTool = defineTool({
  operation: createPricingRuleOperation,
  name: 'create_pricing_rule',
  title: 'Create a pricing rule',
  description:
    'Adds a pricing rule that raises or lowers nightly prices by a percent or a fixed amount, on the nights ' +
    'where all its conditions hold: days of the week, a date range (both dates included), the next N days ' +
    '(last minute), or short open gaps between bookings (orphan gaps). It applies after all existing rules, to ' +
    'the price they leave, and never below a listing’s minPrice. Call get_pricing_rules first to see the rules ' +
    'already in place, and get_calendar for a few affected dates to show the host the prices before and after. ' +
    'What changes: ⚠️ wide and lasting, the rule changes the price of every matching night at once, for new ' +
    'quotes and bookings and on every connected channel; without listingIds it covers every listing of the account, ' +
    'including listings added later. Existing reservations keep their price. There is no tool to edit, disable ' +
    'or delete a rule afterwards, so create it only with terms the host approved. Each call adds another rule. ' +
    'Returns the rule with its position in the order.',
  writeHints: { destructiveHint: true, idempotentHint: false },
});
