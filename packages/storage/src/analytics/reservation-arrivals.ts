import type { Channel } from '@innkeep/domain';
import { addDays } from '@innkeep/domain';
import type { Granularity } from '@innkeep/domain/analytics';
import {
  type AnalyticsPeriod,
  bucketStart,
  type CheckInsCheckOuts,
  type checkInsCheckOutsInputSchema,
  maxDailyArrivalNights,
  maxListedArrivals,
  periodBuckets,
  periodNights,
} from '@innkeep/domain/analytics';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Executor } from '../database.ts';
import { type AnalyticsScope, analyticsMeta, channelInScope, listingInScope } from './analytics-scope.ts';
import { canCountByMonthFacts, monthlyMovements } from './reservation-month-movements.ts';
import { longestStayNights, touchesPeriod } from './reservation-stays.ts';

type ArrivalsInput = z.output<typeof checkInsCheckOutsInputSchema>;

interface MovementRow {
  day: string;
  arrivals: number;
  departures: number;
  stayovers: number;
}

/**
 * get_check_ins_check_outs: per bucket, accepted stays checking in (arrivals) and out (departures), and
 * stayovers — the stay-days with check-in < day < check-out. A night held by a stay is either its arrival's
 * first night or a stayover, so stayovers = stays holding the day's night − arrivals ({@link dailyMovements}).
 * Whole months of every listing are read from the derived facts instead ({@link monthlyMovements}): the same
 * figures without counting a year of stays one by one.
 */
export async function checkInsCheckOuts(
  db: Executor,
  scope: AnalyticsScope,
  input: ArrivalsInput,
): Promise<CheckInsCheckOuts> {
  const period: AnalyticsPeriod = { startDate: input.startDate, endDate: input.endDate };
  const granularity: Granularity =
    input.granularity ?? (periodNights(period) <= maxDailyArrivalNights ? 'day' : 'month');
  const longestStay = await longestStayNights(db, scope.accountId);
  const rows = canCountByMonthFacts(scope, period, granularity)
    ? await monthlyMovements(db, scope, period)
    : await dailyMovements(db, scope, period, longestStay);

  const rowsByBucket = new Map<string, MovementRow[]>();
  for (const row of rows) {
    const key = bucketStart(row.day, granularity);
    const bucket = rowsByBucket.get(key);
    if (bucket === undefined) rowsByBucket.set(key, [row]);
    else bucket.push(row);
  }
  const series = periodBuckets(period, granularity).map((bucket) => {
    const inBucket = rowsByBucket.get(bucketStart(bucket.startDate, granularity)) ?? [];
    const sum = (pick: (row: MovementRow) => number) =>
      inBucket.reduce((total, row) => total + Number(pick(row)), 0);
    return {
      ...bucket,
      arrivals: sum((row) => row.arrivals),
      departures: sum((row) => row.departures),
      stayovers: sum((row) => row.stayovers),
    };
  });
  const total = (pick: (bucket: (typeof series)[number]) => number) =>
    series.reduce((sum, bucket) => sum + pick(bucket), 0);
  const listed =
    input.listReservations === true ? await movingReservations(db, scope, period, longestStay) : null;

  const notes: string[] = [];
  if (input.granularity === undefined && granularity === 'month') {
    notes.push(
      `Periods over ${maxDailyArrivalNights} nights default to monthly buckets; ask for week or month.`,
    );
  }
  if (series.some((bucket) => bucket.partial)) notes.push('The first or last bucket is cut by the period.');
  if (listed?.truncated) {
    notes.push(
      `Listed the first ${maxListedArrivals} reservations; narrow the period or the listings for the rest.`,
    );
  }

  return {
    meta: analyticsMeta(scope, period, {
      basis: 'calendar_date',
      definitions: ['check_ins_check_outs', 'live_statuses', 'local_dates', 'timeseries_buckets'],
      notes,
    }),
    granularity,
    totals: {
      arrivals: total((bucket) => bucket.arrivals),
      departures: total((bucket) => bucket.departures),
      stayovers: total((bucket) => bucket.stayovers),
    },
    series,
    reservations: listed?.items ?? null,
    truncated: listed?.truncated ?? false,
  };
}

/** Accepted stays arriving or leaving during the period, by the first such date, bounded. */
async function movingReservations(
  db: Executor,
  scope: AnalyticsScope,
  period: AnalyticsPeriod,
  longestStay: number,
): Promise<{ items: NonNullable<CheckInsCheckOuts['reservations']>; truncated: boolean }> {
  const { rows } = await sql<{
    id: string;
    listing_id: string;
    listing_name: string;
    guest_first_name: string;
    start_date: string;
    end_date: string;
    guests: number;
    channel: Channel;
  }>`
    select r.id, r.listing_id, l.name as listing_name, r.guest_first_name, r.start_date, r.end_date,
      r.adults + r.children as guests, r.channel
    from reservations r
    join listings l on l.id = r.listing_id
    where r.account_id = ${scope.accountId}
      and r.status = 'accepted'
      and ${touchesPeriod(period, longestStay)}
      and (r.start_date >= ${period.startDate}::date or r.end_date <= ${period.endDate}::date)
      and ${listingInScope(scope, 'r.listing_id')}
      and ${channelInScope(scope, 'r.channel')}
    order by case when r.start_date >= ${period.startDate}::date then r.start_date else r.end_date end,
      l.name, r.id
    limit ${maxListedArrivals + 1}`.execute(db);
  return {
    items: rows.slice(0, maxListedArrivals).map((row) => ({
      reservationId: row.id,
      listingId: row.listing_id,
      listingName: row.listing_name,
      guestFirstName: row.guest_first_name,
      startDate: row.start_date,
      endDate: row.end_date,
      guests: Number(row.guests),
      channel: row.channel,
    })),
    truncated: rows.length > maxListedArrivals,
  };
}

/**
 * Every day of the period with its arrivals, departures and stayovers. The stays holding a day's night are
 * those that arrived before the period and had not left by its first day, plus the arrivals up to that day,
 * less the departures up to it. Arrivals per day and departures per day are each one index-only range read
 * in date order (`reservations_accepted_check_in`, `reservations_account_check_out`), counted as they stream
 * by, so a year of stays is never hashed or sorted; only the stays arriving in the longest stay before the
 * period are read for the carried-over count.
 */
async function dailyMovements(
  db: Executor,
  scope: AnalyticsScope,
  period: AnalyticsPeriod,
  longestStay: number,
): Promise<MovementRow[]> {
  const inScope = sql`r.account_id = ${scope.accountId} and r.status = 'accepted'
    and ${listingInScope(scope, 'r.listing_id')} and ${channelInScope(scope, 'r.channel')}`;
  const { rows } = await sql<MovementRow>`
    with arrivals as (
      select r.start_date as day, count(*)::integer as stays
      from reservations r
      where ${inScope} and r.start_date between ${period.startDate}::date and ${period.endDate}::date
      group by r.start_date
    ),
    departures as (
      select r.end_date as day, count(*)::integer as stays
      from reservations r
      where ${inScope} and r.end_date between ${period.startDate}::date and ${period.endDate}::date
      group by r.end_date
    ),
    carried_over as (
      -- leaving on the first day or later: one who leaves that day is subtracted with its departures
      select count(*)::integer as stays
      from reservations r
      where ${inScope}
        and r.start_date between ${addDays(period.startDate, -longestStay)}::date
          and ${addDays(period.startDate, -1)}::date
        and r.start_date + r.nights >= ${period.startDate}::date
    )
    select d.day::date as day, coalesce(a.stays, 0) as arrivals, coalesce(e.stays, 0) as departures,
      (select stays from carried_over)
        + (sum(coalesce(a.stays, 0) - coalesce(e.stays, 0)) over (order by d.day))::integer
        - coalesce(a.stays, 0) as stayovers
    from generate_series(${period.startDate}::date, ${period.endDate}::date, interval '1 day') as d (day)
    left join arrivals a on a.day = d.day::date
    left join departures e on e.day = d.day::date`.execute(db);
  return rows;
}
