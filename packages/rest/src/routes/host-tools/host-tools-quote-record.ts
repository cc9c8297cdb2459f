import type { Quote } from '@innkeep/domain';
import { z } from 'zod';

/** Host Tools' kinds of quote line. */
const quoteLineTypes = ['price', 'fee', 'tax', 'deposit'] as const;

/**
 * Innkeep's quote lines in Host Tools' kinds: the nights and their length-of-stay discount are the price,
 * cleaning and extra-guest fees are fees, tax is tax. Innkeep takes no deposits.
 */
const quoteLineTypeOf = {
  accommodation: 'price',
  discount: 'price',
  cleaning_fee: 'fee',
  extra_guest_fee: 'fee',
  tax: 'tax',
} as const satisfies Record<Quote['lineItems'][number]['type'], (typeof quoteLineTypes)[number]>;

const partySchema = z.object({
  adults: z.number(),
  children: z.number(),
  infants: z.number(),
  pets: z.number(),
});

/** A priced stay as Host Tools clients read it (`PricingQuote` of the Host Tools API). */
export const hostToolsQuoteSchema = z.object({
  listingID: z.string(),
  currency: z.string().describe('ISO 4217 code of every amount.'),
  reservation: z
    .object({
      startDate: z.string().describe('Check-in date, YYYY-MM-DD.'),
      endDate: z.string().describe('Check-out date, YYYY-MM-DD.'),
      nights: z.number(),
      guests: partySchema.describe('The party as asked about; adults and children are the guests priced.'),
    })
    .describe('The stay that was priced.'),
  basePrice: z.number().describe('The nights’ prices added up, before discount, fees and taxes.'),
  total: z.number().describe('What the guest pays; the line items add up to it.'),
  lineItems: z
    .array(
      z.object({
        label: z.string(),
        amount: z.number().describe('In currency; the discount line is negative.'),
        type: z.enum(quoteLineTypes),
      }),
    )
    .describe('Money lines; lines of zero are left out.'),
});
/** A priced stay as Host Tools clients read it. */
export type HostToolsQuote = z.infer<typeof hostToolsQuoteSchema>;

/** Innkeep's quote for `guests` as Host Tools clients read it. */
export function toHostToolsQuote(quote: Quote, guests: z.infer<typeof partySchema>): HostToolsQuote {
  return {
    listingID: quote.listingId,
    currency: quote.currency,
    reservation: {
      startDate: quote.startDate,
      endDate: quote.endDate,
      nights: quote.nights,
      guests: {
        adults: guests.adults,
        children: guests.children,
        infants: guests.infants,
        pets: guests.pets,
      },
    },
    basePrice: quote.accommodation,
    total: quote.total,
    lineItems: quote.lineItems.map((line) => ({
      label: line.name,
      amount: line.amount,
      type: quoteLineTypeOf[line.type],
    })),
  };
}
