import { getPricingRulesOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_pricing_rules: the rules that adjust nightly prices. */
export const getPricingRulesTool = defineTool({
  operation: getPricingRulesOperation,
  name: 'get_pricing_rules',
  title: 'List pricing rules',
  description:
    'Lists pricing rules in the order they apply, each on the price the earlier ones leave: adjustment ' +
    '(percent or amount), conditions (weekdays, dates, last minute, orphan gaps), listings covered (null ' +
    '= all, also future ones) and enabled. get_calendar shows each night’s result.',
});
