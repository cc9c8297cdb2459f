import { z } from 'zod';
import type { Actor } from '../core/actor.ts';
import type { Page } from '../core/paging.ts';
import type { MetricDefinitionsInput, MetricDefinitionsResult } from './metric-definitions.ts';
import type { PricingStats, PricingStatsInput } from './pricing-stats.ts';
import type {
  ResponseTimeBreakdown,
  ResponseTimeBreakdownInput,
  ResponseTimeStats,
  ResponseTimeStatsInput,
} from './response-time-stats.ts';
import type { ReviewAnalytics, ReviewAnalyticsInput } from './review-analytics.ts';
import type { ReviewStats, ReviewStatsInput } from './review-stats.ts';

/** Most member listings one group summary names. */
export const maxGroupMembersListed = 100;

/** Paging of list_listing_groups, and how many members of each group to name. */
export const listListingGroupSummariesInputSchema = z.object({
  limit: z.number().int().min(1).max(100).default(20).describe('Most groups per page.'),
  cursor: z.string().max(512).optional().describe('nextCursor of the previous page.'),
  membersListed: z
    .number()
    .int()
    .min(0)
    .max(maxGroupMembersListed)
    .default(10)
    .describe('Listings to name per group (default 10); memberCount gives the full size.'),
});
/** Input of {@link GuestAnalyticsUseCases.listListingGroups}. */
export type ListListingGroupSummariesInput = z.input<typeof listListingGroupSummariesInputSchema>;

/** A listing group as analytics filter by: its id, name, size and some of its listings. */
export const listingGroupSummarySchema = z.object({
  id: z.string().describe('Pass as listingGroupId to any analytics tool.'),
  name: z.string(),
  ownerName: z.string().nullable().describe('The property owner the group is managed for, if set.'),
  memberCount: z.number().int().describe('Listings in the group.'),
  members: z
    .array(z.object({ id: z.string(), name: z.string() }))
    .describe('The first membersListed member listings by name.'),
  membersTruncated: z.boolean().describe('True when members leaves some listings out.'),
});
/** A {@link listingGroupSummarySchema} value. */
export type ListingGroupSummary = z.infer<typeof listingGroupSummarySchema>;

/** Guests and prices: reviews, response times, listed prices, listing groups and the metric definitions. */
export interface GuestAnalyticsUseCases {
  /** Listed prices of open nights, booked ADR and realisation, per currency. */
  getPricingStats(actor: Actor, input: PricingStatsInput): Promise<PricingStats>;
  /** Review counts, ratings, review rate and reply rate of the reviews submitted in a period. */
  getReviewStats(actor: Actor, input: ReviewStatsInput): Promise<ReviewStats>;
  /** Rating trend, best and worst listings, weakest category and recent low ratings. */
  getReviewAnalytics(actor: Actor, input: ReviewAnalyticsInput): Promise<ReviewAnalytics>;
  /** How fast guests get an answer, over the waits that began in a period. */
  getResponseTimeStats(actor: Actor, input: ResponseTimeStatsInput): Promise<ResponseTimeStats>;
  /** The response-time measures by channel, stage, hour, weekday and listing. */
  getResponseTimeBreakdown(actor: Actor, input: ResponseTimeBreakdownInput): Promise<ResponseTimeBreakdown>;
  /** The account's listing groups with their sizes, paged by name. */
  listListingGroups(actor: Actor, input: ListListingGroupSummariesInput): Promise<Page<ListingGroupSummary>>;
  /** The rules every analytics result cites, all or the ones asked for. */
  getMetricDefinitions(actor: Actor, input: MetricDefinitionsInput): Promise<MetricDefinitionsResult>;
}
