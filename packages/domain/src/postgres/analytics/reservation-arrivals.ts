import { sql } from 'kysely';
import type { z } from 'zod';
import type { Granularity } from '../../analytics/analytics-filters.ts';
import {
  type AnalyticsPeriod,
  bucketStart,
  periodBuckets,
  periodNights,
} from '../../analytics/analytics-period.ts';
import {
  type CheckInsCheckOuts,
  type checkInsCheckOutsInputSchema,
  maxDailyArrivalNights,
  maxListedArrivals,
} from '../../analytics/reservation-arrivals.ts';
import type { Channel } from '../../listings/listings.ts';
import type { Executor } from '../database.ts';
import { type AnalyticsScope, analyticsMeta, channelInScope, listingInScope } from './analytics-scope.ts';
import { dailyHolding } from './reservation-daily.ts';
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
 * first night or a stayover, so stayovers = stays holding the day's night − arrivals; the days come from one
 * pass over the stays touching the period ({@link dailyHolding}).
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
  const stays = sql`(
    select r.start_date, r.start_date + r.nights as end_date
    from reservations r
    where r.account_id = ${scope.accountId}
      and r.status = 'accepted'
      and ${touchesPeriod(period, longestStay)}
      and ${listingInScope(scope, 'r.listing_id')}
      and ${channelInScope(scope, 'r.channel')}
  )`;
  const { rows } = await sql<MovementRow>`
    select day, starts as arrivals, ends as departures, holding - starts as stayovers
    from ${dailyHolding(stays, period)} daily`.execute(db);

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
