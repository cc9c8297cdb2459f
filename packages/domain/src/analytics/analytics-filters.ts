import { z } from 'zod';
import { areLocalDates, daysBetween, localDateSchema } from '../core/dates.ts';
import { listingGroupIdSchema } from '../listing-groups/listing-groups.ts';
import { channelSchema, listingIdSchema } from '../listings/listings.ts';

/** Longest period an analytics question may cover: three years of nights (1,096 with a leap day). */
export const maxAnalyticsPeriodNights = 1096;

/** Most listings one question may name; beyond this, use a listing group. */
export const maxAnalyticsListingIds = 500;

/** The period every analytics tool takes: nights from `startDate` to `endDate`, both included. */
export const analyticsPeriodShape = {
  startDate: localDateSchema.describe('First night.'),
  endDate: localDateSchema.describe('Last night, included.'),
};

/** Which listings and reservations a question covers; all listings and channels when omitted. */
export const analyticsScopeShape = {
  listingIds: z
    .array(listingIdSchema)
    .min(1)
    .max(maxAnalyticsListingIds)
    .optional()
    .describe('Only these listings.'),
  listingGroupId: listingGroupIdSchema.optional().describe('Only this listing group.'),
  channel: channelSchema.optional().describe('Only this channel.'),
};

/** Kinds of comparison period a tool can add beside the asked one. */
export const comparisonKinds = ['previous_period', 'same_period_last_year'] as const;
/** One of {@link comparisonKinds}. */
export type ComparisonKind = (typeof comparisonKinds)[number];

/** The optional `compareTo` field of tools that return comparable totals. */
export const compareToShape = {
  compareTo: z.array(z.enum(comparisonKinds)).max(2).optional().describe('Periods to compare with.'),
};

/** Bucket sizes of a series: days, ISO weeks (Monday to Sunday) or calendar months. */
export const granularities = ['day', 'week', 'month'] as const;
/** One of {@link granularities}. */
export type Granularity = (typeof granularities)[number];

/** Validates a series' bucket size. */
export const granularitySchema = z.enum(granularities).describe('Bucket size; weeks run Monday to Sunday.');

/** The fields every period-and-scope analytics input has. */
export const analyticsFiltersShape = { ...analyticsPeriodShape, ...analyticsScopeShape };

/**
 * Adds the period checks to an analytics input object: the end not before the start, and at most
 * {@link maxAnalyticsPeriodNights} nights.
 */
export function withPeriodChecks<Shape extends typeof analyticsPeriodShape & z.ZodRawShape>(
  schema: z.ZodObject<Shape>,
) {
  return schema.superRefine((input, context) => {
    const { startDate, endDate } = input as { startDate?: string; endDate?: string };
    if (!areLocalDates(startDate, endDate) || startDate === undefined || endDate === undefined) return;
    const nights = daysBetween(startDate, endDate) + 1;
    if (nights < 1) {
      context.addIssue({ code: 'custom', path: ['endDate'], message: 'endDate cannot be before startDate.' });
    } else if (nights > maxAnalyticsPeriodNights) {
      context.addIssue({
        code: 'custom',
        path: ['endDate'],
        message: `A period can span at most ${maxAnalyticsPeriodNights} nights; this one has ${nights}.`,
      });
    }
  });
}

/** The shared filter schema on its own, for tools that take nothing else. */
export const analyticsFiltersSchema = withPeriodChecks(z.object(analyticsFiltersShape));
/** Input of an analytics question over a period and scope. */
export type AnalyticsFiltersInput = z.input<typeof analyticsFiltersSchema>;
/** {@link AnalyticsFiltersInput} after validation. */
export type AnalyticsFilters = z.output<typeof analyticsFiltersSchema>;
