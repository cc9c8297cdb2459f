import { sql } from 'kysely';
import type { Granularity } from '../../analytics/analytics-filters.ts';
import { type AnalyticsPeriod, bucketStart, periodBuckets } from '../../analytics/analytics-period.ts';
import { type NullReason, ratioOf } from '../../analytics/analytics-result.ts';
import type { ReviewAnalytics } from '../../analytics/review-analytics.ts';
import type { Channel } from '../../listings/listings.ts';
import type { Executor } from '../database.ts';
import type { AnalyticsScope } from './analytics-scope.ts';
import {
  bucketStartOf,
  lowestCategoryOf,
  meanRating,
  periodReviews,
  type ReviewSumRow,
  reviewSumColumns,
  toReviewSums,
} from './review-stats.ts';

/** What get_review_analytics asks besides the period and scope. */
export interface ReviewAnalyticsOptions {
  readonly granularity: Granularity;
  readonly minReviews: number;
  readonly listingLimit: number;
  readonly lowRatingLimit: number;
}

interface RankedListingRow extends ReviewSumRow {
  listing_id: string;
  listing_name: string;
  best_rank: number;
  worst_rank: number;
  ranked: number;
}

interface LowRatingRow {
  id: string;
  listing_id: string;
  listing_name: string;
  channel: Channel;
  overall_rating: number;
  submitted_at: string;
  local_date: string;
  answered: boolean;
}

/**
 * The rating trend by bucket, the weakest category, the best and worst listings with enough reviews, and the
 * newest low ratings of a period; everything but `meta`, plus the notes for it. One statement reads the
 * period's reviews once and returns each part as JSON.
 */
export async function reviewAnalyticsOf(
  db: Executor,
  scope: AnalyticsScope,
  period: AnalyticsPeriod,
  options: ReviewAnalyticsOptions,
): Promise<{ result: Omit<ReviewAnalytics, 'meta'>; notes: string[] }> {
  const { rows } = await sql<{
    buckets: (ReviewSumRow & { bucket: string | null; whole: number })[];
    listings: RankedListingRow[];
    low: LowRatingRow[];
  }>`
    with period_reviews as materialized (
      select v.*, (v.submitted_at at time zone v.time_zone)::date as local_date
      from ${periodReviews(scope, period)} v
    ),
    buckets as (
      select bucket, grouping(bucket) as whole, ${reviewSumColumns}
      from (select *, ${bucketStartOf(options.granularity)} as bucket from period_reviews) v
      group by grouping sets ((), (bucket))
    ),
    per_listing as (
      select listing_id, min(listing_name) as listing_name, avg(overall_rating) as mean, ${reviewSumColumns}
      from period_reviews
      group by listing_id
      having count(*) >= ${options.minReviews}::integer
    ),
    ranked as (
      select *,
        row_number() over (order by mean desc, reviews desc, listing_id) as best_rank,
        row_number() over (order by mean, reviews desc, listing_id) as worst_rank,
        count(*) over () as ranked
      from per_listing
    ),
    low as (
      select id, listing_id, listing_name, channel, overall_rating, submitted_at, local_date, answered
      from period_reviews
      where overall_rating <= 3
      order by submitted_at desc, id desc
      limit ${options.lowRatingLimit}::integer
    )
    select
      (select coalesce(json_agg(b), '[]'::json) from buckets b) as buckets,
      (
        select coalesce(json_agg(r), '[]'::json) from ranked r
        where r.best_rank <= ${options.listingLimit}::integer or r.worst_rank <= ${options.listingLimit}::integer
      ) as listings,
      (select coalesce(json_agg(l order by l.submitted_at desc, l.id desc), '[]'::json) from low l) as low`.execute(
    db,
  );
  const bucketRows = rows[0]?.buckets ?? [];
  const listingRows = rows[0]?.listings ?? [];
  const lowRows = rows[0]?.low ?? [];

  const total = toReviewSums(bucketRows.find((row) => Number(row.whole) === 1));
  const byBucket = new Map(
    bucketRows
      .filter((row) => Number(row.whole) === 0 && row.bucket !== null)
      .map((row) => [row.bucket as string, toReviewSums(row)]),
  );
  const ranked = listingRows.map((row) => ({
    ranks: { best: Number(row.best_rank), worst: Number(row.worst_rank) },
    listing: rankedListing(row),
  }));
  const rankedCount = Number(listingRows[0]?.ranked ?? 0);
  const notes: string[] = [];
  if (total.low > lowRows.length) {
    notes.push(
      `recentLowRatings lists the newest ${lowRows.length} of ${total.low} low ratings; raise lowRatingLimit, ` +
        'narrow the period or use get_reviews with maxRating=3 for the rest.',
    );
  }
  const partial = periodBuckets(period, options.granularity).filter((bucket) => bucket.partial);
  if (partial.length > 0) {
    notes.push(`Buckets ${partial.map((bucket) => bucket.key).join(', ')} are cut by the period (partial).`);
  }
  return {
    result: {
      reviews: total.reviews,
      trend: periodBuckets(period, options.granularity).map((bucket) => {
        const sums =
          byBucket.get(bucketStart(bucket.startDate, options.granularity)) ?? toReviewSums(undefined);
        const nullReasons: Record<string, NullReason> =
          sums.reviews === 0 ? { meanRating: 'no_reviews', fiveStarShare: 'no_reviews' } : {};
        return {
          ...bucket,
          reviews: sums.reviews,
          meanRating: meanRating(sums.ratingSum, sums.reviews),
          fiveStarShare: ratioOf(sums.stars[4], sums.reviews),
          nullReasons,
        };
      }),
      lowestCategory: lowestCategoryOf(total),
      rankedListings: rankedCount,
      bestListings: ranked
        .filter(({ ranks }) => ranks.best <= options.listingLimit)
        .sort((a, b) => a.ranks.best - b.ranks.best)
        .map(({ listing }) => listing),
      worstListings: ranked
        .filter(({ ranks }) => ranks.worst <= options.listingLimit)
        .sort((a, b) => a.ranks.worst - b.ranks.worst)
        .map(({ listing }) => listing),
      lowRatings: total.low,
      recentLowRatings: lowRows.map((row) => ({
        reviewId: row.id,
        listingId: row.listing_id,
        listingName: row.listing_name,
        channel: row.channel,
        rating: row.overall_rating,
        submittedAt: new Date(row.submitted_at).toISOString(),
        localDate: row.local_date,
        answered: row.answered,
      })),
      lowRatingsTruncated: total.low > lowRows.length,
      unanswered: total.unanswered,
      unansweredLowRatings: total.unansweredLow,
    },
    notes,
  };
}

function rankedListing(row: RankedListingRow) {
  const sums = toReviewSums(row);
  return {
    listingId: row.listing_id,
    listingName: row.listing_name,
    reviews: sums.reviews,
    // Ranked listings have at least one review, so neither figure is null.
    meanRating: meanRating(sums.ratingSum, sums.reviews) ?? 0,
    fiveStarShare: ratioOf(sums.stars[4], sums.reviews) ?? 0,
    lowestCategory: lowestCategoryOf(sums),
  };
}
