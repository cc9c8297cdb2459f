import { z } from 'zod';

// The request bodies of the Host Tools write operations, with Host Tools' field names, exactly as existing
// integrations send them (reference/hosttools-rest.md §2). Each is strict: a field Innkeep does not store is
// refused by name rather than silently dropped, so an integration never believes a change was made.

/**
 * A strict body object, named `where` in messages, whose refusal of unknown fields names them and the fields
 * it does take. Used for every body and nested object of the Host Tools writes.
 */
function hostToolsObject<Shape extends z.ZodRawShape>(where: string, shape: Shape) {
  const fields = Object.keys(shape);
  const takes = fields.length === 0 ? 'takes no fields' : `takes only ${fields.join(', ')}`;
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `${where} ${takes}; ${issue.keys.join(', ')} cannot be set here (Innkeep does not store ${
            issue.keys.length === 1 ? 'it' : 'them'
          }), so nothing was changed.`
        : undefined,
  });
}

/**
 * A stay date as Host Tools clients send it: `YYYY-MM-DD`, or the ISO midnight the real service itself answers
 * with (`2026-02-19T00:00:00.000Z`). Either names a listing-local date; see {@link stayDateOf}.
 */
const hostToolsDateSchema = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}(T00:00:00(\.0{1,9})?(Z|\+00:00)?)?$/,
    'Use YYYY-MM-DD, or an ISO midnight such as 2026-02-19T00:00:00.000Z.',
  )
  .describe('A listing-local date: YYYY-MM-DD, or ISO midnight such as 2026-02-19T00:00:00.000Z.');

/**
 * The `YYYY-MM-DD` a {@link hostToolsDateSchema} value names. Host Tools dates are listing-local wall clock
 * even when written as UTC midnight, so the date part is the date; it is never shifted by a time zone.
 */
export function stayDateOf(value: string): string {
  return value.slice(0, 10);
}

const hourSchema = z.number().int().min(0).max(23);
const amountSchema = z.number().min(0);
const percentSchema = z.number().min(0).max(100);

/** Body of `POST /setListing/{listingId}`: the listing settings Innkeep stores, by their Host Tools names. */
export const setListingBodySchema = hostToolsObject('setListing', {
  name: z.string().describe('Listing name guests see.'),
  checkInTime: hourSchema.describe('Local hour guests may arrive from, 0–23.'),
  checkOutTime: hourSchema.describe('Local hour guests leave by, 0–23.'),
  minNights: z.number().int().min(1).describe('Shortest stay, in nights.'),
  maxGuests: z.number().int().min(1).describe('Most guests allowed (adults and children).'),
  basePrice: amountSchema.describe('Default nightly price, in the listing currency.'),
  minPrice: amountSchema.nullable().describe('Price floor; null removes it.'),
  weeklyDiscount: percentSchema
    .nullable()
    .describe('Percent off stays of 7–27 nights; null or 0 removes it.'),
  monthlyDiscount: percentSchema
    .nullable()
    .describe('Percent off stays of 28 nights or more; null or 0 removes it.'),
})
  .partial()
  .describe('Any of the listing settings to change; omitted ones stay as they are.');

/** One date of a `setPrices` body. */
const priceChangeSchema = hostToolsObject('A setPrices entry', {
  date: hostToolsDateSchema.describe('The night to change; not before the listing’s today.'),
  price: amountSchema
    .nullable()
    .optional()
    .describe('Nightly price for this date, in the listing currency; null goes back to the base price.'),
  minNights: z
    .number()
    .int()
    .min(1)
    .nullable()
    .optional()
    .describe('Minimum stay for arrivals on this date; null goes back to the listing’s minimum.'),
  blockCheckin: z
    .boolean()
    .optional()
    .describe('true stops check-ins on this date; false allows them again.'),
  blockCheckout: z
    .boolean()
    .optional()
    .describe('true stops check-outs on this date; false allows them again.'),
});

/** Body of `POST /setPrices/{listingId}`: per-date prices and stay restrictions, on every channel. */
export const setPricesBodySchema = hostToolsObject('setPrices', {
  prices: z.array(priceChangeSchema).describe('The dates to change, at most one entry per date.'),
});

/** Body of `POST /createReservation`: a direct booking, as Host Tools takes it. */
export const createReservationBodySchema = hostToolsObject('createReservation', {
  listingID: z.string().describe('The listing to book.'),
  startDate: hostToolsDateSchema.describe('Check-in date (first night).'),
  endDate: hostToolsDateSchema.describe('Check-out date; the last night is the day before.'),
  confirmationCode: z
    .string()
    .optional()
    .describe('Your own booking reference (letters, digits, - and _); generated when omitted.'),
  firstName: z.string().describe('Guest’s first name.'),
  lastName: z.string().describe('Guest’s last name.'),
  email: z.string().optional().describe('Guest’s email; an empty string means none.'),
  phone: z.string().optional().describe('Guest’s phone; an empty string means none.'),
  guests: hostToolsObject('createReservation’s guests', {
    adults: z.number().int().min(1).describe('Adults, at least 1.'),
    children: z.number().int().min(0).optional().describe('Children; they count towards maxGuests.'),
    infants: z.number().int().min(0).optional().describe('Infants; they do not count towards maxGuests.'),
    pets: z.number().int().min(0).optional().describe('Pets coming along.'),
  }),
  hostPayout: amountSchema
    .optional()
    .describe('What the host receives, in the listing currency; defaults to guestPrice.'),
  guestPrice: amountSchema
    .optional()
    .describe('Total the guest pays, in the listing currency; omit to price the stay from the calendar.'),
  status: z
    .enum(['inquiry', 'pending', 'accepted'])
    .optional()
    .describe(
      'accepted (default) books the dates; pending holds them awaiting an answer; inquiry holds none.',
    ),
  notes: z.string().optional().describe('Private host notes.'),
  checkInTime: hourSchema.optional().describe('Local arrival hour, 0–23; defaults to the listing’s.'),
  checkOutTime: hourSchema.optional().describe('Local departure hour, 0–23; defaults to the listing’s.'),
});

/** Body of `POST /setReservation/{reservationId}`: the reservation fields Innkeep stores. */
export const setReservationBodySchema = hostToolsObject('setReservation', {
  firstName: z.string().describe('Guest’s first name.'),
  lastName: z.string().describe('Guest’s last name.'),
  email: z.string().nullable().describe('Guest’s email; null removes it.'),
  phone: z.string().nullable().describe('Guest’s phone; null removes it.'),
  accessCode: z
    .string()
    .nullable()
    .describe('Door or lock code for the guest (read back as lockCode); null generates a new random one.'),
  checkInTime: hourSchema.nullable().describe('Local arrival hour, 0–23; null returns to the listing’s.'),
  checkOutTime: hourSchema.nullable().describe('Local departure hour, 0–23; null returns to the listing’s.'),
  notes: z.string().nullable().describe('Private host notes; null removes them.'),
})
  .partial()
  .describe('Any of these fields; omitted ones stay as they are.');

/** Body of `POST /cancelReservation/{reservationId}`: nothing (`{}`, or no body at all). */
export const cancelReservationBodySchema = hostToolsObject('cancelReservation', {});

/** Body of `POST /sendMessage/{reservationId}`. */
export const sendMessageBodySchema = hostToolsObject('sendMessage', {
  message: z.string().describe('The message to the guest, 1–5000 characters.'),
});

/** Body of `POST /setWebhook`: the one URL receiving Host Tools-shaped deliveries. */
export const setWebhookBodySchema = hostToolsObject('setWebhook', {
  webhookURL: z.string().optional().describe('Where reservation and message events are POSTed (https).'),
  url: z
    .string()
    .optional()
    .describe('The same as webhookURL, as some clients name it; send one of the two.'),
}).refine((body) => (body.webhookURL === undefined) !== (body.url === undefined), {
  message: 'Send the URL as webhookURL (or url), once.',
});
