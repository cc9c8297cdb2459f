import { z } from 'zod';
import { localDateSchema } from '../core/dates.ts';
import { analyticsFiltersShape, withPeriodChecks } from './analytics-filters.ts';
import { analyticsMetaSchema, periodSchema } from './analytics-result.ts';
import { changeSchema, nullReasonsSchema } from './performance-figures.ts';
import { currencyAmountsSchema } from './reservation-figures.ts';

/** The pickup windows get_pace_stats can report, in days before the as-of date. */
export const pickupWindowDays = [1, 7, 30] as const;

/** Input of get_pace_stats: the stay period, the scope, the as-of date and the pickup windows. */
export const paceStatsInputSchema = withPeriodChecks(
  z.object({
    ...analyticsFiltersShape,
    asOf: localDateSchema
      .optional()
      .describe('Read the books as at the end of this day (account’s time zone); default today, not later.'),
    pickupDays: z
      .array(z.literal(pickupWindowDays))
      .min(1)
      .max(pickupWindowDays.length)
      .optional()
      .describe('Pickup windows, in days before asOf; default all.'),
  }),
);
/** Input of get_pace_stats. */
export type PaceStatsInput = z.input<typeof paceStatsInputSchema>;

const count = (description: string) => z.number().int().describe(description);

/** What was on the books for a stay period at one moment. */
export const onTheBooksSchema = z.object({
  period: periodSchema.describe('The stay nights counted.'),
  asOf: localDateSchema.describe('The books as they stood at the end of this day (account time zone).'),
  reservations: count('Accepted reservations with at least one night in the period.'),
  nights: count('Their nights inside the period.'),
  availableNights: count(
    'Nights since each listing became active minus nights blocked on the calendar today (blocks have no ' +
      'history, so the same blocks count for last year).',
  ),
  occupancy: z.number().nullable().describe('nights / availableNights, 0–1, 4 decimals.'),
  rent: currencyAmountsSchema.describe(
    'Rent (accommodation after discounts) of those nights per currency: as of today at the nightly rates (as ' +
      'the revenue tools); earlier books spread each stay’s rent evenly over its nights.',
  ),
  nullReasons: nullReasonsSchema,
});
/** The books at one moment. */
export type OnTheBooks = z.infer<typeof onTheBooksSchema>;

/** How the books moved in the days before the as-of date. */
export const pickupSchema = z.object({
  days: z.number().int().describe('Window length in days.'),
  since: localDateSchema.describe('The books are compared with their state at the end of this day.'),
  netReservations: z.number().int().describe('Reservations on the books now − then.'),
  netNights: z.number().int().describe('Nights on the books now − then (the pickup).'),
  netRent: currencyAmountsSchema.describe('Rent on the books now − then, per currency.'),
  newReservations: count(
    'Reservations on the books for this period at the end of the window that were not at its start.',
  ),
  newNights: count('Their nights inside the period.'),
  cancelledReservations: count(
    'Reservations on the books for this period at the start of the window and not at its end: cancelled (or, ' +
      'rarely, moved out of the period).',
  ),
  cancelledNights: count('Their nights inside the period, as they stood at the start of the window.'),
});
/** Pickup over one window. */
export type Pickup = z.infer<typeof pickupSchema>;

/** Result of get_pace_stats. */
export const paceStatsSchema = z.object({
  meta: analyticsMetaSchema,
  onTheBooks: onTheBooksSchema,
  lastYear: onTheBooksSchema.describe(
    'Same time last year: the same stay dates a year earlier (29 February → 28 February), as of asOf − 1 year.',
  ),
  change: z
    .object({
      reservations: changeSchema,
      nights: changeSchema,
      occupancy: changeSchema,
      rent: z
        .array(z.object({ currency: z.string(), ...changeSchema.shape }))
        .describe('Rent change per currency present in either year.'),
    })
    .describe('This year against same time last year.'),
  pickup: z.array(pickupSchema).describe('One entry per pickup window, shortest first.'),
});
/** Result of get_pace_stats. */
export type PaceStats = z.infer<typeof paceStatsSchema>;
