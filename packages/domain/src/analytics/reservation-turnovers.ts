import { z } from 'zod';
import { analyticsFiltersShape, withPeriodChecks } from './analytics-filters.ts';
import { analyticsMetaSchema } from './analytics-result.ts';
import { nullReasonsSchema } from './performance-figures.ts';
import { dayBucketSchema, daySummarySchema } from './reservation-figures.ts';

/** Most listings get_turnover_stats lists. */
export const maxTurnoverListings = 50;

/** Input of get_turnover_stats. */
export const turnoverStatsInputSchema = withPeriodChecks(
  z.object({
    ...analyticsFiltersShape,
    includeOwnerStays: z
      .boolean()
      .optional()
      .describe('Also count owner-block ends as turnovers (default false).'),
  }),
);
/** Input of get_turnover_stats. */
export type TurnoverStatsInput = z.input<typeof turnoverStatsInputSchema>;

const count = (description: string) => z.number().int().describe(description);

/** Result of get_turnover_stats. */
export const turnoverStatsSchema = z.object({
  meta: analyticsMetaSchema,
  turnovers: count('Check-outs of accepted stays in the period (plus owner-block ends when asked).'),
  ownerStayTurnovers: count('Of which owner-block ends (0 unless includeOwnerStays).'),
  sameDay: count('Turnovers with the next guest arriving the same day (back-to-back).'),
  sameDayRate: z.number().nullable().describe('sameDay / turnovers, 0–1, 4 decimals.'),
  withoutNextBooking: count('Turnovers with no later accepted check-in on the listing yet.'),
  turnaround: daySummarySchema.describe(
    'Days from check-out to the next accepted check-in, where there is one.',
  ),
  distribution: z
    .array(dayBucketSchema)
    .describe('Turnovers by days to the next check-in: 0, 1, 2, 3–6, 7+; withoutNextBooking are not in it.'),
  busiestListings: z
    .array(
      z.object({
        listingId: z.string(),
        listingName: z.string(),
        turnovers: count('Turnovers in the period.'),
        sameDay: count('Of which back-to-back.'),
      }),
    )
    .describe(`Listings with the most turnovers, most first, at most ${maxTurnoverListings}.`),
  truncated: z.boolean().describe('True when more listings had turnovers than listed.'),
  nullReasons: nullReasonsSchema,
});
/** Result of get_turnover_stats. */
export type TurnoverStats = z.infer<typeof turnoverStatsSchema>;
