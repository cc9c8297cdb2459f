import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { AnalyticsPeriod } from '../../analytics/analytics-period.ts';
import { type NullReason, ratioOf } from '../../analytics/analytics-result.ts';
import {
  conversationStages,
  type ResponseMeasures,
  type ResponseTimeBreakdown,
} from '../../analytics/response-time-stats.ts';
import { weekdayNames } from '../../core/dates.ts';
import type { Channel } from '../../listings/listings.ts';
import type { Database, Executor } from '../database.ts';
import { type AnalyticsScope, channelInScope, listingInScope } from './analytics-scope.ts';
import { withAnalyticsSettings } from './guest-query-settings.ts';

const hourSeconds = 3_600;
const daySeconds = 86_400;

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
  const seconds = selection.countAutomatedReplies
    ? sql`least(w.response_seconds, w.automated_seconds)`
    : sql`w.response_seconds`;
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
  const hourAgo = new Date(now.getTime() - hourSeconds * 1000);
  const dayAgo = new Date(now.getTime() - daySeconds * 1000);
  return sql`
    count(*)::bigint as waits,
    count(w.seconds)::bigint as answered,
    percentile_cont(0.5) within group (order by w.seconds) as median_seconds,
    avg(w.seconds) as mean_seconds,
    percentile_cont(0.9) within group (order by w.seconds) as p90_seconds,
    count(*) filter (where w.seconds <= ${hourSeconds}::integer)::bigint as within_hour,
    count(*) filter (where w.seconds is not null or w.guest_message_at <= ${hourAgo})::bigint as hour_decided,
    count(*) filter (where w.seconds <= ${daySeconds}::integer)::bigint as within_day,
    count(*) filter (where w.seconds is not null or w.guest_message_at <= ${dayAgo})::bigint as day_decided`;
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
  /** Listings with waits, whatever `listingLimit` keeps. */
  listings: number;
}

/** The columns waits are broken down by. */
const dimensionColumns = {
  channel: sql`w.channel`,
  stage: sql`w.stage`,
  hour: sql`w.local_hour`,
  weekday: sql`w.local_weekday`,
  listing: sql`w.listing_id`,
} as const;
type Dimension = keyof typeof dimensionColumns;

/**
 * The measures overall and per channel, stage, listing-local hour and weekday, and listing, in one statement:
 * reading the period's waits is most of the cost, and one pass feeds every dimension's sorted groups (three
 * statements side by side read them three times and contend for the same cores). Only the `listingLimit`
 * slowest listings (by median; those with no answer at all first) come back.
 */
export async function responseBreakdownRows(
  db: Kysely<Database>,
  selection: WaitSelection,
  listingLimit: number,
): Promise<BreakdownRow[]> {
  return withAnalyticsSettings(db, (trx) => breakdownRows(trx, selection, listingLimit));
}

async function breakdownRows(
  db: Executor,
  selection: WaitSelection,
  listingLimit: number,
): Promise<BreakdownRow[]> {
  const dimensions = Object.keys(dimensionColumns) as Dimension[];
  const sets = [sql`()`, ...dimensions.map((dimension) => sql`(${dimensionColumns[dimension]})`)];
  const label = sql.join(
    dimensions.map((dimension) => sql`when grouping(${dimensionColumns[dimension]}) = 0 then ${dimension}`),
    sql` `,
  );
  const { rows } = await sql<BreakdownRow & { listing_rank: number }>`
    with measured as (
      select case ${label} else 'overall' end as dimension,
        w.channel, w.stage, w.local_hour, w.local_weekday, w.listing_id,
        ${responseMeasureColumns(selection.now)}
      ${selectedWaits(selection)}
      group by grouping sets (${sql.join(sets)})
    ),
    ranked as (
      select m.*,
        count(*) filter (where m.dimension = 'listing') over () as listings,
        row_number() over (
          partition by m.dimension order by m.median_seconds desc nulls first, m.waits desc, m.listing_id
        ) as listing_rank
      from measured m
    )
    select r.*, l.name as listing_name
    from ranked r
    left join listings l on l.id collate "C" = r.listing_id
    where r.dimension <> 'listing' or r.listing_rank <= ${listingLimit}::integer
    order by r.dimension, r.listing_rank`.execute(db);
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
