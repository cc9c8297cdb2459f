import type { Channel } from '@innkeep/domain';
import { weekdayNames } from '@innkeep/domain';
import type { AnalyticsPeriod } from '@innkeep/domain/analytics';
import {
  conversationStages,
  type NullReason,
  type ResponseMeasures,
  type ResponseTimeBreakdown,
  ratioOf,
} from '@innkeep/domain/analytics';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database, Executor } from '../database.ts';
import { withAnalyticsSettings } from './analytics-query-settings.ts';
import { type AnalyticsScope, channelInScope, listingInScope } from './analytics-scope.ts';
import { repliedSeconds, replyCounting } from './guest-wait-buckets.ts';
import {
  daySeconds,
  decidedColumns,
  hourSeconds,
  interpolatedPercentile,
  meanSeconds,
  percentileRank,
} from './response-measure-sql.ts';
import { bucketedBreakdownRows, bucketedMonthsOf, monthlyListingRows } from './response-time-buckets.ts';

/** The measure columns {@link toResponseMeasures} reads, as one row of SQL aggregates. */
export interface ResponseMeasureRow {
  waits: number;
  answered: number;
  median_seconds: number | null;
  mean_seconds: string | null;
  p90_seconds: number | null;
  within_hour: number;
  hour_decided: number;
  within_day: number;
  day_decided: number;
}

/** Which waits a response-time question reads, and how it counts a reply. */
export interface WaitSelection {
  readonly scope: AnalyticsScope;
  readonly period: AnalyticsPeriod;
  /** True: an automated message sent during the wait answers it as well as the host's. */
  readonly countAutomatedReplies: boolean;
  readonly now: Date;
}

/**
 * `from …` the waits whose first guest message falls in the period (listing-local date), as `w`, with
 * `w.seconds`: the response time as the question counts it, null while unanswered.
 */
export function selectedWaits(selection: WaitSelection): RawBuilder<unknown> {
  const { scope, period } = selection;
  const seconds = repliedSeconds(replyCounting(selection.countAutomatedReplies));
  // Text keys in the C collation: grouping sorts by them, and byte order sorts several times faster.
  return sql`
    from (
      select w.channel collate "C" as channel, w.stage collate "C" as stage, w.listing_id collate "C" as listing_id,
        w.local_hour, w.local_weekday, w.guest_message_at, w.automated_seconds, ${seconds} as seconds
      from guest_waits w
      where w.account_id = ${scope.accountId}
        and w.local_date between ${period.startDate}::date and ${period.endDate}::date
        and ${listingInScope(scope, 'w.listing_id')}
        and ${channelInScope(scope, 'w.channel')}
    ) w`;
}

/**
 * The aggregates of {@link ResponseMeasureRow} over {@link selectedWaits}. A wait still unanswered counts as a
 * miss in a share only once the share's window (1 hour, 24 hours) has passed since the guest wrote.
 */
export function responseMeasureColumns(now: Date): RawBuilder<unknown> {
  return sql`
    count(*)::bigint as waits,
    count(w.seconds)::bigint as answered,
    percentile_cont(0.5) within group (order by w.seconds) as median_seconds,
    avg(w.seconds) as mean_seconds,
    percentile_cont(0.9) within group (order by w.seconds) as p90_seconds,
    count(*) filter (where w.seconds <= ${hourSeconds}::integer)::bigint as within_hour,
    count(*) filter (where w.seconds <= ${daySeconds}::integer)::bigint as within_day,
    ${decidedColumns(now, sql`w.seconds`)}`;
}

/** Reads the measures of a set of waits; zero waits when `row` is missing. */
export function toResponseMeasures(row: ResponseMeasureRow | undefined): ResponseMeasures {
  const waits = Number(row?.waits ?? 0);
  const answered = Number(row?.answered ?? 0);
  const nullReasons: Record<string, NullReason> = {};
  if (answered === 0) {
    const reason: NullReason = waits === 0 ? 'no_guest_messages' : 'no_responses';
    nullReasons.medianMinutes = reason;
    nullReasons.meanMinutes = reason;
    nullReasons.p90Minutes = reason;
  }
  const hourDecided = Number(row?.hour_decided ?? 0);
  const dayDecided = Number(row?.day_decided ?? 0);
  if (hourDecided === 0) nullReasons.withinHourShare = 'no_guest_messages';
  if (dayDecided === 0) nullReasons.withinDayShare = 'no_guest_messages';
  return {
    waits,
    answered,
    unanswered: waits - answered,
    medianMinutes: minutes(row?.median_seconds),
    meanMinutes: minutes(row?.mean_seconds),
    p90Minutes: minutes(row?.p90_seconds),
    withinHourShare: ratioOf(Number(row?.within_hour ?? 0), hourDecided),
    withinDayShare: ratioOf(Number(row?.within_day ?? 0), dayDecided),
    nullReasons,
  };
}

function minutes(seconds: number | string | null | undefined): number | null {
  if (seconds === null || seconds === undefined) return null;
  return Math.round(Number(seconds) / 6) / 10;
}

/** The measures of every selected wait, and how many of them had an automated message before the host's. */
export async function responseTotals(
  db: Executor,
  selection: WaitSelection,
): Promise<{ measures: ResponseMeasures; automatedFirst: number }> {
  const { rows } = await sql<ResponseMeasureRow & { automated_first: number }>`
    select ${responseMeasureColumns(selection.now)}, count(w.automated_seconds)::bigint as automated_first
    ${selectedWaits(selection)}`.execute(db);
  return { measures: toResponseMeasures(rows[0]), automatedFirst: Number(rows[0]?.automated_first ?? 0) };
}

/** A row of the breakdown: which dimension it belongs to, its key in that dimension, and its measures. */
export interface BreakdownRow extends ResponseMeasureRow {
  dimension: 'overall' | 'channel' | 'stage' | 'hour' | 'weekday' | 'listing';
  channel: string | null;
  stage: string | null;
  local_hour: number | null;
  local_weekday: number | null;
  listing_id: string | null;
  listing_name: string | null;
  /** On listing rows: listings with waits, whatever `listingLimit` keeps; null on the others. */
  listings: number | null;
}

/**
 * The measures overall and per channel, stage, listing-local hour and weekday, and listing. Only the
 * `listingLimit` slowest listings (by median; those with no answer at all first) come back.
 *
 * Sorting is what costs: a year of a large portfolio is a hundred thousand waits or more. For the whole
 * months they answer, the small dimensions come from `guest_wait_buckets` (see {@link bucketedBreakdownRows})
 * and the listings from `listing_wait_months` (see {@link monthlyListingRows}: only listings that may rank
 * have their times sorted); otherwise both come from the waits counted into cells in one hashed pass that
 * keeps each cell's times unsorted, so only times are sorted. The listings and the other dimensions are two
 * statements sent together, each in its own transaction, so PostgreSQL runs them side by side.
 */
export async function responseBreakdownRows(
  db: Kysely<Database>,
  selection: WaitSelection,
  listingLimit: number,
): Promise<BreakdownRow[]> {
  const bucketedMonths = bucketedMonthsOf(selection);
  const [byListing, byCell] = await Promise.all([
    withAnalyticsSettings(db, (trx) =>
      bucketedMonths === null
        ? listingBreakdownRows(trx, selection, listingLimit)
        : monthlyListingRows(trx, selection, bucketedMonths, listingLimit),
    ),
    withAnalyticsSettings(db, (trx) =>
      bucketedMonths === null
        ? cellBreakdownRows(trx, selection)
        : bucketedBreakdownRows(trx, selection, bucketedMonths),
    ),
  ]);
  return [...byCell, ...byListing];
}

/**
 * Per-cell aggregates over {@link selectedWaits}, rolled up later: the counts of {@link ResponseMeasureRow},
 * the sum of the answered times (for the mean), and those times unsorted in `times`.
 */
function cellColumns(now: Date): RawBuilder<unknown> {
  return sql`
    count(*) as waits,
    count(w.seconds) as answered,
    sum(w.seconds) as total_seconds,
    count(*) filter (where w.seconds <= ${hourSeconds}::integer) as within_hour,
    count(*) filter (where w.seconds <= ${daySeconds}::integer) as within_day,
    ${decidedColumns(now, sql`w.seconds`)},
    array_agg(w.seconds) filter (where w.seconds is not null) as times`;
}

/**
 * The listing rows: each listing's times are a few dozen, so its median and p90 are `percentile_cont` over its
 * own unsorted times, one small sort each.
 */
async function listingBreakdownRows(
  db: Executor,
  selection: WaitSelection,
  listingLimit: number,
): Promise<BreakdownRow[]> {
  const { rows } = await sql<BreakdownRow>`
    with measured as (
      select m.listing_id, m.waits, m.answered, p.seconds[1] as median_seconds, ${meanSeconds('m')} as mean_seconds,
        p.seconds[2] as p90_seconds, m.within_hour, m.hour_decided, m.within_day, m.day_decided
      from (select w.listing_id, ${cellColumns(selection.now)} ${selectedWaits(selection)} group by w.listing_id) m
      cross join lateral (
        select percentile_cont(array[0.5, 0.9]) within group (order by x) as seconds from unnest(m.times) x
      ) p
    ),
    ranked as (
      select m.*, count(*) over () as listings,
        row_number() over (order by m.median_seconds desc nulls first, m.waits desc, m.listing_id) as listing_rank
      from measured m
    )
    select 'listing' as dimension, null as channel, null as stage, null::smallint as local_hour,
      null::smallint as local_weekday, r.listing_id, l.name as listing_name, r.listings, r.waits, r.answered,
      r.median_seconds, r.mean_seconds, r.p90_seconds, r.within_hour, r.hour_decided, r.within_day, r.day_decided
    from ranked r
    left join listings l on l.id collate "C" = r.listing_id
    where r.listing_rank <= ${listingLimit}::integer
    order by r.listing_rank`.execute(db);
  return rows;
}

/** The small dimensions, whose groups are sets of the channel × stage × local hour × weekday cells. */
const cellDimensions = ['overall', 'channel', 'stage', 'hour', 'weekday'] as const;
type CellDimension = (typeof cellDimensions)[number];

/** Each small dimension's grouping column in the roll-up of the cells (the overall group has none). */
const groupingColumns: Record<Exclude<CellDimension, 'overall'>, RawBuilder<unknown>> = {
  channel: sql`c.channel_code`,
  stage: sql`c.stage_code`,
  hour: sql`c.local_hour`,
  weekday: sql`c.local_weekday`,
};

/** Each small dimension's group of a cell as a number, to lead a sort key: 0 for the single overall group. */
const groupCodes: Record<CellDimension, RawBuilder<unknown>> = {
  overall: sql`0::bigint`,
  channel: sql`c.channel_code`,
  stage: sql`c.stage_code`,
  hour: sql`c.local_hour::bigint`,
  weekday: sql`c.local_weekday::bigint`,
};

/**
 * The overall, channel, stage, hour and weekday rows, rolled up from the cells. Their groups hold thousands of
 * times each, so the percentiles come from one sort of plain 64-bit numbers per dimension: group code in the
 * high half, seconds in the low half, so each group's times lie together in order and a percentile is a
 * position (the times of the groups before plus its rank in its group). `percentile_disc` reads those
 * positions, each asked as a fraction half a position short of it (it picks position ceil(fraction × n)), and
 * the interpolation is `percentile_cont`'s own arithmetic, so the figures equal `percentile_cont` per group.
 */
async function cellBreakdownRows(db: Executor, selection: WaitSelection): Promise<BreakdownRow[]> {
  const groupedBy = sql.join(
    (Object.keys(groupingColumns) as (keyof typeof groupingColumns)[]).map(
      (dimension) => sql`when grouping(${groupingColumns[dimension]}) = 0 then ${dimension}`,
    ),
    sql` `,
  );
  const sortedTimes = sql.join(
    cellDimensions.map(
      (
        dimension,
      ) => sql`percentile_disc((select f.fractions from fractions f where f.dimension = ${dimension}))
        within group (order by (${groupCodes[dimension]} << 32) | x) as ${sql.ref(dimension)}`,
    ),
  );
  const timesOf = sql.join(
    cellDimensions.map((dimension) => sql`when ${dimension} then p.${sql.ref(dimension)}`),
    sql` `,
  );
  // Null for a group without answers (its slot is the next group's).
  const interpolated = (fraction: number, lower: string, upper: string) =>
    sql`case when g.answered > 0 then ${interpolatedPercentile(
      fraction,
      sql`g.answered`,
      sql.ref(`v.${lower}`),
      sql.ref(`v.${upper}`),
    )} end`;
  const rank = (fraction: number, round: 'floor' | 'ceil') =>
    percentileRank(fraction, round, sql`g.answered`);
  const { rows } = await sql<BreakdownRow>`
    with cells as (
      select w.channel, w.stage, w.local_hour, w.local_weekday, ${cellColumns(selection.now)}
      ${selectedWaits(selection)}
      group by w.channel, w.stage, w.local_hour, w.local_weekday
    ),
    coded_cells as materialized (
      select c.*, dense_rank() over (order by c.channel) as channel_code,
        dense_rank() over (order by c.stage) as stage_code
      from cells c
    ),
    grouped as (
      select case ${groupedBy} else 'overall' end as dimension,
        coalesce(c.channel_code, c.stage_code, c.local_hour, c.local_weekday, 0) as code,
        c.channel, c.stage, c.local_hour, c.local_weekday,
        coalesce(sum(c.waits), 0)::bigint as waits,
        coalesce(sum(c.answered), 0)::bigint as answered,
        sum(c.total_seconds)::bigint as total_seconds,
        coalesce(sum(c.within_hour), 0)::bigint as within_hour,
        coalesce(sum(c.hour_decided), 0)::bigint as hour_decided,
        coalesce(sum(c.within_day), 0)::bigint as within_day,
        coalesce(sum(c.day_decided), 0)::bigint as day_decided
      from coded_cells c
      group by grouping sets (
        (), (c.channel_code, c.channel), (c.stage_code, c.stage), (c.local_hour), (c.local_weekday))
    ),
    positioned as materialized (
      -- Where each group's times start in its dimension's sort, and its place among the groups with any
      -- (four percentile positions each).
      select g.*,
        coalesce(sum(g.answered) over preceding, 0) as answered_before,
        sum(g.answered) over (partition by g.dimension) as answered_in_dimension,
        count(*) filter (where g.answered > 0) over preceding as slot
      from grouped g
      window preceding as (
        partition by g.dimension order by g.code rows between unbounded preceding and 1 preceding)
    ),
    fractions as (
      select g.dimension,
        array_agg((g.answered_before + r.rank - 0.5) / g.answered_in_dimension order by g.code, r.i) as fractions
      from positioned g
      cross join lateral (values
        (1, ${rank(0.5, 'floor')}), (2, ${rank(0.5, 'ceil')}), (3, ${rank(0.9, 'floor')}), (4, ${rank(0.9, 'ceil')})
      ) r (i, rank)
      where g.answered > 0
      group by g.dimension
    ),
    picked as (
      select ${sortedTimes}
      from coded_cells c
      cross join unnest(c.times) x
    )
    select g.dimension, g.channel, g.stage, g.local_hour, g.local_weekday, null as listing_id,
      null as listing_name, null::bigint as listings, g.waits, g.answered,
      ${interpolated(0.5, 'lower_median', 'upper_median')} as median_seconds,
      ${meanSeconds('g')} as mean_seconds,
      ${interpolated(0.9, 'lower_p90', 'upper_p90')} as p90_seconds,
      g.within_hour, g.hour_decided, g.within_day, g.day_decided
    from positioned g
    cross join picked p
    cross join lateral (
      select (t.times[4 * g.slot + 1] - (g.code << 32))::float8 as lower_median,
        (t.times[4 * g.slot + 2] - (g.code << 32))::float8 as upper_median,
        (t.times[4 * g.slot + 3] - (g.code << 32))::float8 as lower_p90,
        (t.times[4 * g.slot + 4] - (g.code << 32))::float8 as upper_p90
      from (select case g.dimension ${timesOf} end as times) t
    ) v`.execute(db);
  return rows;
}

/** The breakdown result without `meta`, from {@link responseBreakdownRows}, and how many listings had waits. */
export function toResponseBreakdown(
  rows: readonly BreakdownRow[],
): Omit<ResponseTimeBreakdown, 'meta'> & { listingCount: number } {
  const of = (dimension: BreakdownRow['dimension']) => rows.filter((row) => row.dimension === dimension);
  const listings = of('listing');
  const listingCount = Number(listings[0]?.listings ?? 0);
  return {
    overall: toResponseMeasures(of('overall')[0]),
    byChannel: of('channel')
      .sort((a, b) => ((a.channel ?? '') < (b.channel ?? '') ? -1 : 1))
      .map((row) => ({ channel: row.channel as Channel, ...toResponseMeasures(row) })),
    byStage: conversationStages.map((stage) => ({
      stage,
      ...toResponseMeasures(of('stage').find((row) => row.stage === stage)),
    })),
    byHour: Array.from({ length: 24 }, (_, hour) => ({
      hour,
      ...toResponseMeasures(of('hour').find((row) => Number(row.local_hour) === hour)),
    })),
    // Monday first, as ISO weeks run; local_weekday counts from Sunday = 0.
    byWeekday: [1, 2, 3, 4, 5, 6, 0].map((weekday) => ({
      weekday: weekdayNames[weekday] as string,
      ...toResponseMeasures(of('weekday').find((row) => Number(row.local_weekday) === weekday)),
    })),
    byListing: listings.map((row) => ({
      listingId: row.listing_id ?? '',
      listingName: row.listing_name ?? '',
      ...toResponseMeasures(row),
    })),
    listingsTruncated: listingCount > listings.length,
    listingCount,
  };
}
