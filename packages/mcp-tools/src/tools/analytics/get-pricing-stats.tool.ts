import { getPricingStatsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_pricing_stats: listed prices of open nights, booked ADR and realisation. */
export const getPricingStatsTool = defineTool({
  operation: getPricingStatsOperation,
  name: 'get_pricing_stats',
  title: 'Listed prices and realisation',
  description:
    'Listed prices of the period’s open nights (mean, median, min, max; weekday vs weekend) and, for sold ' +
    'nights, booked ADR vs listed price (realisation 0.92 = 8 % below list). Listed prices are today’s, ' +
    'even for past nights. channel narrows sold nights only.',
});
