import { addDays, minDate } from '@innkeep/domain';
import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../database.ts';
import {
  bucketCountColumns,
  bucketTimes,
  dimensionGroupsOfWait,
  listingWithinColumn,
  listingWithinCounts,
  listingWithinSeconds,
  repliedSeconds,
  replyCounting,
} from './guest-wait-buckets.ts';
import {
  decidedColumns,
  interpolatedPercentile,
  meanSeconds,
  percentileRank,
} from './response-measure-sql.ts';
import type { BreakdownRow, WaitSelection } from './response-time-stats.ts';
import { wholeMonthsOf } from './sold-nights.ts';

/**
 * The months of a selection that `guest_wait_buckets` can answer: whole calendar months of the period that
 * ended at least three days before `now`. By then every wait of the month is over a day old, whatever the
 * listing's time zone (a local date ends at most 36 hours after its UTC midnight), so whether it was
 * answered within an hour or a day is decided, as the buckets count it. Null when the scope filters
 * listings or a channel (the buckets keep neither) or no such month exists.
 */
export function bucketedMonthsOf(
  selection: WaitSelection,
): { firstWholeMonth: string; afterWholeMonths: string } | null {
  const { scope, period, now } = selection;
  if (scope.listingIds !== null || scope.channel !== null) return null;
  const decidedUntil = addDays(now.toISOString().slice(0, 10), -3);
  const months = wholeMonthsOf({
    startDate: period.startDate,
    endDate: minDate(period.endDate, decidedUntil),
  });
  return months.firstWholeMonth < months.afterWholeMonths ? months : null;
}

/**
 * The overall, channel, stage, hour and weekday rows of the breakdown from `guest_wait_buckets` for the
 * `months` of {@link bucketedMonthsOf}, and from the waits themselves for the days of the period outside
 * them, bucketed the same way.
 *
 * The counts say, for each group, which bucket holds each time a percentile reads and its rank there
 * (`percentile_cont` interpolates between the times at the floor and the ceiling of fraction × (n − 1)); only
 * those buckets' times are sorted. A year of the 2,000-listing demo sorts about 23,000 times this way, where
 * sorting every group's times sorted 128,000 five times.
 */
export async function bucketedBreakdownRows(
  db: Executor,
  selection: WaitSelection,
  months: { firstWholeMonth: string; afterWholeMonths: string },
): Promise<BreakdownRow[]> {
  const { scope, period, now } = selection;
  const replies = replyCounting(selection.countAutomatedReplies);
  const { firstWholeMonth, afterWholeMonths } = months;
  const monthRows = sql`
    guest_wait_buckets b
    where b.account_id = ${scope.accountId} and b.replies = ${replies}
      and b.month >= ${firstWholeMonth}::date and b.month < ${afterWholeMonths}::date`;
  const rank = (fraction: number, round: 'floor' | 'ceil') =>
    percentileRank(fraction, round, sql`g.answered`);
  // The picked times of a group, in the order of `targets`' `i`: median floor, median ceiling, p90 floor, p90
  // ceiling.
  const interpolated = (fraction: number, lower: number) =>
    interpolatedPercentile(
      fraction,
      sql`g.answered`,
      sql`p.seconds[${sql.lit(lower)}]`,
      sql`p.seconds[${sql.lit(lower + 1)}]`,
    );
  const { rows } = await sql<BreakdownRow>`
    with edge_rows as materialized (
      select d.dimension collate "C" as dimension, d.group_key collate "C" as group_key,
        guest_wait_bucket(r.seconds) as bucket, ${bucketCountColumns()}, ${bucketTimes()} as times,
        ${decidedColumns(now, sql`r.seconds`)}
      from guest_waits w
      cross join lateral (values (${repliedSeconds(replies)})) r (seconds)
      ${dimensionGroupsOfWait}
      where w.account_id = ${scope.accountId}
        and ((w.local_date >= ${period.startDate}::date and w.local_date < ${firstWholeMonth}::date)
          or (w.local_date >= ${afterWholeMonths}::date and w.local_date <= ${period.endDate}::date))
      group by 1, 2, 3
    ),
    bucket_counts as (
      select c.dimension, c.group_key, c.bucket, sum(c.waits) as waits, sum(c.answered) as answered,
        sum(c.total_seconds) as total_seconds, sum(c.within_hour) as within_hour,
        sum(c.hour_decided) as hour_decided, sum(c.within_day) as within_day, sum(c.day_decided) as day_decided
      from (
        select b.dimension, b.group_key, b.bucket, b.waits, b.answered, b.total_seconds, b.within_hour,
          b.waits as hour_decided, b.within_day, b.waits as day_decided
        from ${monthRows}
        union all
        select e.dimension, e.group_key, e.bucket, e.waits, e.answered, e.total_seconds, e.within_hour,
          e.hour_decided, e.within_day, e.day_decided
        from edge_rows e
      ) c
      group by c.dimension, c.group_key, c.bucket
    ),
    groups as materialized (
      select c.dimension, c.group_key, sum(c.waits)::bigint as waits, sum(c.answered)::bigint as answered,
        sum(c.total_seconds)::bigint as total_seconds, sum(c.within_hour)::bigint as within_hour,
        sum(c.hour_decided)::bigint as hour_decided, sum(c.within_day)::bigint as within_day,
        sum(c.day_decided)::bigint as day_decided
      from bucket_counts c
      group by c.dimension, c.group_key
      -- Rows emptied by later writes stay behind; a group whose waits all moved away is not listed.
      having sum(c.waits) > 0
    ),
    answered_buckets as (
      select c.dimension, c.group_key, c.bucket, c.answered,
        sum(c.answered) over (partition by c.dimension, c.group_key order by c.bucket) - c.answered as answered_before
      from bucket_counts c
      where c.answered > 0
    ),
    targets as materialized (
      select g.dimension, g.group_key, r.i, b.bucket, (r.rank - b.answered_before)::integer as rank_in_bucket
      from groups g
      cross join lateral (values
        (1, ${rank(0.5, 'floor')}), (2, ${rank(0.5, 'ceil')}), (3, ${rank(0.9, 'floor')}), (4, ${rank(0.9, 'ceil')})
      ) r (i, rank)
      join answered_buckets b on b.dimension = g.dimension and b.group_key = g.group_key
        and r.rank > b.answered_before and r.rank <= b.answered_before + b.answered
      where g.answered > 0
    ),
    bucket_times as materialized (
      -- Each picked bucket's rows found by their keys, one month at a time, and its times sorted on their own.
      select t.dimension, t.group_key, t.bucket, s.sorted
      from (select distinct dimension, group_key, bucket from targets) t
      cross join lateral (
        select array_agg(x order by x) as sorted
        from (
          select b.times from guest_wait_buckets b
          where b.account_id = ${scope.accountId} and b.replies = ${replies}
            and b.month = any(array(
              select generate_series(${firstWholeMonth}::date, ${afterWholeMonths}::date - 1, interval '1 month')::date))
            and b.dimension = t.dimension and b.group_key = t.group_key and b.bucket = t.bucket
          union all
          select e.times from edge_rows e
          where e.dimension = t.dimension and e.group_key = t.group_key and e.bucket = t.bucket
        ) s
        cross join unnest(s.times) x
      ) s
    ),
    picked as (
      select t.dimension, t.group_key, array_agg(bt.sorted[t.rank_in_bucket] order by t.i) as seconds
      from targets t
      join bucket_times bt on bt.dimension = t.dimension and bt.group_key = t.group_key and bt.bucket = t.bucket
      group by t.dimension, t.group_key
    )
    select g.dimension,
      case when g.dimension = 'channel' then g.group_key end as channel,
      case when g.dimension = 'stage' then g.group_key end as stage,
      case when g.dimension = 'hour' then g.group_key::smallint end as local_hour,
      case when g.dimension = 'weekday' then g.group_key::smallint end as local_weekday,
      null as listing_id, null as listing_name, null::bigint as listings, g.waits, g.answered,
      ${interpolated(0.5, 1)}::float8 as median_seconds,
      ${meanSeconds('g')} as mean_seconds,
      ${interpolated(0.9, 3)}::float8 as p90_seconds,
      g.within_hour, g.hour_decided, g.within_day, g.day_decided
    from groups g
    left join picked p on p.dimension = g.dimension and p.group_key = g.group_key`.execute(db);
  return rows;
}

/**
 * The listing rows of the breakdown, as the ranking over the waits gives them (the `listingLimit` slowest
 * listings by median, those with no answer at all first), from `listing_wait_months` for the `months` of
 * {@link bucketedMonthsOf} and from the waits themselves for the days of the period outside them.
 *
 * A listing's summed answered-within counts say between which two of {@link listingWithinSeconds} its median
 * lies (the times at its median's ranks are within the first limit whose count reaches each rank, and above
 * the one before). A listing whose median is at most some limit, when `listingLimit` others' medians are
 * above it, cannot be among the slowest, so only the other listings' times are read and sorted: on the
 * 2,000-listing demo about forty listings' rather than every listing's 128,000 answered times.
 */
export async function monthlyListingRows(
  db: Executor,
  selection: WaitSelection,
  months: { firstWholeMonth: string; afterWholeMonths: string },
  listingLimit: number,
): Promise<BreakdownRow[]> {
  const { scope, period, now } = selection;
  const replies = replyCounting(selection.countAutomatedReplies);
  const { firstWholeMonth, afterWholeMonths } = months;
  const within = listingWithinSeconds.map((seconds) => ({
    seconds,
    column: sql.ref(listingWithinColumn(seconds)),
    sum: sql.ref(`m.${listingWithinColumn(seconds)}`),
  }));
  // The time at `rank` is within the first limit whose answered-within count reaches the rank (null: none
  // does) and above the limit before that one (-1 before the first).
  const limitBelow = (rank: RawBuilder<number>) =>
    sql`case ${sql.join(
      within.map(
        ({ sum }, index) =>
          sql`when ${sum} >= ${rank} then ${sql.lit(index === 0 ? -1 : (listingWithinSeconds[index - 1] as number))}`,
      ),
      sql` `,
    )} else ${sql.lit(listingWithinSeconds[listingWithinSeconds.length - 1] as number)} end`;
  const limitAtOrAbove = (rank: RawBuilder<number>) =>
    sql`case ${sql.join(
      within.map(({ seconds, sum }) => sql`when ${sum} >= ${rank} then ${sql.lit(seconds)}`),
      sql` `,
    )} end`;
  const { rows } = await sql<BreakdownRow>`
    with edge_rows as (
      select e.listing_id, e.waits, e.answered, e.total_seconds, e.within_hour, e.within_day,
        e.hour_decided::integer, e.day_decided::integer, ${sql.join(within.map(({ column }) => sql`e.${column}`))},
        e.times
      from (
        select w.listing_id collate "C" as listing_id, ${bucketCountColumns()},
          ${decidedColumns(now, sql`r.seconds`)}, ${listingWithinCounts()}, ${bucketTimes()} as times
        from guest_waits w
        cross join lateral (values (${repliedSeconds(replies)})) r (seconds)
        where w.account_id = ${scope.accountId}
          and ((w.local_date >= ${period.startDate}::date and w.local_date < ${firstWholeMonth}::date)
            or (w.local_date >= ${afterWholeMonths}::date and w.local_date <= ${period.endDate}::date))
        group by w.listing_id
      ) e
    ),
    measured as (
      select l.listing_id, sum(l.waits)::bigint as waits, sum(l.answered)::bigint as answered,
        sum(l.total_seconds)::bigint as total_seconds, sum(l.within_hour)::bigint as within_hour,
        sum(l.hour_decided)::bigint as hour_decided, sum(l.within_day)::bigint as within_day,
        sum(l.day_decided)::bigint as day_decided,
        ${sql.join(within.map(({ column }) => sql`sum(l.${column})::bigint as ${column}`))},
        wait_times_concat(l.times) as times
      from (
        select m.listing_id, m.waits, m.answered, m.total_seconds, m.within_hour, m.within_day,
          m.waits as hour_decided, m.waits as day_decided, ${sql.join(within.map(({ column }) => sql`m.${column}`))},
          m.times
        from listing_wait_months m
        where m.account_id = ${scope.accountId} and m.replies = ${replies}
          and m.month >= ${firstWholeMonth}::date and m.month < ${afterWholeMonths}::date
        union all
        select e.listing_id, e.waits, e.answered, e.total_seconds, e.within_hour, e.within_day, e.hour_decided,
          e.day_decided, ${sql.join(within.map(({ column }) => sql`e.${column}`))}, e.times
        from edge_rows e
      ) l
      group by l.listing_id
      -- Rows emptied by later writes stay behind; a listing whose waits all moved away is not ranked.
      having sum(l.waits) > 0
    ),
    bounded as materialized (
      select m.listing_id, m.waits, m.answered, m.total_seconds, m.within_hour, m.hour_decided, m.within_day,
        m.day_decided, m.times, ${limitBelow(percentileRank(0.5, 'floor', sql`m.answered`))} as median_above,
        ${limitAtOrAbove(percentileRank(0.5, 'ceil', sql`m.answered`))} as median_at_most
      from measured m
    ),
    candidates as (
      select b.*
      from bounded b
      -- The listingLimit-th highest limit the answered listings' medians are above (with fewer listings,
      -- none): a listing whose median is at most that limit is slower than none of those.
      where b.answered = 0 or b.median_at_most is null or b.median_at_most > coalesce((
        select f.median_above from bounded f where f.answered > 0
        order by f.median_above desc offset ${listingLimit - 1}::integer limit 1), -1)
    ),
    ranked as (
      select c.*, p.seconds[1] as median_seconds, p.seconds[2] as p90_seconds,
        (select count(*) from bounded) as listings,
        row_number() over (order by p.seconds[1] desc nulls first, c.waits desc, c.listing_id) as listing_rank
      from candidates c
      cross join lateral (
        select percentile_cont(array[0.5, 0.9]) within group (order by x) as seconds from unnest(c.times) x
      ) p
    )
    select 'listing' as dimension, null as channel, null as stage, null::smallint as local_hour,
      null::smallint as local_weekday, r.listing_id, l.name as listing_name, r.listings, r.waits, r.answered,
      r.median_seconds, ${meanSeconds('r')} as mean_seconds, r.p90_seconds, r.within_hour, r.hour_decided,
      r.within_day, r.day_decided
    from ranked r
    left join listings l on l.id collate "C" = r.listing_id
    where r.listing_rank <= ${listingLimit}::integer
    order by r.listing_rank`.execute(db);
  return rows;
}
