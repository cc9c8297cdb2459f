import { listingIdSchema, localDateSchema, quoteSchema } from '@innkeep/domain';
import { z } from 'zod';
import { defineOperation } from '../operation.ts';

/** Most guests one quote prices (the quote's own limit on adults plus children). */
const maxQuotedGuests = 100;

const partySchema = z
  .object({
    adults: z.number().int().min(1).max(maxQuotedGuests).describe('Adults, at least 1.'),
    children: z
      .number()
      .int()
      .min(0)
      .max(maxQuotedGuests)
      .default(0)
      .describe('Children; they count towards the listing’s guests like adults.'),
    infants: z.number().int().min(0).max(20).default(0).describe('Infants; they do not count as guests.'),
    pets: z.number().int().min(0).max(20).default(0).describe('Pets coming along.'),
  })
  .refine((party) => party.adults + party.children <= maxQuotedGuests, {
    path: ['children'],
    message: `Adults and children together can be at most ${maxQuotedGuests}.`,
  })
  .describe('Who is coming.');

/**
 * get_quote_for_party: what a stay would cost for a party given as adults, children, infants and pets.
 * Adults and children are the guests the price counts (capacity, extra-guest fees); infants and pets are
 * carried along so that the answer describes the party that was asked about.
 */
export const getQuoteForPartyOperation = defineOperation({
  id: 'get_quote_for_party',
  scopes: ['calendar:read'],
  access: 'read',
  input: z.object({
    listingId: listingIdSchema,
    startDate: localDateSchema.describe('Check-in date (the first night), YYYY-MM-DD, listing-local.'),
    endDate: localDateSchema.describe('Check-out date (the morning after the last night), YYYY-MM-DD.'),
    guests: partySchema,
  }),
  output: z.object({
    quote: quoteSchema,
    guests: z.object({ adults: z.number(), children: z.number(), infants: z.number(), pets: z.number() }),
  }),
  run: async ({ listingId, startDate, endDate, guests }, { actor, domain }) => ({
    quote: await domain.pricing.getQuote(actor, {
      listingId,
      startDate,
      endDate,
      guests: guests.adults + guests.children,
    }),
    guests,
  }),
});
