import { getPricingRulesOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_pricing_rules: the rules that adjust nightly prices. */
export const getPricingRulesTool = defineTool({
  operation: getPricingRulesOperation,
  name: 'get_pricing_rules',
  title: 'List pricing rules',
  description:
    'Lists the rules that adjust nightly prices, in the order they apply (lowest position first, each on the ' +
    'price left by the ones before): the adjustment (a signed percent or a fixed amount), the conditions (days ' +
    'of the week, a date window, last-minute days before arrival, orphan gaps between bookings), the listings it ' +
    'covers (null = all, including future ones), and whether it is enabled. Filter by listingId for the rules ' +
    'that affect one listing. get_calendar shows each night’s resulting price and the rules applied to it. ' +
    'Returns up to limit (default 20) and nextCursor when more exist.',
});
