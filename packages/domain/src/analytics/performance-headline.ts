import { z } from 'zod';
import { analyticsFiltersShape, compareToShape, withPeriodChecks } from './analytics-filters.ts';
import { analyticsMetaSchema, periodSchema } from './analytics-result.ts';
import { nullReasonsSchema } from './performance-figures.ts';

/** Input of get_headline_kpis. */
export const headlineKpisInputSchema = withPeriodChecks(
  z.object({
    ...analyticsFiltersShape,
    compareTo: compareToShape.compareTo.describe(
      'Comparison periods beside each KPI; default both, [] for none.',
    ),
  }),
);
/** Input of get_headline_kpis. */
export type HeadlineKpisInput = z.input<typeof headlineKpisInputSchema>;

const comparedValueSchema = z.object({
  value: z.number().nullable().describe('The KPI in the comparison period.'),
  change: z.number().nullable().describe('Asked − comparison (ratios as fractions: 0.05 = 5 points).'),
  relativeChange: z
    .number()
    .nullable()
    .describe('(asked − comparison) / comparison, 4 decimals; null when the comparison is 0 or null.'),
});

/** One KPI with its comparisons. */
export const headlineKpiSchema = z.object({
  value: z.number().nullable().describe('The KPI in the asked period.'),
  previousPeriod: comparedValueSchema.optional(),
  samePeriodLastYear: comparedValueSchema.optional(),
  nullReasons: nullReasonsSchema.describe(
    'Why a null is null, keyed value, previousPeriod.value, previousPeriod.change, …; empty when none is.',
  ),
});
/** One KPI with its comparisons. */
export type HeadlineKpi = z.infer<typeof headlineKpiSchema>;

const kpi = (description: string) => headlineKpiSchema.describe(description);

/** Result of get_headline_kpis. */
export const headlineKpisSchema = z.object({
  meta: analyticsMetaSchema,
  comparisonPeriods: z
    .object({ previousPeriod: periodSchema.optional(), samePeriodLastYear: periodSchema.optional() })
    .describe('The comparison periods used.'),
  bookedNights: kpi('Nights of accepted stays in the period (with a channel filter, that channel’s).'),
  availableNights: kpi(
    'Nights since each listing became active, minus owner, maintenance, manual and channel blocks.',
  ),
  occupancy: kpi('Adjusted occupancy: booked / available nights, 0–1.'),
  grossOccupancy: kpi('Gross occupancy: booked / calendar nights (blocks included), 0–1.'),
  checkIns: kpi('Accepted stays checking in during the period.'),
  averageLengthOfStay: kpi('Mean nights per stay checking in during the period (whole stays).'),
  averageLeadTimeDays: kpi('Mean days from booking to check-in, stays checking in during the period.'),
  medianLeadTimeDays: kpi('Median days from booking to check-in, same stays.'),
  cancellationRate: kpi(
    'Cancelled / (cancelled + accepted) reservations due to check in during the period, 0–1.',
  ),
  currencies: z
    .array(
      z.object({
        currency: z.string(),
        adr: kpi('Accommodation revenue / booked nights of stays in this currency. Major units.'),
        revpar: kpi(
          'Accommodation revenue / available nights of the listings priced in this currency. Major units.',
        ),
        accommodationRevenue: kpi('Rent after discounts, by stay night. Major units.'),
        totalRevenue: kpi('Rent plus cleaning and other host fees, by stay night. Major units.'),
      }),
    )
    .describe('Money KPIs per currency, sorted by currency; never added across currencies.'),
});
/** Result of get_headline_kpis. */
export type HeadlineKpis = z.infer<typeof headlineKpisSchema>;
