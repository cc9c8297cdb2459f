import { listingIdSchema, localDateIn } from '@innkeep/domain';
import { z } from 'zod';
import { dateRangeReadingSchema } from '../dates/date-range-reading.ts';
import { readDateRange } from '../dates/read-date-range.ts';
import { defineOperation } from '../operation.ts';

/** collect_date_range: what a person said about dates, as an explicit range. */
export const collectDateRangeOperation = defineOperation({
  id: 'collect_date_range',
  scopes: [],
  access: 'read',
  input: z.object({
    phrase: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .describe('The dates as the person said them, e.g. "next weekend" or "June 3 - June 9".'),
    listingId: listingIdSchema.optional().describe('Use this listing’s time zone, not the account’s.'),
  }),
  output: dateRangeReadingSchema,
  run: async ({ phrase, listingId }, { actor, domain, clock }) => {
    const timeZone =
      listingId === undefined
        ? (await domain.identity.getUser(actor)).account.timeZone
        : (await domain.listings.get(actor, listingId)).timeZone;
    return readDateRange(phrase, { today: localDateIn(timeZone, clock.now()), timeZone });
  },
});
