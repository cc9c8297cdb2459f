import { z } from 'zod';
import { channelSchema } from '../listings/listings.ts';
import { analyticsFiltersShape, withPeriodChecks } from './analytics-filters.ts';
import { analyticsMetaSchema } from './analytics-result.ts';
import { nullReasonsSchema } from './performance-figures.ts';
import { dayBucketSchema, daySummarySchema, shareSchema } from './reservation-figures.ts';

/** Which reservations a cancellation rate is computed over. */
export const cancellationCohorts = ['check_in', 'booked'] as const;
/** One of {@link cancellationCohorts}. */
export type CancellationCohort = (typeof cancellationCohorts)[number];

/** Input of get_cancellation_stats. */
export const cancellationStatsInputSchema = withPeriodChecks(
  z.object({
    ...analyticsFiltersShape,
    cohort: z
      .enum(cancellationCohorts)
      .optional()
      .describe(
        'check_in (default): stays due to check in during the period; booked: reservations booked during ' +
          'it.',
      ),
  }),
);
/** Input of get_cancellation_stats. */
export type CancellationStatsInput = z.input<typeof cancellationStatsInputSchema>;

const count = (description: string) => z.number().int().describe(description);
const rate = z.number().nullable().describe('cancelled / (cancelled + live), 0–1, 4 decimals.');

/** Cancelled against live reservations, nights or rent. */
export const cancellationSplitSchema = z.object({
  cancelled: z.number().describe('Cancelled.'),
  live: z.number().describe('Accepted (not cancelled).'),
  rate,
});

/** Result of get_cancellation_stats. */
export const cancellationStatsSchema = z.object({
  meta: analyticsMetaSchema,
  cohort: z.enum(cancellationCohorts),
  reservations: cancellationSplitSchema.describe(
    'Counts. Inquiries, pending, declined and expired are left out.',
  ),
  nights: cancellationSplitSchema.describe('Whole-stay nights as booked.'),
  rent: z
    .array(z.object({ currency: z.string(), ...cancellationSplitSchema.shape }))
    .describe('Rent as booked (the original value, major units) per currency.'),
  byCancelledBy: z
    .array(
      z.object({
        cancelledBy: z.enum(['guest', 'host', 'channel']),
        reservations: count('Cancellations by this party.'),
        nights: count('Their nights.'),
        share: shareSchema.describe('Share of all cancellations.'),
      }),
    )
    .describe('Who cancelled: guest, host, or the channel.'),
  byChannel: z
    .array(
      z.object({
        channel: channelSchema,
        cancelled: count('Cancelled reservations.'),
        live: count('Accepted reservations.'),
        rate,
      }),
    )
    .describe('Per booking channel, channels with no reservations left out.'),
  cancellationLeadTime: daySummarySchema
    .extend({ buckets: z.array(dayBucketSchema) })
    .describe(
      'Days from the cancellation (listing-local date) to the planned check-in; "<0" holds cancellations ' +
        'after check-in.',
    ),
  bookingToCancellation: daySummarySchema.describe('Days from booking to cancellation.'),
  final: z
    .boolean()
    .describe('False when some of the cohort’s check-ins are still ahead: the rate can still rise.'),
  nullReasons: nullReasonsSchema,
});
/** Result of get_cancellation_stats. */
export type CancellationStats = z.infer<typeof cancellationStatsSchema>;
