import { z } from 'zod';
import { localDateSchema } from '../core/dates.ts';
import { analyticsFiltersShape, withPeriodChecks } from './analytics-filters.ts';
import { analyticsMetaSchema } from './analytics-result.ts';
import { currencyAmountSchema, currencyAmountsSchema } from './reservation-figures.ts';

/** Most gaps get_gap_analysis lists. */
export const maxListedGaps = 100;

/** Input of get_gap_analysis. */
export const gapAnalysisInputSchema = withPeriodChecks(
  z.object({
    ...analyticsFiltersShape,
    maxGapNights: z
      .number()
      .int()
      .min(1)
      .max(30)
      .optional()
      .describe('Also call gaps of at most this many nights orphan, whatever the minimum stay.'),
    orphansOnly: z.boolean().optional().describe('List only orphan gaps; totals cover all.'),
    order: z
      .enum(['soonest', 'longest'])
      .optional()
      .describe('soonest (default, by first night) or longest first.'),
    limit: z.number().int().min(1).max(maxListedGaps).optional().describe('Most gaps to list (default 20).'),
  }),
);
/** Input of get_gap_analysis. */
export type GapAnalysisInput = z.input<typeof gapAnalysisInputSchema>;

const count = (description: string) => z.number().int().describe(description);

/** Gap totals on one side of today. */
export const gapTotalsSchema = z.object({
  gaps: count('Gaps with at least one night here.'),
  nights: count('Open nights inside the period in those gaps.'),
  orphanGaps: count('Orphan gaps among them.'),
  orphanNights: count('Open nights inside the period in orphan gaps.'),
  orphanValue: currencyAmountsSchema.describe(
    'Listed price of those orphan nights (the date’s price, else the base price; pricing rules not applied).',
  ),
});

/** Result of get_gap_analysis. */
export const gapAnalysisSchema = z.object({
  meta: analyticsMetaSchema,
  past: gapTotalsSchema.describe('Nights before each listing’s today: lost.'),
  future: gapTotalsSchema.describe('Nights from each listing’s today on: still sellable.'),
  gaps: z
    .array(
      z.object({
        listingId: z.string(),
        listingName: z.string(),
        startDate: localDateSchema.describe('First open night.'),
        endDate: localDateSchema.describe('The next occupied night (the gap’s check-out date).'),
        nights: count('Open nights of the whole gap, also outside the period.'),
        minStay: count('Minimum stay of the first open night.'),
        orphan: z.boolean().describe('Shorter than minStay (or within maxGapNights): hard to sell as it is.'),
        timing: z.enum(['past', 'current', 'future']).describe('Relative to the listing’s today.'),
        listedValue: currencyAmountSchema.describe('Listed price of all its nights.'),
      }),
    )
    .describe('Gaps touching the period, in the asked order, bounded by limit.'),
  truncated: z.boolean().describe('True when more gaps match than listed.'),
});
/** Result of get_gap_analysis. */
export type GapAnalysis = z.infer<typeof gapAnalysisSchema>;
