import { z } from 'zod';
import { analyticsFiltersShape, withPeriodChecks } from './analytics-filters.ts';
import { analyticsMetaSchema, nullReasonSchema } from './analytics-result.ts';

/** Nights of the week counted as weekend nights in pricing stats: Friday and Saturday (0 = Sunday). */
export const weekendNights = [5, 6] as const;

/** Input of get_pricing_stats: a period and the usual listing and channel filters. */
export const pricingStatsInputSchema = withPeriodChecks(z.object({ ...analyticsFiltersShape }));
/** Input of {@link pricingStatsInputSchema}. */
export type PricingStatsInput = z.input<typeof pricingStatsInputSchema>;

const nullReasonsSchema = z
  .record(z.string(), nullReasonSchema)
  .describe('Why each null field above is null, by field name; empty when none is.');

/** Listed prices of a set of open nights, in major units of one currency. */
export const listedPriceSummarySchema = z.object({
  openNights: z.number().int().describe('Open nights counted: neither booked, requested nor blocked.'),
  mean: z.number().nullable().describe('Mean listed price of those nights.'),
  median: z
    .number()
    .nullable()
    .describe('Median listed price (the mean of the two middle nights when even).'),
  min: z.number().nullable().describe('Lowest listed price.'),
  max: z.number().nullable().describe('Highest listed price.'),
  nullReasons: nullReasonsSchema,
});
/** A {@link listedPriceSummarySchema} value. */
export type ListedPriceSummary = z.infer<typeof listedPriceSummarySchema>;

/** What sold nights were booked at, next to what the calendar lists them at. */
export const bookedPriceSummarySchema = z.object({
  soldNights: z.number().int().describe('Sold (accepted) nights of the period.'),
  adr: z.number().nullable().describe('Booked ADR: accommodation revenue of those nights / soldNights.'),
  listedMean: z
    .number()
    .nullable()
    .describe('Mean listed price of the same sold nights, as the calendar lists them today.'),
  realisation: z
    .number()
    .nullable()
    .describe(
      'Accommodation revenue / listed price summed over the same sold nights (0.92 = booked 8 % below list).',
    ),
  nullReasons: nullReasonsSchema,
});
/** A {@link bookedPriceSummarySchema} value. */
export type BookedPriceSummary = z.infer<typeof bookedPriceSummarySchema>;

/** Pricing figures of one currency; listings in different currencies are never mixed. */
export const pricingStatsCurrencySchema = z.object({
  currency: z.string(),
  listed: listedPriceSummarySchema.describe('Every open night of the period.'),
  weekday: listedPriceSummarySchema.describe('Open Sunday–Thursday nights.'),
  weekend: listedPriceSummarySchema.describe('Open Friday and Saturday nights.'),
  booked: bookedPriceSummarySchema,
});
/** A {@link pricingStatsCurrencySchema} value. */
export type PricingStatsCurrency = z.infer<typeof pricingStatsCurrencySchema>;

/** Result of get_pricing_stats. */
export const pricingStatsSchema = z.object({
  meta: analyticsMetaSchema,
  currencies: z
    .array(pricingStatsCurrencySchema)
    .describe('One entry per currency of the listings in scope, sorted by currency code.'),
});
/** A {@link pricingStatsSchema} value. */
export type PricingStats = z.infer<typeof pricingStatsSchema>;
