import { getQuoteOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_quote: what a stay would cost, without booking it. */
export const getQuoteTool = defineTool({
  operation: getQuoteOperation,
  name: 'get_quote',
  title: 'Price a stay',
  description:
    'Prices a stay at one listing WITHOUT booking it or holding the dates: the price of each night (per-date ' +
    'prices and pricing rules applied, direct channel), the accommodation sum, any weekly or monthly discount, ' +
    'cleaning and extra-guest fees, taxes and the total the guest pays, in the listing’s currency. startDate is ' +
    'check-in and endDate is CHECK-OUT (the morning after the last night): 3 nights from 10 June is startDate ' +
    '2026-06-10, endDate 2026-06-13. It refuses, with the reason, a stay the listing cannot take: conflict when ' +
    'nights are already booked or blocked (error.details.clashes lists them; get_calendar shows open dates), ' +
    'failed_precondition when the stay is shorter than the minimum or longer than the maximum nights, the ' +
    'guests are more than the listing holds, check-in or check-out is closed on those dates, or the listing is ' +
    'disabled. Use it to answer "how much for…" and before create_reservation.',
});
