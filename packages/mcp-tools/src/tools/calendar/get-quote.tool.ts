import { getQuoteOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_quote: what a stay would cost, without booking it. */
export const getQuoteTool = defineTool({
  operation: getQuoteOperation,
  name: 'get_quote',
  title: 'Price a stay',
  description:
    'Prices a stay without booking or holding it: each night, discounts, fees, taxes and the guest’s ' +
    'total. Refuses a stay the listing cannot take: conflict for taken nights (error.details.clashes), ' +
    'failed_precondition for stay length, party size, closed days or a disabled listing. Use it before ' +
    'create_reservation.',
});
