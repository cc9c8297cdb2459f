import { addDays, dayOfWeek } from '@innkeep/domain';
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
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Executor } from '../database.ts';
import { type AnalyticsScope, analyticsMeta, channelInScope, listingInScope } from './analytics-scope.ts';
import { activeSince } from './performance-supply.ts';
import { summarize, toBuckets, toHistogram, toWeekdayCounts } from './reservation-histograms.ts';
import { longestStayNights } from './reservation-stays.ts';

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
 * Every count the tool reports, in one statement over one index range of accepted stays (the cohort, plus
 * the stays checking in before the period that hold some of its nights) and the blocks in the period:
 *
 * - Two grouping sets in one pass: (check-in date, nights) and (check-in weekday, lead days, party size),
 *   some thousands of groups each. Every cohort histogram is a sum over one of them; booking weekday is the
 *   check-in weekday moved back by the lead time.
 * - Calendar, booked and blocked nights per ISO weekday of the night: each listing's nights since it became
 *   active, stay or block is clipped to the period (and blocks to the listing's active nights), a run of
 *   nights starting on some weekday; runs are counted by (first weekday, length), and a run of n
 *   nights holds n / 7 nights of every weekday plus one of each of the n mod 7 weekdays it starts with.
 *   Nights are never expanded one by one.
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
  const periodEnd = sql`${addDays(period.endDate, 1)}::date`;
  const monday = sql`${addDays(period.startDate, -((dayOfWeek(period.startDate) + 6) % 7))}::date`;
  const inScope = sql`r.account_id = ${scope.accountId}
    and r.status = 'accepted'
    and ${listingInScope(scope, 'r.listing_id')}
    and ${channelInScope(scope, 'r.channel')}`;
  const { rows } = await sql<{ kind: CountKind; value: number; count: number | string }>`
    with active as (
      select l.id, ${activeSince('l')} as since from listings l
      where l.account_id = ${scope.accountId} and ${listingInScope(scope, 'l.id')}
    ),
    stays as (
      select r.start_date, r.nights, mod(r.start_date - ${monday}, 7) + 1 as check_in_weekday,
        r.start_date - r.booked_on as lead_days, r.adults + r.children as guests
      from reservations r
      where ${inScope} and r.start_date between ${periodStart} and ${period.endDate}::date
      union all
      -- Stays checking in before the period that hold some of its nights: occupancy only.
      select r.start_date, r.nights, null, null, null
      from reservations r
      where ${inScope}
        and r.start_date between ${addDays(period.startDate, -longestStay)}::date and ${addDays(period.startDate, -1)}::date
        and r.start_date + r.nights > ${periodStart}
    ),
    groups as (
      select grouping(start_date) = 0 as by_stay, start_date, nights, check_in_weekday, lead_days, guests,
        count(*) as stays
      from stays
      group by grouping sets ((start_date, nights), (check_in_weekday, lead_days, guests))
    ),
    cohort as (
      select check_in_weekday, lead_days, guests, stays from groups
      where not by_stay and check_in_weekday is not null
    ),
    runs as (
      select 'booked_nights' as kind, greatest(start_date, ${periodStart}) as first_night,
        least(start_date + nights, ${periodEnd}) - greatest(start_date, ${periodStart}) as nights, stays
      from groups
      where by_stay
      union all
      select 'blocked_nights', greatest(lower(h.nights), ${periodStart}, a.since),
        least(upper(h.nights), ${periodEnd}) - greatest(lower(h.nights), ${periodStart}, a.since), 1
      from calendar_holds h
      join active a on a.id = h.listing_id
      where h.account_id = ${scope.accountId}
        and h.kind = 'block'
        and h.nights && daterange(${periodStart}, ${periodEnd})
        and upper(h.nights) > a.since
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
    select 'check_in_weekday' as kind, check_in_weekday as value, sum(stays) as count from cohort group by 2
    union all
    select 'booking_weekday', mod(mod(check_in_weekday - 1 - lead_days, 7) + 7, 7) + 1, sum(stays)
    from cohort group by 2
    union all
    select 'lead_days', lead_days, sum(stays) from cohort group by 2
    union all
    select 'guests', guests, sum(stays) from cohort group by 2
    union all
    select 'nights', nights, sum(stays) from groups where by_stay and start_date >= ${periodStart} group by 2
    union all
    select l.kind, w.weekday,
      sum(l.runs * (l.nights / 7 + (mod(w.weekday - l.first_weekday + 7, 7) < mod(l.nights, 7))::integer))
    from run_lengths l
    cross join generate_series(1, 7) as w (weekday)
    group by 1, 2`.execute(db);
  return rows.map((row) => ({ kind: row.kind, value: Number(row.value), count: Number(row.count) }));
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
