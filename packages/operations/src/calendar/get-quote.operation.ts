import { quoteInputSchema, quoteSchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';

/** get_quote: what a stay would cost, without booking it. */
export const getQuoteOperation = defineOperation({
  id: 'get_quote',
  scopes: ['calendar:read'],
  access: 'read',
  input: quoteInputSchema,
  output: quoteSchema,
  run: (input, { actor, domain }) => domain.pricing.getQuote(actor, input),
});
