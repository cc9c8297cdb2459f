import { z } from 'zod';
import { channelSchema } from '../listings/listings.ts';
import { analyticsFiltersShape, granularitySchema, withPeriodChecks } from './analytics-filters.ts';
import { analyticsMetaSchema } from './analytics-result.ts';
import { reviewCategories, reviewNullReasonsSchema } from './review-stats.ts';

/** Most listings each of the best and worst lists may hold. */
export const maxRankedListings = 25;
/** Most low-rated reviews listed by id. */
export const maxLowRatingsListed = 50;

/** Input of get_review_analytics. */
export const reviewAnalyticsInputSchema = withPeriodChecks(
  z.object({
    ...analyticsFiltersShape,
    granularity: granularitySchema.default('month'),
    minReviews: z
      .number()
      .int()
      .min(1)
      .max(100)
      .default(3)
      .describe('Reviews a listing needs to be ranked (default 3).'),
    listingLimit: z
      .number()
      .int()
      .min(1)
      .max(maxRankedListings)
      .default(5)
      .describe('Listings in each of best and worst (default 5).'),
    lowRatingLimit: z
      .number()
      .int()
      .min(1)
      .max(maxLowRatingsListed)
      .default(10)
      .describe('How many newest ratings of 3 or less to list (default 10).'),
  }),
);
/** Input of {@link reviewAnalyticsInputSchema}. */
export type ReviewAnalyticsInput = z.input<typeof reviewAnalyticsInputSchema>;

/** The category with the lowest mean among the ones rated. */
export const lowestCategorySchema = z.object({
  category: z.enum(reviewCategories),
  mean: z.number().describe('Mean rating of the category, 2 decimals.'),
  ratings: z.number().int().describe('Reviews that rated the category.'),
});

/** One bucket of the rating trend. */
export const reviewTrendBucketSchema = z.object({
  key: z.string().describe('YYYY-MM-DD for days, the Monday for ISO weeks, YYYY-MM for months.'),
  startDate: z.string(),
  endDate: z.string(),
  partial: z.boolean().describe('True when the period covers only part of the bucket.'),
  reviews: z.number().int(),
  meanRating: z.number().nullable().describe('Mean overall rating, 2 decimals.'),
  fiveStarShare: z.number().nullable(),
  nullReasons: reviewNullReasonsSchema,
});

/** One listing's reviews in the period. */
export const rankedListingSchema = z.object({
  listingId: z.string(),
  listingName: z.string(),
  reviews: z.number().int(),
  meanRating: z.number().describe('Mean overall rating, 2 decimals.'),
  fiveStarShare: z.number(),
  lowestCategory: lowestCategorySchema.nullable().describe('Its weakest category; null when none was rated.'),
});

/** A review rated 3 stars or fewer. */
export const lowRatingSchema = z.object({
  reviewId: z.string().describe('Open it with get_reviews.'),
  listingId: z.string(),
  listingName: z.string(),
  channel: channelSchema,
  rating: z.number().int(),
  submittedAt: z.string().describe('UTC ISO 8601.'),
  localDate: z.string().describe('Submission date on the listing’s calendar.'),
  answered: z.boolean().describe('True when the host has responded.'),
});

/** Result of get_review_analytics. */
export const reviewAnalyticsSchema = z.object({
  meta: analyticsMetaSchema,
  reviews: z.number().int().describe('Reviews submitted in the period.'),
  trend: z.array(reviewTrendBucketSchema).describe('Reviews by submission date, oldest bucket first.'),
  lowestCategory: lowestCategorySchema
    .nullable()
    .describe('The portfolio’s weakest category in the period; null when no review rated one.'),
  rankedListings: z.number().int().describe('Listings with at least minReviews reviews, the ones ranked.'),
  bestListings: z
    .array(rankedListingSchema)
    .describe('Highest mean rating first (then more reviews first); at most listingLimit.'),
  worstListings: z
    .array(rankedListingSchema)
    .describe('Lowest mean rating first (then more reviews first); at most listingLimit.'),
  lowRatings: z.number().int().describe('Reviews of the period rated 3 stars or fewer.'),
  recentLowRatings: z.array(lowRatingSchema).describe('The newest of them, at most lowRatingLimit.'),
  lowRatingsTruncated: z.boolean().describe('True when recentLowRatings leaves some out.'),
  unanswered: z.number().int().describe('Reviews of the period without a host response.'),
  unansweredLowRatings: z.number().int().describe('Low ratings without a host response.'),
});
/** A {@link reviewAnalyticsSchema} value. */
export type ReviewAnalytics = z.infer<typeof reviewAnalyticsSchema>;
