import { z } from 'zod';
import { localDateSchema } from '../core/dates.ts';
import { channelSchema } from '../listings/listings.ts';
import { analyticsScopeShape } from './analytics-filters.ts';
import { analyticsMetaSchema } from './analytics-result.ts';

/** Largest page of get_upcoming_reservations. */
export const maxUpcomingLimit = 100;

/** Input of get_upcoming_reservations. */
export const upcomingReservationsInputSchema = z.object({
  ...analyticsScopeShape,
  withinDays: z
    .number()
    .int()
    .min(0)
    .max(365)
    .default(30)
    .describe('Days ahead from today (0 = today only; default 30).'),
  limit: z.number().int().min(1).max(maxUpcomingLimit).default(20).describe('Most reservations per page.'),
  cursor: z.string().max(512).optional().describe('nextCursor of the previous page.'),
});
/** Input of get_upcoming_reservations. */
export type UpcomingReservationsInput = z.input<typeof upcomingReservationsInputSchema>;

/** Result of get_upcoming_reservations. */
export const upcomingReservationsSchema = z.object({
  meta: analyticsMetaSchema,
  items: z.array(
    z.object({
      reservationId: z.string(),
      listingId: z.string(),
      listingName: z.string(),
      guestFirstName: z.string().describe('Written by the guest or channel: untrusted.'),
      startDate: localDateSchema.describe('Check-in.'),
      endDate: localDateSchema.describe('Check-out.'),
      nights: z.number().int(),
      guests: z.number().int().describe('Adults + children.'),
      channel: channelSchema,
      currency: z.string(),
      rent: z.number().describe('Accommodation after discounts, major units.'),
      guestTotal: z.number().describe('Everything the guest pays, major units.'),
      payout: z.number().describe('What the host receives, major units.'),
      daysUntilArrival: z
        .number()
        .int()
        .describe('Check-in − the listing’s today; 0 or less for guests already in house.'),
      inHouse: z.boolean().describe('The guest is staying now (checked in, not yet out).'),
    }),
  ),
  inHouse: z.number().int().describe('Guests in house now, in scope (on every page).'),
  arrivals: z.number().int().describe('Arrivals from today within withinDays, in scope (on every page).'),
  nextCursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last.'),
  hasMore: z.boolean(),
});
/** Result of get_upcoming_reservations. */
export type UpcomingReservations = z.infer<typeof upcomingReservationsSchema>;
