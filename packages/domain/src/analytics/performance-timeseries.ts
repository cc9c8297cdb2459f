import { z } from 'zod';
import { areLocalDates } from '../core/dates.ts';
import {
  analyticsFiltersShape,
  type Granularity,
  granularities,
  granularitySchema,
  withPeriodChecks,
} from './analytics-filters.ts';
import { periodBuckets } from './analytics-period.ts';
import { analyticsMetaSchema } from './analytics-result.ts';
import { nullReasonsSchema, revenueBases, revenueBasisShape } from './performance-figures.ts';

/**
 * Most buckets one series may have per granularity: a quarter of days, three years of weeks (and of months,
 * which the longest period allows anyway). Longer series would flood the reply; a coarser bucket answers.
 */
const maxSeriesBuckets: Readonly<Record<Granularity, number>> = { day: 92, week: 157, month: 37 };

/** Figures a series can carry, named as in its buckets. */
export const seriesMetrics = [
  'bookedNights',
  'availableNights',
  'blockedNights',
  'occupancy',
  'grossOccupancy',
  'adr',
  'revpar',
  'accommodationRevenue',
  'totalRevenue',
  'netRevenue',
  'payout',
] as const;
/** One of {@link seriesMetrics}. */
export type SeriesMetric = (typeof seriesMetrics)[number];

/** The figures a series shows when the caller names none. */
export const defaultSeriesMetrics: readonly SeriesMetric[] = [
  'bookedNights',
  'occupancy',
  'adr',
  'revpar',
  'accommodationRevenue',
];

/** Input of get_timeseries_stats. */
export const timeseriesStatsInputSchema = withPeriodChecks(
  z.object({
    ...analyticsFiltersShape,
    granularity: granularitySchema
      .optional()
      .describe(
        `Bucket size: day (at most ${maxSeriesBuckets.day}), ISO week (at most ${maxSeriesBuckets.week}) ` +
          'or month (default).',
      ),
    metrics: z
      .array(z.enum(seriesMetrics))
      .min(1)
      .max(seriesMetrics.length)
      .optional()
      .describe(`Figures per bucket; default ${defaultSeriesMetrics.join(', ')}.`),
    compareToLastYear: z
      .boolean()
      .optional()
      .describe('Add each bucket a year earlier (364 days back for days and weeks).'),
    ...revenueBasisShape,
  }),
).superRefine((input, context) => {
  if (!areLocalDates(input.startDate, input.endDate) || input.startDate > input.endDate) return;
  const granularity = input.granularity ?? 'month';
  const buckets = periodBuckets(input, granularity).length;
  if (buckets > maxSeriesBuckets[granularity]) {
    const coarser = granularity === 'day' ? 'week or month' : 'month';
    context.addIssue({
      code: 'custom',
      path: ['granularity'],
      message:
        `A ${granularity} series can have at most ${maxSeriesBuckets[granularity]} buckets; this period has ` +
        `${buckets}. Use granularity ${coarser}, or a shorter period.`,
    });
  }
});
/** Input of get_timeseries_stats. */
export type TimeseriesStatsInput = z.input<typeof timeseriesStatsInputSchema>;

const count = z.number().int().optional();
const ratio = z.number().nullable().optional();
const money = z.number().nullable().optional();

/** The figures of one bucket (or of the same bucket a year earlier); only the asked metrics are present. */
const seriesFiguresShape = {
  startDate: z.string().describe('First night of the bucket inside the period.'),
  endDate: z.string().describe('Last night of the bucket inside the period.'),
  nights: z.number().int().describe('Nights of the bucket inside the period.'),
  bookedNights: count,
  availableNights: count,
  blockedNights: count,
  occupancy: ratio.describe('Booked / available nights.'),
  grossOccupancy: ratio.describe('Booked / calendar nights.'),
  currencies: z
    .array(
      z.object({
        currency: z.string(),
        adr: money.describe('Revenue (chosen basis) / booked nights of stays in this currency.'),
        revpar: money.describe('Revenue (chosen basis) / available nights of the listings in this currency.'),
        accommodationRevenue: money,
        totalRevenue: money,
        netRevenue: money,
        payout: money,
        nullReasons: nullReasonsSchema,
      }),
    )
    .optional()
    .describe('Money figures per currency, in major units; present when a money metric is asked.'),
  nullReasons: nullReasonsSchema,
};

/** Result of get_timeseries_stats. */
export const timeseriesStatsSchema = z.object({
  meta: analyticsMetaSchema,
  granularity: z.enum(granularities),
  metrics: z.array(z.enum(seriesMetrics)).describe('The figures each bucket carries.'),
  revenueBasis: z.enum(revenueBases).describe('The money ADR and RevPAR divide.'),
  buckets: z
    .array(
      z.object({
        key: z.string().describe('YYYY-MM-DD for a day, the Monday for a week, YYYY-MM for a month.'),
        partial: z.boolean().describe('True when the period covers only part of this day, week or month.'),
        ...seriesFiguresShape,
        lastYear: z
          .object(seriesFiguresShape)
          .optional()
          .describe('The same figures a year earlier (with compareToLastYear).'),
      }),
    )
    .describe('Oldest first. Their nights and money add up to the period’s totals.'),
});
/** Result of get_timeseries_stats. */
export type TimeseriesStats = z.infer<typeof timeseriesStatsSchema>;
