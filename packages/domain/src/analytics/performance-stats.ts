import { z } from 'zod';
import { channelSchema } from '../listings/listings.ts';
import { analyticsFiltersShape, compareToShape, withPeriodChecks } from './analytics-filters.ts';
import { analyticsMetaSchema } from './analytics-result.ts';
import {
  changeSchema,
  comparisonPeriodShape,
  nullReasonsSchema,
  occupancyFiguresSchema,
  revenueAmountsSchema,
  revenueBases,
  revenueBasisShape,
} from './performance-figures.ts';

// Inputs and results of the four period-total tools: occupancy, revenue, ADR and RevPAR. Each returns the
// period's figures and, with `compareTo`, the same figures for each comparison period with the changes.

/**
 * Longest period for which get_adr_stats adds the median nightly rate and weekday and weekend ADR: those need
 * every sold night rather than the monthly roll-up, and a quarter of them stays fast on a large portfolio.
 */
export const maxNightlyDetailNights = 93;

const ratio = (description: string) => z.number().nullable().describe(`${description} 0–1, 4 decimals.`);
const money = (description: string) =>
  z.number().nullable().describe(`${description} In major units of currency.`);

/** Input of get_occupancy_stats and get_revenue_stats: a period, a scope and optional comparisons. */
export const periodTotalsInputSchema = withPeriodChecks(
  z.object({ ...analyticsFiltersShape, ...compareToShape }),
);
/** Input of {@link periodTotalsInputSchema}. */
export type PeriodTotalsInput = z.input<typeof periodTotalsInputSchema>;

/** Input of get_adr_stats and get_revpar_stats: a period, a scope, comparisons and the revenue basis. */
export const ratioStatsInputSchema = withPeriodChecks(
  z.object({ ...analyticsFiltersShape, ...compareToShape, ...revenueBasisShape }),
);
/** Input of {@link ratioStatsInputSchema}. */
export type RatioStatsInput = z.input<typeof ratioStatsInputSchema>;

/** Result of get_occupancy_stats. */
export const occupancyStatsSchema = z.object({
  meta: analyticsMetaSchema,
  ...occupancyFiguresSchema.shape,
  comparisons: z
    .array(
      z.object({
        ...comparisonPeriodShape,
        ...occupancyFiguresSchema.shape,
        changes: z.object({
          bookedNights: changeSchema,
          availableNights: changeSchema,
          occupancy: changeSchema,
          grossOccupancy: changeSchema,
        }),
      }),
    )
    .describe('One entry per compareTo period, in the order asked; empty without compareTo.'),
});
/** Result of get_occupancy_stats. */
export type OccupancyStats = z.infer<typeof occupancyStatsSchema>;

const revenueChangesSchema = z.object({
  currency: z.string(),
  bookedNights: changeSchema,
  accommodationRevenue: changeSchema,
  fees: changeSchema,
  totalRevenue: changeSchema,
  channelFees: changeSchema,
  netRevenue: changeSchema,
  payout: changeSchema,
});

/** Result of get_revenue_stats. */
export const revenueStatsSchema = z.object({
  meta: analyticsMetaSchema,
  currencies: z
    .array(revenueAmountsSchema)
    .describe('The revenue family per currency, sorted by currency; never added across currencies.'),
  byChannel: z
    .array(
      revenueAmountsSchema.extend({
        channel: channelSchema,
        shareOfTotalRevenue: ratio('This channel’s share of the currency’s total revenue.'),
        nullReasons: nullReasonsSchema,
      }),
    )
    .describe(
      'The same per channel and currency, for channels with sold nights; sorted by currency, channel.',
    ),
  comparisons: z
    .array(
      z.object({
        ...comparisonPeriodShape,
        currencies: z.array(revenueAmountsSchema),
        changes: z.array(revenueChangesSchema).describe('Per currency, like currencies.'),
      }),
    )
    .describe('One entry per compareTo period, in the order asked; empty without compareTo.'),
});
/** Result of get_revenue_stats. */
export type RevenueStats = z.infer<typeof revenueStatsSchema>;

const revenueBasisOutput = z.enum(revenueBases).describe('The money ADR and RevPAR divide.');

/** ADR of one currency (or one channel and currency). */
const adrFiguresSchema = z.object({
  currency: z.string(),
  bookedNights: z.number().int().describe('Booked nights of stays in this currency: the denominator.'),
  revenue: z.number().describe('Revenue on the chosen basis: the numerator. In major units.'),
  adr: money('Average daily rate: revenue / booked nights.'),
  nullReasons: nullReasonsSchema,
});

/** Result of get_adr_stats. */
export const adrStatsSchema = z.object({
  meta: analyticsMetaSchema,
  revenueBasis: revenueBasisOutput,
  currencies: z
    .array(
      adrFiguresSchema.extend({
        medianNightlyRate: money(
          'Median of the per-night revenue of the sold nights (the typical night rather than the average). ' +
            `Only for periods of up to ${maxNightlyDetailNights} nights.`,
        ).optional(),
        weekdayAdr: money(
          `ADR of Sunday to Thursday nights. Only for periods of up to ${maxNightlyDetailNights} nights.`,
        ).optional(),
        weekendAdr: money(
          `ADR of Friday and Saturday nights. Only for periods of up to ${maxNightlyDetailNights} nights.`,
        ).optional(),
      }),
    )
    .describe('ADR per currency, sorted by currency.'),
  byChannel: z
    .array(adrFiguresSchema.extend({ channel: channelSchema }))
    .describe('ADR per channel and currency, for channels with sold nights.'),
  comparisons: z
    .array(
      z.object({
        ...comparisonPeriodShape,
        currencies: z.array(adrFiguresSchema),
        changes: z.array(
          z.object({
            currency: z.string(),
            bookedNights: changeSchema,
            revenue: changeSchema,
            adr: changeSchema,
          }),
        ),
      }),
    )
    .describe('One entry per compareTo period, in the order asked; empty without compareTo.'),
});
/** Result of get_adr_stats. */
export type AdrStats = z.infer<typeof adrStatsSchema>;

/** RevPAR of one currency, with the parts of RevPAR = ADR × occupancy. */
const revparFiguresSchema = z.object({
  currency: z.string(),
  listings: z.number().int().describe('Listings priced in this currency.'),
  calendarNights: z.number().int().describe('Their nights since each listing became active.'),
  availableNights: z.number().int().describe('Their calendar nights minus blocked nights: the denominator.'),
  bookedNights: z.number().int().describe('Booked nights of stays in this currency.'),
  occupancy: ratio('Occupancy of these listings: booked / available nights.'),
  revenue: z.number().describe('Revenue on the chosen basis. In major units.'),
  adr: money('Revenue / booked nights.'),
  revpar: money('Revenue / available nights = ADR × occupancy (up to rounding).'),
  grossRevpar: money('Revenue / calendar nights: counts blocked nights as unsold.'),
  nullReasons: nullReasonsSchema,
});

/** Result of get_revpar_stats. */
export const revparStatsSchema = z.object({
  meta: analyticsMetaSchema,
  revenueBasis: revenueBasisOutput,
  availableNights: z.number().int().describe('Available nights of all listings in scope.'),
  bookedNights: z.number().int().describe('Booked nights of all listings in scope.'),
  occupancy: ratio('Adjusted occupancy of the whole scope (no currency involved).'),
  nullReasons: nullReasonsSchema,
  currencies: z
    .array(revparFiguresSchema)
    .describe('RevPAR per currency, over the listings priced in it; sorted by currency.'),
  comparisons: z
    .array(
      z.object({
        ...comparisonPeriodShape,
        availableNights: z.number().int(),
        bookedNights: z.number().int(),
        occupancy: z.number().nullable(),
        nullReasons: nullReasonsSchema,
        currencies: z.array(revparFiguresSchema),
        changes: z.object({
          occupancy: changeSchema,
          currencies: z.array(
            z.object({
              currency: z.string(),
              occupancy: changeSchema,
              adr: changeSchema,
              revpar: changeSchema,
            }),
          ),
        }),
      }),
    )
    .describe('One entry per compareTo period, in the order asked; empty without compareTo.'),
});
/** Result of get_revpar_stats. */
export type RevparStats = z.infer<typeof revparStatsSchema>;
