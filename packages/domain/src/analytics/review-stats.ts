import { z } from 'zod';
import { channelSchema } from '../listings/listings.ts';
import { analyticsFiltersShape, withPeriodChecks } from './analytics-filters.ts';
import { analyticsMetaSchema, nullReasonSchema } from './analytics-result.ts';

/** The category ratings a review may carry, as the review tools name them. */
export const reviewCategories = [
  'cleanliness',
  'accuracy',
  'checkIn',
  'communication',
  'location',
  'value',
] as const;
/** One of {@link reviewCategories}. */
export type ReviewCategory = (typeof reviewCategories)[number];

/** Input of get_review_stats: a period (by the review's submission date) and the usual filters. */
export const reviewStatsInputSchema = withPeriodChecks(z.object({ ...analyticsFiltersShape }));
/** Input of {@link reviewStatsInputSchema}. */
export type ReviewStatsInput = z.input<typeof reviewStatsInputSchema>;

/** Why each null field of the enclosing object is null, by field name; empty when none is. */
export const reviewNullReasonsSchema = z
  .record(z.string(), nullReasonSchema)
  .describe('Why each null field beside it is null, by field name; empty when none is.');

const meanRating = (what: string) =>
  z.number().nullable().describe(`Mean ${what} on the 5-point scale, 2 decimals.`);

/** Mean category ratings; a category only counts reviews that rated it. */
export const categoryMeansSchema = z.object({
  cleanliness: meanRating('cleanliness rating'),
  accuracy: meanRating('accuracy rating'),
  checkIn: meanRating('check-in rating'),
  communication: meanRating('communication rating'),
  location: meanRating('location rating'),
  value: meanRating('value rating'),
  nullReasons: reviewNullReasonsSchema,
});
/** A {@link categoryMeansSchema} value. */
export type CategoryMeans = z.infer<typeof categoryMeansSchema>;

/** Reviews of one channel in the period. */
export const channelReviewSummarySchema = z.object({
  channel: channelSchema,
  reviews: z.number().int(),
  meanRating: meanRating('overall rating'),
  fiveStarShare: z.number().nullable().describe('Share of reviews rated 5.'),
  replyRate: z.number().nullable().describe('Share of reviews with a host response.'),
  nullReasons: reviewNullReasonsSchema,
});
/** A {@link channelReviewSummarySchema} value. */
export type ChannelReviewSummary = z.infer<typeof channelReviewSummarySchema>;

/** Result of get_review_stats. */
export const reviewStatsSchema = z.object({
  meta: analyticsMetaSchema,
  reviews: z.number().int().describe('Reviews submitted in the period (listing-local date).'),
  meanRating: meanRating('overall rating'),
  distribution: z
    .array(
      z.object({
        rating: z.number().int().min(1).max(5),
        reviews: z.number().int(),
        share: z.number().nullable().describe('Share of all reviews in the period; null without reviews.'),
      }),
    )
    .describe('Reviews per overall rating, 1 to 5 stars, always five entries.'),
  fiveStarShare: z.number().nullable().describe('Share of reviews rated 5.'),
  categoryMeans: categoryMeansSchema,
  completedStays: z
    .number()
    .int()
    .describe('Sold stays that checked out in the period, up to the listing-local today.'),
  reviewedStays: z.number().int().describe('Those completed stays that have a review (submitted any time).'),
  reviewRate: z.number().nullable().describe('reviewedStays / completedStays.'),
  replied: z.number().int().describe('Reviews of the period with a host response.'),
  replyRate: z.number().nullable().describe('replied / reviews.'),
  meanReplyHours: z
    .number()
    .nullable()
    .describe(
      'Mean hours from a review’s submission to the host’s response, over replied reviews; 1 decimal.',
    ),
  byChannel: z.array(channelReviewSummarySchema).describe('One entry per channel with reviews, by channel.'),
  nullReasons: reviewNullReasonsSchema,
});
/** A {@link reviewStatsSchema} value. */
export type ReviewStats = z.infer<typeof reviewStatsSchema>;
