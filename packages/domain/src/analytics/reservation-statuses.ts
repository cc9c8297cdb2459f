import { z } from 'zod';
import { analyticsFiltersSchema } from './analytics-filters.ts';
import { analyticsMetaSchema } from './analytics-result.ts';
import { currencyAmountsSchema, shareSchema } from './reservation-figures.ts';

/**
 * Statuses as a host thinks of them: accepted stays split by where they stand today (in each listing's own
 * time zone), cancellations by who cancelled.
 */
export const normalisedStatuses = [
  'inquiry',
  'pending',
  'upcoming',
  'in_house',
  'completed',
  'cancelled_by_guest',
  'cancelled_by_host',
  'cancelled_by_channel',
  'declined',
  'expired',
] as const;
/** One of {@link normalisedStatuses}. */
export type NormalisedStatus = (typeof normalisedStatuses)[number];

/** Input of get_reservation_status_stats: a period of check-ins and a scope. */
export const reservationStatusStatsInputSchema = analyticsFiltersSchema;
/** Input of get_reservation_status_stats. */
export type ReservationStatusStatsInput = z.input<typeof reservationStatusStatsInputSchema>;

/** Result of get_reservation_status_stats. */
export const reservationStatusStatsSchema = z.object({
  meta: analyticsMetaSchema,
  reservations: z
    .number()
    .int()
    .describe('Every reservation, request and inquiry checking in during the period.'),
  statuses: z
    .array(
      z.object({
        status: z.enum(normalisedStatuses),
        rawStatus: z
          .enum(['inquiry', 'pending', 'accepted', 'declined', 'expired', 'cancelled'])
          .describe('The stored status it comes from.'),
        reservations: z.number().int(),
        share: shareSchema.describe('Share of all reservations in the result.'),
        nights: z.number().int().describe('Whole-stay nights.'),
        rent: currencyAmountsSchema.describe('Rent as quoted or booked, per currency.'),
      }),
    )
    .describe(
      'Every status, in this order, zeros included: upcoming (check-in after today), in_house (today between ' +
        'check-in and check-out), completed (checked out today or earlier).',
    ),
});
/** Result of get_reservation_status_stats. */
export type ReservationStatusStats = z.infer<typeof reservationStatusStatsSchema>;
