import { calendarSchema, changedDaySchema, setPricesInputSchema } from '@innkeep/domain';
import { z } from 'zod';
import { defineOperation } from '../operation.ts';

/** set_prices: per-date nightly prices and stay restrictions of one listing. */
export const setPricesOperation = defineOperation({
  id: 'set_prices',
  scopes: ['calendar:write'],
  access: 'write',
  input: setPricesInputSchema,
  output: calendarSchema.extend({
    days: z
      .array(changedDaySchema)
      .describe(
        'The changed dates only, in date order, as the calendar now shows them; priceOutcomes says per price ' +
          'set what a guest pays and which pricing rule or minimum price made it differ from the asked price.',
      ),
  }),
  run: async (input, { actor, domain }) => {
    // The use case returns bare days; the listing says which currency and time zone they are in.
    const listing = await domain.listings.get(actor, input.listingId);
    const days = await domain.calendar.setPrices(actor, input);
    return { listingId: listing.id, currency: listing.currency, timeZone: listing.timeZone, days };
  },
});
