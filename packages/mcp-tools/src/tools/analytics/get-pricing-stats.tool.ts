import { getPricingStatsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_pricing_stats: listed prices of open nights, booked ADR and realisation. */
export const getPricingStatsTool = defineTool({
  operation: getPricingStatsOperation,
  name: 'get_pricing_stats',
  title: 'Listed prices and realisation',
  description:
    'What the calendar asks for nights still open, and what sold nights fetched. Per currency: mean, median, ' +
    'min and max listed price of the open nights of a date range (neither booked, requested nor blocked), ' +
    'also split into weekday (Sun–Thu) and weekend (Fri, Sat) nights; and over the sold nights, booked ADR, ' +
    'the mean listed price of those same nights and realisation = booked revenue / listed price (0.92 means ' +
    'booked 8 % below list). Listed prices are the calendar’s effective prices (per-date or base price, ' +
    'pricing rules, minimum price) as they stand today: Innkeep keeps no price history, so for past nights ' +
    'they are today’s values. A channel filter narrows the sold nights only. Use it to judge whether prices ' +
    'are too high or too low; get_calendar shows single nights, get_adr_stats the booked rates over time.',
});
