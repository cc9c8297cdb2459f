import { addDays, dayOfWeek, type LocalDate } from '@innkeep/domain';
import type {
  BookingPatternStats,
  bookingPatternStatsInputSchema,
  NullReason,
} from '@innkeep/domain/analytics';
import {
  type AnalyticsPeriod,
  leadTimeBuckets,
  ratioOf,
  stayLengthBuckets,
  weekdays,
} from '@innkeep/domain/analytics';
import { type RawBuilder, sql } from 'kysely';
import type { z } from 'zod';
import type { Executor } from '../database.ts';
import { type AnalyticsScope, analyticsMeta, channelInScope, listingInScope } from './analytics-scope.ts';
import { activeSince } from './performance-supply.ts';
import { summarize, toBuckets, toHistogram, toWeekdayCounts } from './reservation-histograms.ts';
import { longestStayNights } from './reservation-stays.ts';
import { wholeMonthsOf } from './sold-nights.ts';

type PatternInput = z.output<typeof bookingPatternStatsInputSchema>;

/** The histograms {@link bookingPatternCounts} returns, each as rows of value and count. */
type CountKind =
  | 'booking_weekday'
  | 'check_in_weekday'
  | 'lead_days'
  | 'nights'
  | 'guests'
  | 'booked_nights'
  | 'blocked_nights'
  | 'calendar_nights';

/**
 * get_booking_pattern_stats: how the period's check-in cohort (accepted stays checking in during it) was
 * booked — weekdays, lead times, stay lengths, party sizes — and occupancy per weekday of the stay night.
 * Everything comes from one statement ({@link bookingPatternCounts}); check-ins, ALOS and the lead-time mean
 * and median are read off its histograms of the same cohort the headline KPIs count (`checkInCohortTotals`).
 */
export async function bookingPatternStats(
  db: Executor,
  scope: AnalyticsScope,
  input: PatternInput,
): Promise<BookingPatternStats> {
  const period: AnalyticsPeriod = { startDate: input.startDate, endDate: input.endDate };
  const counts = await bookingPatternCounts(db, scope, period);
  const histogram = (kind: CountKind) => toHistogram(counts.filter((row) => row.kind === kind));
  const weekdayRows = (kind: CountKind) =>
    histogram(kind).map((entry) => ({ isoWeekday: entry.value, count: entry.count }));

  const leadDays = summarize(histogram('lead_days'));
  const stayNights = summarize(histogram('nights'));
  const guests = histogram('guests');
  // Every stay has a party size, so the party-size histogram counts the whole cohort.
  const checkIns = guests.reduce((sum, entry) => sum + entry.count, 0);
  const occupancyByWeekday = weekdayOccupancy(
    weekdayRows('calendar_nights'),
    weekdayRows('booked_nights'),
    weekdayRows('blocked_nights'),
  );

  const nullReasons: Record<string, NullReason> = {};
  if (checkIns === 0) {
    for (const field of [
      'leadTime.mean',
      'leadTime.median',
      'lengthOfStay.mean',
      'lengthOfStay.median',
      'guests.mean',
    ])
      nullReasons[field] = 'no_reservations';
  }
  for (const day of occupancyByWeekday) {
    if (day.occupancy === null)
      nullReasons[`occupancyByWeekday.${day.weekday}.occupancy`] = 'no_available_nights';
  }

  return {
    meta: analyticsMeta(scope, period, {
      basis: 'check_in',
      definitions: [
        'booking_patterns',
        'alos',
        'lead_time',
        'live_statuses',
        'local_dates',
        'available_nights',
      ],
      notes: [
        'The cohort is the accepted stays checking in during the period; occupancy by weekday counts every ' +
          'accepted night in the period instead.',
      ],
    }),
    checkIns,
    bookingWeekday: toWeekdayCounts(weekdayRows('booking_weekday')),
    checkInWeekday: toWeekdayCounts(weekdayRows('check_in_weekday')),
    leadTime: {
      ...leadDays,
      buckets: toBuckets(histogram('lead_days'), leadTimeBuckets),
    },
    lengthOfStay: {
      ...stayNights,
      buckets: toBuckets(histogram('nights'), stayLengthBuckets),
    },
    guests: {
      mean: summarize(guests).mean,
      sizes: guests.map((entry) => ({
        guests: entry.value,
        count: entry.count,
        share: ratioOf(entry.count, checkIns),
      })),
    },
    occupancyByWeekday,
    nullReasons,
  };
}

/**
 * Every count the tool reports, in one statement, as rows of (kind, value, count) summed over three sources:
 *
 * - The calendar months wholly inside the period, across every listing: the cohort's weekdays, stay lengths
 *   and party sizes, and the booked nights per weekday, from the monthly roll-up `booking_pattern_facts`;
 *   its lead times from `check_in_month_facts`. A year is a few thousand roll-up rows, however many
 *   check-ins it holds.
 * - The days at either end of the period (all of it with a listing or group filter, since the roll-ups have
 *   no listing), from the accepted stays ({@link edgeStays}), grouped in one pass by two grouping sets:
 *   (window, check-in date, nights) and (check-in weekday, lead days, party size). Every cohort histogram is
 *   a sum over one of them; booking weekday is the check-in weekday moved back by the lead time.
 * - Calendar and blocked nights per ISO weekday, and the edge days' booked nights: each listing's nights
 *   since it became active, block or stay is clipped to the period or its edge window (and blocks to the
 *   listing's active nights), a run of nights starting on some weekday; runs are counted by (first weekday,
 *   length), and a run of n nights holds n / 7 nights of every weekday plus one of each of the n mod 7
 *   weekdays it starts with. Nights are never expanded one by one.
 *
 * Weekdays are days since a Monday (`monday`, on or before the period start) mod 7, plus 1: integer
 * arithmetic instead of a calendar lookup per row.
 */
async function bookingPatternCounts(
  db: Executor,
  scope: AnalyticsScope,
  period: AnalyticsPeriod,
): Promise<{ kind: CountKind; value: number; count: number }[]> {
  const longestStay = await longestStayNights(db, scope.accountId);
  const periodStart = sql`${period.startDate}::date`;
  const dayAfter = addDays(period.endDate, 1);
  const periodEnd = sql`${dayAfter}::date`;
  const monday = sql`${addDays(period.startDate, -((dayOfWeek(period.startDate) + 6) % 7))}::date`;
  // The roll-ups are per account: a listing or group filter reads every day from the reservations.
  const { firstWholeMonth, afterWholeMonths } =
    scope.listingIds === null
      ? wholeMonthsOf(period)
      : { firstWholeMonth: dayAfter, afterWholeMonths: dayAfter };
  const edgeWindows = [
    { from: period.startDate, until: firstWholeMonth },
    { from: afterWholeMonths, until: dayAfter },
  ].filter((window) => window.from < window.until);
  const { rows } = await sql<{ kind: CountKind; value: number; count: number | string }>`
    -- Not materialized: inlined, each use is planned with the listings' statistics (the blocks below then
    -- hash-join the few late listings, where a materialized list was sorted for a merge join).
    with active as not materialized (
      select l.id, ${activeSince('l')} as since from listings l
      where l.account_id = ${scope.accountId} and ${listingInScope(scope, 'l.id')}
    ),
    edge_stays as (${edgeStays(scope, edgeWindows, monday, longestStay)}),
    edge_groups as (
      select grouping(window_start) = 0 as by_stay, window_start, window_end, start_date, nights,
        check_in_weekday, lead_days, guests, count(*) as stays
      from edge_stays
      group by grouping sets (
        (window_start, window_end, start_date, nights),
        (check_in_weekday, lead_days, guests)
      )
    ),
    edge_cohort as (
      select check_in_weekday, lead_days, guests, stays from edge_groups
      where not by_stay and check_in_weekday is not null
    ),
    runs as (
      select 'booked_nights' as kind, greatest(start_date, window_start) as first_night,
        least(start_date + nights, window_end) - greatest(start_date, window_start) as nights, stays
      from edge_groups
      where by_stay
      union all
      select 'blocked_nights', greatest(lower(h.nights), ${periodStart}, coalesce(late.since, ${periodStart})),
        least(upper(h.nights), ${periodEnd})
          - greatest(lower(h.nights), ${periodStart}, coalesce(late.since, ${periodStart})), 1
      from calendar_holds h
      -- Only a listing that became active after the period began has blocked nights in it before it did:
      -- joining just those few spares every block a time-zone conversion.
      left join active late on late.id = h.listing_id and late.since > ${periodStart}
      where h.account_id = ${scope.accountId}
        and h.kind = 'block'
        and h.nights && daterange(${periodStart}, ${periodEnd})
        and (late.since is null or upper(h.nights) > late.since)
        and ${listingInScope(scope, 'h.listing_id')}
      union all
      select 'calendar_nights', greatest(a.since, ${periodStart}),
        ${periodEnd} - greatest(a.since, ${periodStart}), 1
      from active a
      where a.since < ${periodEnd}
    ),
    run_lengths as (
      select kind, mod(first_night - ${monday}, 7) + 1 as first_weekday, nights, sum(stays) as runs
      from runs
      group by 1, 2, 3
    )
    select kind, value, sum(count) as count
    from (
      select f.kind, f.value, sum(f.tally) as count
      from booking_pattern_facts f
      where f.account_id = ${scope.accountId}
        and f.month >= ${firstWholeMonth}::date and f.month < ${afterWholeMonths}::date
        and ${channelInScope(scope, 'f.channel')}
      group by 1, 2
      union all
      select 'lead_days', c.lead_days, sum(c.reservations)
      from check_in_month_facts c
      where c.account_id = ${scope.accountId}
        and c.month >= ${firstWholeMonth}::date and c.month < ${afterWholeMonths}::date
        and c.live
        and ${channelInScope(scope, 'c.channel')}
      group by 2
      union all
      select 'check_in_weekday', check_in_weekday, stays from edge_cohort
      union all
      select 'booking_weekday', mod(mod(check_in_weekday - 1 - lead_days, 7) + 7, 7) + 1, stays from edge_cohort
      union all
      select 'lead_days', lead_days, stays from edge_cohort
      union all
      select 'guests', guests, stays from edge_cohort
      union all
      select 'nights', nights, stays from edge_groups where by_stay and start_date >= window_start
      union all
      select l.kind, w.weekday,
        l.runs * (l.nights / 7 + (mod(w.weekday - l.first_weekday + 7, 7) < mod(l.nights, 7))::integer)
      from run_lengths l
      cross join generate_series(1, 7) as w (weekday)
    ) counts
    group by kind, value`.execute(db);
  return rows.map((row) => ({ kind: row.kind, value: Number(row.value), count: Number(row.count) }));
}

/**
 * The accepted stays in scope that hold nights of each edge window `[from, until)`, with the window's
 * bounds: those checking in during it with their check-in weekday, lead days and party size (the cohort),
 * and those checking in before it with nulls there (occupancy only). Each select reads one check-in range
 * of `reservations_accepted_check_in`; without windows, no rows.
 */
function edgeStays(
  scope: AnalyticsScope,
  windows: readonly { from: LocalDate; until: LocalDate }[],
  monday: RawBuilder<unknown>,
  longestStay: number,
): RawBuilder<unknown> {
  if (windows.length === 0) {
    return sql`
      select null::date as window_start, null::date as window_end, null::date as start_date,
        null::integer as nights, null::integer as check_in_weekday, null::integer as lead_days,
        null::integer as guests
      where false`;
  }
  const inScope = sql`r.account_id = ${scope.accountId}
    and r.status = 'accepted'
    and ${listingInScope(scope, 'r.listing_id')}
    and ${channelInScope(scope, 'r.channel')}`;
  return sql.join(
    windows.map(
      ({ from, until }) => sql`
        select ${from}::date as window_start, ${until}::date as window_end, r.start_date, r.nights,
          mod(r.start_date - ${monday}, 7) + 1 as check_in_weekday, r.start_date - r.booked_on as lead_days,
          r.adults + r.children as guests
        from reservations r
        where ${inScope} and r.start_date >= ${from}::date and r.start_date < ${until}::date
        union all
        select ${from}::date, ${until}::date, r.start_date, r.nights, null, null, null
        from reservations r
        where ${inScope}
          and r.start_date between ${addDays(from, -longestStay)}::date and ${addDays(from, -1)}::date
          and r.start_date + r.nights > ${from}::date`,
    ),
    sql` union all `,
  );
}

/**
 * Booked and available nights per weekday: supply is each listing's nights on that weekday since it became
 * active, minus the blocked ones.
 */
function weekdayOccupancy(
  calendar: readonly { isoWeekday: number; count: number }[],
  booked: readonly { isoWeekday: number; count: number }[],
  blocked: readonly { isoWeekday: number; count: number }[],
): BookingPatternStats['occupancyByWeekday'] {
  const onWeekday = (rows: readonly { isoWeekday: number; count: number }[], isoWeekday: number) =>
    rows.find((row) => row.isoWeekday === isoWeekday)?.count ?? 0;
  return weekdays.map((weekday, index) => {
    const bookedNights = onWeekday(booked, index + 1);
    const availableNights = onWeekday(calendar, index + 1) - onWeekday(blocked, index + 1);
    return { weekday, bookedNights, availableNights, occupancy: ratioOf(bookedNights, availableNights) };
  });
}
