import type { Channel } from '@innkeep/domain';
import { toMajorUnits } from '@innkeep/domain';
import type {
  AnalyticsPeriod,
  CancellationStats,
  cancellationStatsInputSchema,
} from '@innkeep/domain/analytics';
import { leadTimeBuckets, type NullReason, ratioOf } from '@innkeep/domain/analytics';
import { type RawBuilder, sql } from 'kysely';
import type { z } from 'zod';
import type { Executor } from '../database.ts';
import { type AnalyticsScope, analyticsMeta, channelInScope, listingInScope } from './analytics-scope.ts';
import { listingTodayRange } from './listing-today-range.ts';
import { summarize, toBuckets, toHistogram } from './reservation-histograms.ts';
import { accountToday } from './reservation-today.ts';
import { wholeMonthsOf } from './sold-nights.ts';

type CancellationInput = z.output<typeof cancellationStatsInputSchema>;

interface CancellationRow {
  kind: 'split' | 'cancel_lead' | 'booking_to_cancel' | 'open';
  currency: string | null;
  channel: Channel | null;
  cancelled_by: 'guest' | 'host' | 'channel' | null;
  value: number | null;
  reservations: string;
  nights: string;
  rent: string;
}

/** Cancelled and live counts, nights and rent of one slice of the cohort. */
interface SplitTotals {
  cancelled: number;
  live: number;
  cancelledNights: number;
  liveNights: number;
  cancelledRent: number;
  liveRent: number;
}

/**
 * get_cancellation_stats: of the reservations due to check in during the period (or booked during it),
 * how many were cancelled rather than kept — by count, nights and rent as booked — who cancelled, on which
 * channel, and how long before the stay. Requests, inquiries, declined and expired reservations never were
 * bookings and are left out. The check-in cohort is the one `checkInCohortTotals` defines (accepted or
 * cancelled, check-in in the period), so the counts match the headline KPIs' cancellation rate.
 */
export async function cancellationStats(
  db: Executor,
  scope: AnalyticsScope,
  input: CancellationInput,
  now: Date,
): Promise<CancellationStats> {
  const period: AnalyticsPeriod = { startDate: input.startDate, endDate: input.endDate };
  const cohort = input.cohort ?? 'check_in';
  const inCohort =
    cohort === 'check_in'
      ? sql<boolean>`r.start_date between ${period.startDate}::date and ${period.endDate}::date`
      : sql<boolean>`r.booked_on between ${period.startDate}::date and ${period.endDate}::date`;
  const inScope = sql<boolean>`r.account_id = ${scope.accountId}
    and ${inCohort}
    and ${listingInScope(scope, 'r.listing_id')}
    and ${channelInScope(scope, 'r.channel')}`;
  const { earliest } = listingTodayRange(now);
  // Three reads of covering indexes rather than one pass joining every reservation to its listing: the
  // splits need no listing (and mostly come from the monthly roll-up), only cancellations need their
  // listing's time zone (for the local cancellation date; a partial index holds just them), and only stays
  // checking in on or after the earliest listing today can still be ahead.
  const { rows } = await sql<CancellationRow>`
    with cancellations as (
      select r.start_date, r.booked_on, (r.cancelled_at at time zone l.time_zone)::date as cancelled_on
      from reservations r
      join listings l on l.id = r.listing_id and l.account_id = ${scope.accountId}
      where ${inScope} and r.status = 'cancelled'
    )
    ${cohort === 'check_in' && scope.listingIds === null ? splitsByMonth(scope, period, inScope) : splitsOf(inScope)}
    union all
    select case when grouping(start_date - cancelled_on) = 0 then 'cancel_lead' else 'booking_to_cancel' end,
      null, null, null, coalesce(start_date - cancelled_on, cancelled_on - booked_on), count(*), 0, 0
    from cancellations
    group by grouping sets ((start_date - cancelled_on), (cancelled_on - booked_on))
    union all
    select 'open', null, null, null, null, count(*), 0, 0
    from reservations r
    join listings l on l.id = r.listing_id and l.account_id = ${scope.accountId}
    where ${inScope} and r.status = 'accepted'
      and r.start_date >= ${earliest}::date
      and r.start_date >= (${now.toISOString()}::timestamptz at time zone l.time_zone)::date`.execute(db);

  const splitRows = rows.filter((row) => row.kind === 'split');
  const totalsBy = (key: (row: CancellationRow) => string | null) => {
    const totals = new Map<string, SplitTotals>();
    for (const row of splitRows) {
      const name = key(row);
      if (name === null) continue;
      const entry = totals.get(name) ?? {
        cancelled: 0,
        live: 0,
        cancelledNights: 0,
        liveNights: 0,
        cancelledRent: 0,
        liveRent: 0,
      };
      // Every cancellation names who cancelled, and no live reservation does.
      if (row.cancelled_by === null) {
        entry.live += Number(row.reservations);
        entry.liveNights += Number(row.nights);
        entry.liveRent += Number(row.rent);
      } else {
        entry.cancelled += Number(row.reservations);
        entry.cancelledNights += Number(row.nights);
        entry.cancelledRent += Number(row.rent);
      }
      totals.set(name, entry);
    }
    return totals;
  };
  const byCurrency = totalsBy((row) => row.currency);
  const byCancelledBy = totalsBy((row) => row.cancelled_by);
  const byChannel = totalsBy((row) => row.channel);
  const sumOf = (pick: (totals: SplitTotals) => number) =>
    [...byCurrency.values()].reduce((sum, totals) => sum + pick(totals), 0);
  const cancelledNights = sumOf((totals) => totals.cancelledNights);
  const liveNights = sumOf((totals) => totals.liveNights);
  const cancelled = sumOf((totals) => totals.cancelled);
  const live = sumOf((totals) => totals.live);
  const timing = (kind: 'cancel_lead' | 'booking_to_cancel') =>
    toHistogram(
      rows
        .filter((row) => row.kind === kind)
        .map((row) => ({ value: row.value ?? 0, count: row.reservations })),
    );
  const cancelLead = timing('cancel_lead');
  const stillAhead = Number(rows.find((row) => row.kind === 'open')?.reservations ?? 0);
  const { today } = await accountToday(db, scope.accountId, now);
  const final = stillAhead === 0 && period.endDate < today;

  const nullReasons: Record<string, NullReason> = {};
  if (cancelled + live === 0) {
    nullReasons['reservations.rate'] = 'no_reservations';
    nullReasons['nights.rate'] = 'no_reservations';
  }
  if (cancelled === 0) {
    for (const field of [
      'cancellationLeadTime.mean',
      'cancellationLeadTime.median',
      'bookingToCancellation.mean',
      'bookingToCancellation.median',
    ])
      nullReasons[field] = 'no_reservations';
  }

  return {
    meta: analyticsMeta(scope, period, {
      basis: cohort === 'check_in' ? 'check_in' : 'booking_date',
      definitions: ['cancellation_rate', 'live_statuses', 'local_dates', 'currency_policy', 'ratio_of_sums'],
      currencies: [...byCurrency.keys()],
      notes: final
        ? []
        : [
            'Not final: some of these stays have not begun yet (or the period has not ended), so more can ' +
              'still be cancelled.',
          ],
    }),
    cohort,
    reservations: { cancelled, live, rate: ratioOf(cancelled, cancelled + live) },
    nights: {
      cancelled: cancelledNights,
      live: liveNights,
      rate: ratioOf(cancelledNights, cancelledNights + liveNights),
    },
    rent: [...byCurrency]
      .map(([currency, totals]) => ({
        currency,
        cancelled: toMajorUnits(totals.cancelledRent, currency),
        live: toMajorUnits(totals.liveRent, currency),
        rate: ratioOf(totals.cancelledRent, totals.cancelledRent + totals.liveRent),
      }))
      .sort((a, b) => (a.currency < b.currency ? -1 : 1)),
    byCancelledBy: (['guest', 'host', 'channel'] as const).map((cancelledBy) => {
      const totals = byCancelledBy.get(cancelledBy);
      const count = totals?.cancelled ?? 0;
      return {
        cancelledBy,
        reservations: count,
        nights: totals?.cancelledNights ?? 0,
        share: ratioOf(count, cancelled),
      };
    }),
    byChannel: [...byChannel]
      .map(([channel, totals]) => ({
        channel: channel as Channel,
        cancelled: totals.cancelled,
        live: totals.live,
        rate: ratioOf(totals.cancelled, totals.cancelled + totals.live),
      }))
      .sort((a, b) => (a.channel < b.channel ? -1 : 1)),
    cancellationLeadTime: { ...summarize(cancelLead), buckets: toBuckets(cancelLead, leadTimeBuckets) },
    bookingToCancellation: summarize(timing('booking_to_cancel')),
    final,
    nullReasons,
  };
}

/** The `split` rows of {@link cancellationStats}: the cohort grouped by currency, channel and who cancelled. */
function splitsOf(inScope: RawBuilder<boolean>): RawBuilder<unknown> {
  return sql`
    select 'split' as kind, r.currency, r.channel, r.cancelled_by, null::integer as value,
      count(*) as reservations, sum(r.nights) as nights, sum(r.accommodation_minor) as rent
    from reservations r
    where ${inScope} and r.status in ('accepted', 'cancelled')
    group by r.currency, r.channel, r.cancelled_by`;
}

/**
 * {@link splitsOf} for a check-in cohort of every listing: the period's whole months come from
 * `reservation_month_facts` (a few hundred rows a year where the reservations are about 100,000), and only
 * the days before its first and after its last whole month from the reservations. The roll-up is per
 * account, so a listing or group filter reads the reservations alone; a channel filter is one of its keys.
 */
function splitsByMonth(
  scope: AnalyticsScope,
  period: AnalyticsPeriod,
  inScope: RawBuilder<boolean>,
): RawBuilder<unknown> {
  const { firstWholeMonth, afterWholeMonths } = wholeMonthsOf(period);
  // Two edge reads rather than one with `or`, so each stays a range of the covering index.
  return sql`
    select 'split' as kind, currency, channel, cancelled_by, null::integer as value,
      sum(reservations) as reservations, sum(nights) as nights, sum(rent) as rent
    from (
      select f.currency, f.channel, nullif(f.cancelled_by, '') as cancelled_by, f.reservations, f.nights,
        f.rent_minor as rent
      from reservation_month_facts f
      where f.account_id = ${scope.accountId}
        and f.month >= ${firstWholeMonth}::date and f.month < ${afterWholeMonths}::date
        and f.status in ('accepted', 'cancelled') and f.reservations <> 0
        and ${channelInScope(scope, 'f.channel')}
      union all
      select r.currency, r.channel, r.cancelled_by, count(*), sum(r.nights), sum(r.accommodation_minor)
      from reservations r
      where ${inScope} and r.status in ('accepted', 'cancelled') and r.start_date < ${firstWholeMonth}::date
      group by r.currency, r.channel, r.cancelled_by
      union all
      select r.currency, r.channel, r.cancelled_by, count(*), sum(r.nights), sum(r.accommodation_minor)
      from reservations r
      where ${inScope} and r.status in ('accepted', 'cancelled') and r.start_date >= ${afterWholeMonths}::date
      group by r.currency, r.channel, r.cancelled_by
    ) split
    group by currency, channel, cancelled_by`;
}
