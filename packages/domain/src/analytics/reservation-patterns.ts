import { z } from 'zod';
import { analyticsFiltersSchema } from './analytics-filters.ts';
import { analyticsMetaSchema } from './analytics-result.ts';
import { nullReasonsSchema } from './performance-figures.ts';
import {
  dayBucketSchema,
  daySummarySchema,
  shareSchema,
  weekdayCountSchema,
  weekdays,
} from './reservation-figures.ts';

/** Input of get_booking_pattern_stats: a period of check-ins and a scope. */
export const bookingPatternStatsInputSchema = analyticsFiltersSchema;
/** Input of get_booking_pattern_stats. */
export type BookingPatternStatsInput = z.input<typeof bookingPatternStatsInputSchema>;

/** Result of get_booking_pattern_stats. */
export const bookingPatternStatsSchema = z.object({
  meta: analyticsMetaSchema,
  checkIns: z
    .number()
    .int()
    .describe('Accepted reservations checking in during the period: the cohort below.'),
  bookingWeekday: z
    .array(weekdayCountSchema)
    .describe('Weekday the cohort was booked on (confirmation date, else creation, in the listing’s zone).'),
  checkInWeekday: z.array(weekdayCountSchema).describe('Weekday of check-in.'),
  leadTime: daySummarySchema
    .extend({ buckets: z.array(dayBucketSchema) })
    .describe('Days from booking to check-in; the "<0" bucket holds stays recorded after they began.'),
  lengthOfStay: daySummarySchema
    .extend({ buckets: z.array(dayBucketSchema) })
    .describe('Nights per stay (whole stays, also nights after the period); the mean is ALOS.'),
  guests: z
    .object({
      mean: z.number().nullable().describe('Mean party size (adults + children), 2 decimals.'),
      sizes: z
        .array(z.object({ guests: z.number().int(), count: z.number().int(), share: shareSchema }))
        .describe('Reservations per party size, smallest first; sizes nobody booked are left out.'),
    })
    .describe('Party sizes of the cohort.'),
  occupancyByWeekday: z
    .array(
      z.object({
        weekday: z.enum(weekdays),
        bookedNights: z.number().int().describe('Accepted nights falling on this weekday in the period.'),
        availableNights: z.number().int().describe('Listing-nights on this weekday minus blocked ones.'),
        occupancy: z.number().nullable().describe('bookedNights / availableNights, 0–1, 4 decimals.'),
      }),
    )
    .describe('Occupancy per weekday of the stay night (every night in the period, not only the cohort’s).'),
  nullReasons: nullReasonsSchema,
});
/** Result of get_booking_pattern_stats. */
export type BookingPatternStats = z.infer<typeof bookingPatternStatsSchema>;
