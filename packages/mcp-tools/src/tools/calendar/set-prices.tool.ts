import { calendarDaySchema, calendarSchema, setPricesInputSchema } from '@innkeep/domain';
import { z } from 'zod';
import { defineTool } from '../../tool-definition.ts';

/** set_prices: per-date nightly prices and stay restrictions of one listing. */
export const setPricesTool = defineTool({
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
  scopes: ['calendar:write'],
  input: setPricesInputSchema,
  output: calendarSchema.extend({
    days: z
      .array(calendarDaySchema)
      .describe('The changed dates only, in date order, with their effective prices after the change.'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (input, { actor, domain }) => {
    // The use case returns bare days; the listing says which currency and time zone they are in.
    const listing = await domain.listings.get(actor, input.listingId);
    const days = await domain.calendar.setPrices(actor, input);
    return { listingId: listing.id, currency: listing.currency, timeZone: listing.timeZone, days };
  },
});
