import type { Channel } from '@innkeep/domain';
import { addDays } from '@innkeep/domain';
import type { Granularity, ReviewAnalytics } from '@innkeep/domain/analytics';
import {
  type AnalyticsPeriod,
  bucketStart,
  type NullReason,
  periodBuckets,
  ratioOf,
  reviewCategories,
} from '@innkeep/domain/analytics';
import { type Kysely, sql } from 'kysely';
import type { Database, Executor } from '../database.ts';
import { withAnalyticsSettings } from './analytics-query-settings.ts';
import { type AnalyticsScope, channelInScope, listingInScope } from './analytics-scope.ts';
import {
  attentionCountColumns,
  bucketStartOf,
  categoryColumns,
  lowestCategoryOf,
  meanRating,
  periodReviews,
  type ReviewSumRow,
  summedReviewColumns,
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
  /** Null when the listing is among the worst only. */
  best_rank: number | null;
  /** Null when the listing is among the best only. */
  worst_rank: number | null;
}

/** A bucket's trend sums: `reviews`, `rating_sum` and `stars_5`. */
type BucketSumRow = ReviewSumRow & { bucket: string };

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
 * The sums the analytics show, named as in `reviewSumColumns`: a shown listing needs its count, rating sum,
 * five-star count and categories; the whole period (added up from its days) also its low ratings and
 * unanswered reviews. Reply times are left out: nothing here shows them.
 */
const shownListingSumColumns = sql`
  count(*)::bigint as reviews,
  sum(overall_rating)::bigint as rating_sum,
  count(*) filter (where overall_rating = 5)::bigint as stars_5,
  ${sql.join(
    reviewCategories.map(
      (category) =>
        sql`sum(${sql.ref(categoryColumns[category])})::bigint as ${sql.ref(`${category}_sum`)},
          count(${sql.ref(categoryColumns[category])})::bigint as ${sql.ref(`${category}_n`)}`,
    ),
  )}`;

/** {@link shownListingSumColumns} and the unanswered and low-rating counts, over `periodReviews` rows. */
const listingSumColumns = sql`
  ${shownListingSumColumns},
  ${attentionCountColumns}`;

/** The names of the {@link listingSumColumns}: each is a count or a sum, so it adds up across days. */
const listingSumColumnNames: readonly string[] = [
  'reviews',
  'rating_sum',
  'stars_5',
  ...reviewCategories.flatMap((category) => [`${category}_sum`, `${category}_n`]),
  'low',
  'unanswered',
  'unanswered_low',
];

/**
 * The rating trend by bucket, the weakest category, the best and worst listings with enough reviews, and the
 * newest low ratings of a period; everything but `meta`, plus the notes for it. Two reads side by side, each
 * in its own transaction with the analytics settings (so on its own connection when `db` is a pool), as
 * review stats does, and of about the same cost: the ranking, and the trend and whole-period sums with the
 * low ratings. Each reads the period's reviews from the covering index once, summing per listing only what
 * ranks them and per day everything else, rather than every sum for both groupings. As in review stats, the
 * two reads see their own snapshots: a review written between them shows in one part only.
 */
export async function reviewAnalyticsOf(
  db: Kysely<Database>,
  scope: AnalyticsScope,
  period: AnalyticsPeriod,
  options: ReviewAnalyticsOptions,
): Promise<{ result: Omit<ReviewAnalytics, 'meta'>; notes: string[] }> {
  const [listings, trend] = await Promise.all([
    withAnalyticsSettings(db, (trx) => rankedListings(trx, scope, period, options)),
    withAnalyticsSettings(db, (trx) => trendAndLowRatings(trx, scope, period, options)),
  ]);
  const bucketRows = trend.buckets;
  const lowRows = trend.low;

  const total = toReviewSums(trend.totals);
  const byBucket = new Map(bucketRows.map((row) => [row.bucket, toReviewSums(row)]));
  const shown = listings.shown.map((row) => ({
    // A listing among the best only has no worst rank, and the other way round.
    ranks: {
      best: row.best_rank === null ? null : Number(row.best_rank),
      worst: row.worst_rank === null ? null : Number(row.worst_rank),
    },
    listing: rankedListing(row),
  }));
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
      rankedListings: listings.ranked,
      bestListings: listedBy(shown, (ranks) => ranks.best),
      worstListings: listedBy(shown, (ranks) => ranks.worst),
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

/**
 * The best and worst few listings with enough reviews, and how many have enough. Every listing of the
 * period needs only its count and rating sum to be ranked (one index-only read, grouped by listing); two
 * top-N sorts pick the shown ones rather than ranking every listing, and only those few sum their five-star
 * counts and categories, from their own reviews of the period (`reviews_listing_local_date`).
 */
async function rankedListings(
  db: Executor,
  scope: AnalyticsScope,
  period: AnalyticsPeriod,
  options: ReviewAnalyticsOptions,
): Promise<{ shown: RankedListingRow[]; ranked: number }> {
  const { rows } = await sql<{ shown: RankedListingRow[]; ranked: number }>`
    with ranked as materialized (
      -- Means as double quotients of the integer sums: equal fractions divide to equal doubles and distinct
      -- ones (small denominators) to distinct ones in the same order, so ties and order are exact, and
      -- doubles sort several times faster than numerics.
      select listing_id, reviews, rating_sum::double precision / reviews as mean
      from (
        select listing_id, count(*)::bigint as reviews, sum(overall_rating)::bigint as rating_sum
        from ${periodReviews(scope, period)} v
        group by listing_id
      ) v
      where reviews >= ${options.minReviews}::integer
    ),
    best as (
      select listing_id, row_number() over (order by mean desc, reviews desc, listing_id) as best_rank
      from (
        select * from ranked order by mean desc, reviews desc, listing_id limit ${options.listingLimit}::integer
      ) r
    ),
    worst as (
      select listing_id, row_number() over (order by mean, reviews desc, listing_id) as worst_rank
      from (
        select * from ranked order by mean, reviews desc, listing_id limit ${options.listingLimit}::integer
      ) r
    ),
    shown as (
      select s.listing_id, l.name as listing_name, b.best_rank, w.worst_rank, sums.*
      from (select listing_id from best union select listing_id from worst) s
      -- listing_id is in the C collation (see periodReviews); back in the default one the key finds its row
      join listings l on l.id = s.listing_id collate "default"
      left join best b on b.listing_id = s.listing_id
      left join worst w on w.listing_id = s.listing_id
      cross join lateral (
        -- The same reviews periodReviews selects, of this one listing.
        select ${shownListingSumColumns}
        from reviews v
        where v.listing_id = l.id
          and v.local_date between ${period.startDate}::date and ${period.endDate}::date
          and v.account_id = ${scope.accountId}
          and ${channelInScope(scope, 'v.channel')}
      ) sums
    )
    select
      (select coalesce(json_agg(s), '[]'::json) from shown s) as shown,
      (select count(*) from ranked) as ranked`.execute(db);
  return { shown: rows[0]?.shown ?? [], ranked: Number(rows[0]?.ranked ?? 0) };
}

/**
 * The trend's sums per bucket and the whole period's sums, both added up from the period's reviews summed
 * per local day (one index-only read, grouped in index order), and the newest low ratings, read backwards in
 * submission order.
 */
async function trendAndLowRatings(
  db: Executor,
  scope: AnalyticsScope,
  period: AnalyticsPeriod,
  options: ReviewAnalyticsOptions,
): Promise<{ buckets: BucketSumRow[]; totals: ReviewSumRow | undefined; low: LowRatingRow[] }> {
  // Listing zones are at most 14 hours from UTC, so a day either side holds every listing's period: the
  // newest low ratings are then read backwards from the period's end rather than from the newest review.
  const from = new Date(`${addDays(period.startDate, -1)}T00:00:00Z`);
  const to = new Date(`${addDays(period.endDate, 2)}T00:00:00Z`);
  const { rows } = await sql<{ buckets: BucketSumRow[]; totals: ReviewSumRow; low: LowRatingRow[] }>`
    with per_day as materialized (
      select local_date, ${listingSumColumns}
      from ${periodReviews(scope, period)} v
      group by local_date
    ),
    buckets as (
      select bucket, sum(reviews)::bigint as reviews, sum(rating_sum)::bigint as rating_sum,
        sum(stars_5)::bigint as stars_5
      from (select *, ${bucketStartOf(options.granularity)} as bucket from per_day) v
      group by bucket
    ),
    low as (
      select v.id, v.listing_id, l.name as listing_name, v.channel, v.overall_rating, v.submitted_at,
        v.local_date, v.responded_at is not null as answered
      from reviews v
      join listings l on l.id = v.listing_id
      where v.account_id = ${scope.accountId}
        and v.submitted_at >= ${from} and v.submitted_at < ${to}
        and v.local_date between ${period.startDate}::date and ${period.endDate}::date
        and v.overall_rating <= 3
        and ${listingInScope(scope, 'v.listing_id')}
        and ${channelInScope(scope, 'v.channel')}
      order by v.submitted_at desc, v.id desc
      limit ${options.lowRatingLimit}::integer
    )
    select
      (select coalesce(json_agg(b), '[]'::json) from buckets b) as buckets,
      (select row_to_json(t) from (select ${summedReviewColumns(listingSumColumnNames)} from per_day) t) as totals,
      (select coalesce(json_agg(l order by l.submitted_at desc, l.id desc), '[]'::json) from low l) as low`.execute(
    db,
  );
  return { buckets: rows[0]?.buckets ?? [], totals: rows[0]?.totals, low: rows[0]?.low ?? [] };
}

/** The shown listings that have a rank of the kind `rankOf` reads, in that rank's order. */
function listedBy<Listing>(
  shown: readonly { ranks: { best: number | null; worst: number | null }; listing: Listing }[],
  rankOf: (ranks: { best: number | null; worst: number | null }) => number | null,
): Listing[] {
  return shown
    .flatMap((entry) => {
      const rank = rankOf(entry.ranks);
      return rank === null ? [] : [{ rank, listing: entry.listing }];
    })
    .sort((a, b) => a.rank - b.rank)
    .map(({ listing }) => listing);
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
