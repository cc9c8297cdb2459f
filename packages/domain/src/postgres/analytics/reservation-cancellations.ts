import { sql } from 'kysely';
import type { z } from 'zod';
import type { AnalyticsPeriod } from '../../analytics/analytics-period.ts';
import { type NullReason, ratioOf } from '../../analytics/analytics-result.ts';
import type {
  CancellationStats,
  cancellationStatsInputSchema,
} from '../../analytics/reservation-cancellations.ts';
import { leadTimeBuckets } from '../../analytics/reservation-figures.ts';
import { toMajorUnits } from '../../core/money.ts';
import type { Channel } from '../../listings/listings.ts';
import type { Executor } from '../database.ts';
import { type AnalyticsScope, analyticsMeta, channelInScope, listingInScope } from './analytics-scope.ts';
import { checkInCohortTotals } from './check-in-cohort.ts';
import { summarize, toBuckets, toHistogram } from './reservation-histograms.ts';
import { accountToday, listingsWithToday } from './reservation-today.ts';

type CancellationInput = z.output<typeof cancellationStatsInputSchema>;

interface SplitRow {
  kind: 'currency' | 'cancelled_by' | 'channel' | 'cancel_lead' | 'booking_to_cancel' | 'open';
  key: string | null;
  value: number | null;
  cancelled: string;
  live: string;
  cancelled_nights: string;
  live_nights: string;
  cancelled_rent: string;
  live_rent: string;
}

/**
 * get_cancellation_stats: of the reservations due to check in during the period (or booked during it),
 * how many were cancelled rather than kept — by count, nights and rent as booked — who cancelled, on which
 * channel, and how long before the stay. Requests, inquiries, declined and expired reservations never were
 * bookings and are left out. The check-in cohort's counts come from {@link checkInCohortTotals}, the
 * definition the headline KPIs use.
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
  const { rows } = await sql<SplitRow>`
    with listing_today as materialized (${listingsWithToday(scope, now)}),
    cohort as (
      select r.status = 'cancelled' as cancelled, r.cancelled_by, r.channel, r.currency, r.nights,
        r.accommodation_minor, r.start_date, r.booked_on,
        case when r.status = 'cancelled' then (r.cancelled_at at time zone l.time_zone)::date end as cancelled_on,
        r.start_date >= l.today as still_ahead
      from reservations r
      join listing_today l on l.id = r.listing_id
      where r.account_id = ${scope.accountId}
        and r.status in ('accepted', 'cancelled')
        and ${inCohort}
        and ${listingInScope(scope, 'r.listing_id')}
        and ${channelInScope(scope, 'r.channel')}
    ),
    splits as (
      select
        case
          when grouping(currency) = 0 then 'currency'
          when grouping(cancelled_by) = 0 then 'cancelled_by'
          else 'channel'
        end as kind,
        coalesce(currency, cancelled_by, channel) as key, null::integer as value,
        count(*) filter (where cancelled) as cancelled, count(*) filter (where not cancelled) as live,
        coalesce(sum(nights) filter (where cancelled), 0) as cancelled_nights,
        coalesce(sum(nights) filter (where not cancelled), 0) as live_nights,
        coalesce(sum(accommodation_minor) filter (where cancelled), 0) as cancelled_rent,
        coalesce(sum(accommodation_minor) filter (where not cancelled), 0) as live_rent
      from cohort
      group by grouping sets ((currency), (cancelled_by), (channel))
    ),
    timings as (
      select case when grouping(start_date - cancelled_on) = 0 then 'cancel_lead' else 'booking_to_cancel' end,
        null::text, coalesce(start_date - cancelled_on, cancelled_on - booked_on),
        count(*), 0, 0, 0, 0, 0
      from cohort
      where cancelled
      group by grouping sets ((start_date - cancelled_on), (cancelled_on - booked_on))
    )
    select * from splits
    union all
    select * from timings
    union all
    select 'open', null, null, count(*) filter (where still_ahead and not cancelled), 0, 0, 0, 0, 0 from cohort`.execute(
    db,
  );

  const splits = (kind: SplitRow['kind']) =>
    rows.filter((row) => row.kind === kind && (kind !== 'cancelled_by' || row.key !== null));
  const currencyRows = splits('currency');
  const sumOf = (pick: (row: SplitRow) => string) =>
    currencyRows.reduce((sum, row) => sum + Number(pick(row)), 0);
  const cancelledNights = sumOf((row) => row.cancelled_nights);
  const liveNights = sumOf((row) => row.live_nights);
  let cancelled = sumOf((row) => row.cancelled);
  let live = sumOf((row) => row.live);
  if (cohort === 'check_in') {
    const [totals] = await checkInCohortTotals(db, scope, [period]);
    cancelled = totals?.cancelled ?? 0;
    live = (totals?.cancellable ?? 0) - cancelled;
  }
  const timing = (kind: 'cancel_lead' | 'booking_to_cancel') =>
    toHistogram(splits(kind).map((row) => ({ value: row.value ?? 0, count: row.cancelled })));
  const cancelLead = timing('cancel_lead');
  const stillAhead = Number(splits('open')[0]?.cancelled ?? 0);
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
      currencies: currencyRows.map((row) => row.key ?? ''),
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
    rent: currencyRows
      .map((row) => {
        const currency = row.key ?? '';
        const cancelledRent = Number(row.cancelled_rent);
        const liveRent = Number(row.live_rent);
        return {
          currency,
          cancelled: toMajorUnits(cancelledRent, currency),
          live: toMajorUnits(liveRent, currency),
          rate: ratioOf(cancelledRent, cancelledRent + liveRent),
        };
      })
      .sort((a, b) => (a.currency < b.currency ? -1 : 1)),
    byCancelledBy: (['guest', 'host', 'channel'] as const).map((cancelledBy) => {
      const row = splits('cancelled_by').find((entry) => entry.key === cancelledBy);
      const count = Number(row?.cancelled ?? 0);
      return {
        cancelledBy,
        reservations: count,
        nights: Number(row?.cancelled_nights ?? 0),
        share: ratioOf(count, cancelled),
      };
    }),
    byChannel: splits('channel')
      .map((row) => {
        const channelCancelled = Number(row.cancelled);
        const channelLive = Number(row.live);
        return {
          channel: row.key as Channel,
          cancelled: channelCancelled,
          live: channelLive,
          rate: ratioOf(channelCancelled, channelCancelled + channelLive),
        };
      })
      .sort((a, b) => (a.channel < b.channel ? -1 : 1)),
    cancellationLeadTime: { ...summarize(cancelLead), buckets: toBuckets(cancelLead, leadTimeBuckets) },
    bookingToCancellation: summarize(timing('booking_to_cancel')),
    final,
    nullReasons,
  };
}
