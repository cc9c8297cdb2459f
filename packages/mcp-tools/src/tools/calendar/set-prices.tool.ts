import { setPricesOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** set_prices: per-date nightly prices and stay restrictions of one listing. */
export const setPricesTool = defineTool({
  operation: setPricesOperation,
  name: 'set_prices',
  title: 'Set nightly prices and stay restrictions',
  description:
    'Sets, for chosen dates of one listing, the nightly price (for every channel, or for one channel only), the ' +
    'minimum stay for guests arriving that day, and whether check-in or check-out is closed that day. Call ' +
    'get_calendar for the dates first: it shows the current prices, the pricing rules that apply and what is ' +
    'booked, and the old values are what the host needs to undo a change. Each entry names one night (YYYY-MM-DD, ' +
    'listing-local, not before the listing’s today); fields left out stay as they are, and null removes an ' +
    'override (back to the base price, or the listing’s minimum stay). Prices are in the listing’s currency in ' +
    'major units (149.5 = 149.50); pricing rules still apply on top and the listing’s minPrice is the floor. ' +
    'What changes: the previous values of those dates are overwritten, and from now on new quotes and bookings, ' +
    'and every connected channel, use the new prices and restrictions; existing reservations keep their price. ' +
    'Returns the changed days as the calendar now shows them, with the listing’s currency.',
  writeHints: { destructiveHint: true, idempotentHint: true },
});
