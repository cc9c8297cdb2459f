import type { Channel } from '@innkeep/domain';
import type { AnalyticsPeriod, Granularity } from '@innkeep/domain/analytics';
import {
  type CategoryMeans,
  type NullReason,
  type ReviewCategory,
  type ReviewStats,
  ratioOf,
  reviewCategories,
} from '@innkeep/domain/analytics';
import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../database.ts';
import { type AnalyticsScope, channelInScope, listingInScope } from './analytics-scope.ts';
import { listingTodayRange } from './listing-today-range.ts';

/** The column of each review category. */
export const categoryColumns: Readonly<Record<ReviewCategory, string>> = {
  cleanliness: 'cleanliness_rating',
  accuracy: 'accuracy_rating',
  checkIn: 'check_in_rating',
  communication: 'communication_rating',
  location: 'location_rating',
  value: 'value_rating',
};

/** Sums of a set of reviews, from which every review figure is computed. */
export interface ReviewSums {
  readonly reviews: number;
  readonly ratingSum: number;
  /** Reviews per overall rating; index 0 is 1 star. */
  readonly stars: readonly [number, number, number, number, number];
  /** Per category: the sum of its ratings and how many reviews rated it. */
  readonly categories: Readonly<Record<ReviewCategory, { readonly sum: number; readonly ratings: number }>>;
  /** Reviews with a host response (Innkeep records a response and its time together). */
  readonly replied: number;
  /** Seconds from submission to response, summed over the replied reviews. */
  readonly replySeconds: number;
  /** Reviews rated 3 or fewer stars. */
  readonly low: number;
  readonly unanswered: number;
  readonly unansweredLow: number;
}

/** A row holding the {@link reviewSumColumns} (counts as numbers, `reply_seconds` as numeric text). */
export type ReviewSumRow = Record<string, unknown>;

/**
 * The reviews of `period` in scope, by the listing-local date they were submitted (`local_date`, kept on
 * every review): a subquery with the review's ratings, `listing_id`, `channel`, `submitted_at`,
 * `responded_at`, `answered` and `local_date`. It reads one covering index, with no listing joined and no
 * timestamp converted.
 */
export function periodReviews(scope: AnalyticsScope, period: AnalyticsPeriod): RawBuilder<unknown> {
  return sql`(
    -- Channel and listing in the C collation: grouping sorts by them, and byte order sorts several times faster.
    select v.listing_id collate "C" as listing_id, v.channel collate "C" as channel, v.overall_rating,
      v.cleanliness_rating, v.accuracy_rating, v.check_in_rating, v.communication_rating, v.location_rating,
      v.value_rating, v.submitted_at, v.responded_at, v.responded_at is not null as answered, v.local_date
    from reviews v
    where v.account_id = ${scope.accountId}
      and v.local_date between ${period.startDate}::date and ${period.endDate}::date
      and ${listingInScope(scope, 'v.listing_id')}
      and ${channelInScope(scope, 'v.channel')}
  )`;
}

/**
 * The counts of reviews that need the host: low ratings (3 stars or fewer), unanswered ones, and both, over
 * `periodReviews` rows.
 */
export const attentionCountColumns: RawBuilder<unknown> = sql`
  count(*) filter (where overall_rating <= 3)::bigint as low,
  count(*) filter (where not answered)::bigint as unanswered,
  count(*) filter (where not answered and overall_rating <= 3)::bigint as unanswered_low`;

/** The aggregate columns {@link toReviewSums} reads, over a source of {@link periodReviews} rows. */
export const reviewSumColumns: RawBuilder<unknown> = sql`
  count(*)::bigint as reviews,
  sum(overall_rating)::bigint as rating_sum,
  count(*) filter (where overall_rating = 1)::bigint as stars_1,
  count(*) filter (where overall_rating = 2)::bigint as stars_2,
  count(*) filter (where overall_rating = 3)::bigint as stars_3,
  count(*) filter (where overall_rating = 4)::bigint as stars_4,
  count(*) filter (where overall_rating = 5)::bigint as stars_5,
  ${sql.join(
    reviewCategories.map(
      (category) =>
        sql`sum(${sql.ref(categoryColumns[category])})::bigint as ${sql.ref(`${category}_sum`)},
          count(${sql.ref(categoryColumns[category])})::bigint as ${sql.ref(`${category}_n`)}`,
    ),
  )},
  count(*) filter (where answered)::bigint as replied,
  sum(extract(epoch from responded_at - submitted_at)) filter (where answered) as reply_seconds,
  ${attentionCountColumns}`;

/** The names of the {@link reviewSumColumns}: each is a count or a sum, so it adds up across groups. */
const reviewSumColumnNames: readonly string[] = [
  'reviews',
  'rating_sum',
  'stars_1',
  'stars_2',
  'stars_3',
  'stars_4',
  'stars_5',
  ...reviewCategories.flatMap((category) => [`${category}_sum`, `${category}_n`]),
  'replied',
  'reply_seconds',
  'low',
  'unanswered',
  'unanswered_low',
];

/**
 * Aggregate columns adding up the named {@link reviewSumColumns} of grouped rows (the per-channel or
 * per-listing sums), so the whole period's sums need no second pass over its reviews. `reply_seconds`
 * stays numeric, the rest are bigint as {@link reviewSumColumns} returns them.
 */
export function summedReviewColumns(names: readonly string[]): RawBuilder<unknown> {
  return sql.join(
    names.map((name) =>
      name === 'reply_seconds'
        ? sql`sum(${sql.ref(name)}) as ${sql.ref(name)}`
        : sql`sum(${sql.ref(name)})::bigint as ${sql.ref(name)}`,
    ),
  );
}

/** The review sums of the period per channel (`channel` set, `all_channels` 0) and overall (`all_channels` 1). */
export async function reviewSumsByChannel(
  db: Executor,
  scope: AnalyticsScope,
  period: AnalyticsPeriod,
): Promise<(ReviewSumRow & { channel: Channel | null; all_channels: number })[]> {
  // Summed per channel in one pass, then the few channel rows added up for the whole period: grouping sets
  // would run every aggregate twice for each review.
  const { rows } = await sql<ReviewSumRow & { channel: Channel | null; all_channels: number }>`
    with by_channel as materialized (
      select channel, ${reviewSumColumns}
      from ${periodReviews(scope, period)} v
      group by channel
    )
    select channel, 0 as all_channels, ${sql.join(reviewSumColumnNames.map((name) => sql.ref(name)))}
    from by_channel
    union all
    select null, 1, ${summedReviewColumns(reviewSumColumnNames)}
    from by_channel
    order by channel`.execute(db);
  return rows;
}

/** Reads a {@link reviewSumColumns} row. */
export function toReviewSums(row: ReviewSumRow | undefined): ReviewSums {
  const count = (value: unknown) => Number(value ?? 0);
  const categories = Object.fromEntries(
    reviewCategories.map((category) => [
      category,
      { sum: count(row?.[`${category}_sum`]), ratings: count(row?.[`${category}_n`]) },
    ]),
  ) as Record<ReviewCategory, { sum: number; ratings: number }>;
  return {
    reviews: count(row?.reviews),
    ratingSum: count(row?.rating_sum),
    stars: [
      count(row?.stars_1),
      count(row?.stars_2),
      count(row?.stars_3),
      count(row?.stars_4),
      count(row?.stars_5),
    ],
    categories,
    replied: count(row?.replied),
    replySeconds: count(row?.reply_seconds),
    low: count(row?.low),
    unanswered: count(row?.unanswered),
    unansweredLow: count(row?.unanswered_low),
  };
}

/** A mean rating rounded to 2 decimals; null without ratings. */
export function meanRating(sum: number, ratings: number): number | null {
  return ratings === 0 ? null : Math.round((sum * 100) / ratings) / 100;
}

/** The mean of each category, null (with the reason) where no review rated it. */
export function categoryMeansOf(sums: ReviewSums): CategoryMeans {
  const nullReasons: Record<string, NullReason> = {};
  const means = Object.fromEntries(
    reviewCategories.map((category) => {
      const { sum, ratings } = sums.categories[category];
      if (ratings === 0) nullReasons[category] = 'no_reviews';
      return [category, meanRating(sum, ratings)];
    }),
  ) as Record<ReviewCategory, number | null>;
  return { ...means, nullReasons };
}

/** The category with the lowest mean (the first in catalogue order on a tie); null when none was rated. */
export function lowestCategoryOf(
  sums: ReviewSums,
): { category: ReviewCategory; mean: number; ratings: number } | null {
  let lowest: { category: ReviewCategory; mean: number; ratings: number } | null = null;
  let lowestExact = Number.POSITIVE_INFINITY;
  for (const category of reviewCategories) {
    const { sum, ratings } = sums.categories[category];
    // Exact means decide (equal fractions divide to equal doubles); the reported one is rounded.
    if (ratings === 0 || sum / ratings >= lowestExact) continue;
    lowestExact = sum / ratings;
    lowest = { category, mean: meanRating(sum, ratings) ?? 0, ratings };
  }
  return lowest;
}

/** Sold stays that checked out in the period, up to each listing's local today, and how many have a review. */
export async function completedStays(
  db: Executor,
  scope: AnalyticsScope,
  period: AnalyticsPeriod,
  now: Date,
): Promise<{ completed: number; reviewed: number }> {
  const { earliest, latest } = listingTodayRange(now);
  // A stay that checked out by the earliest listing today has checked out everywhere; only the few checking
  // out in the day or two after it look up their listing's own today. `reviewed` (kept by triggers on
  // reviews) says whether the stay got a review, so this is one index-only count, not a join to the reviews.
  const { rows } = await sql<{ completed: number; reviewed: number }>`
    select count(*)::bigint as completed, count(*) filter (where r.reviewed)::bigint as reviewed
    from reservations r
    where r.account_id = ${scope.accountId}
      and r.status = 'accepted'
      and r.end_date between ${period.startDate}::date and least(${period.endDate}::date, ${latest}::date)
      and (
        r.end_date <= ${earliest}::date
        or r.end_date <= (
          select (${now.toISOString()}::timestamptz at time zone l.time_zone)::date
          from listings l
          where l.id = r.listing_id and l.account_id = ${scope.accountId}
        )
      )
      and ${listingInScope(scope, 'r.listing_id')}
      and ${channelInScope(scope, 'r.channel')}`.execute(db);
  return { completed: Number(rows[0]?.completed ?? 0), reviewed: Number(rows[0]?.reviewed ?? 0) };
}

/** The first night of a review's bucket (`local_date` is its listing-local date), as `periodBuckets` starts them. */
export function bucketStartOf(granularity: Granularity): RawBuilder<string> {
  if (granularity === 'day') return sql<string>`local_date`;
  if (granularity === 'month') return sql<string>`date_trunc('month', local_date)::date`;
  return sql<string>`local_date - (extract(isodow from local_date)::integer - 1)`;
}

/** The review-stats result without `meta`, from {@link reviewSumsByChannel} rows and {@link completedStays}. */
export function toReviewStats(
  rows: readonly (ReviewSumRow & { channel: Channel | null; all_channels: number })[],
  stays: { completed: number; reviewed: number },
): Omit<ReviewStats, 'meta'> {
  const total = toReviewSums(rows.find((row) => Number(row.all_channels) === 1));
  const nullReasons: Record<string, NullReason> = {};
  if (total.reviews === 0) {
    for (const field of ['meanRating', 'distribution', 'fiveStarShare', 'replyRate', 'meanReplyHours']) {
      nullReasons[field] = 'no_reviews';
    }
  } else if (total.replied === 0) {
    nullReasons.meanReplyHours = 'no_responses';
  }
  if (stays.completed === 0) nullReasons.reviewRate = 'no_completed_stays';
  return {
    reviews: total.reviews,
    meanRating: meanRating(total.ratingSum, total.reviews),
    distribution: total.stars.map((reviews, index) => ({
      rating: index + 1,
      reviews,
      share: ratioOf(reviews, total.reviews),
    })),
    fiveStarShare: ratioOf(total.stars[4], total.reviews),
    categoryMeans: categoryMeansOf(total),
    completedStays: stays.completed,
    reviewedStays: stays.reviewed,
    reviewRate: ratioOf(stays.reviewed, stays.completed),
    replied: total.replied,
    replyRate: ratioOf(total.replied, total.reviews),
    meanReplyHours: total.replied === 0 ? null : Math.round(total.replySeconds / total.replied / 360) / 10,
    byChannel: rows
      .filter((row) => Number(row.all_channels) === 0 && row.channel !== null)
      .map((row) => {
        const sums = toReviewSums(row);
        return {
          channel: row.channel as Channel,
          reviews: sums.reviews,
          meanRating: meanRating(sums.ratingSum, sums.reviews),
          fiveStarShare: ratioOf(sums.stars[4], sums.reviews),
          replyRate: ratioOf(sums.replied, sums.reviews),
          // A channel only appears with reviews, so none of its figures is null.
          nullReasons: {},
        };
      }),
    nullReasons,
  };
}
