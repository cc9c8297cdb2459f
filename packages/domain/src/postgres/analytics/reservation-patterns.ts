import { sql } from 'kysely';
import type { z } from 'zod';
import { type AnalyticsPeriod, periodNights } from '../../analytics/analytics-period.ts';
import type { NullReason } from '../../analytics/analytics-result.ts';
import { ratioOf } from '../../analytics/analytics-result.ts';
import { leadTimeBuckets, stayLengthBuckets, weekdays } from '../../analytics/reservation-figures.ts';
import type {
  BookingPatternStats,
  bookingPatternStatsInputSchema,
} from '../../analytics/reservation-patterns.ts';
import { dayOfWeek } from '../../core/dates.ts';
import type { Executor } from '../database.ts';
import { type AnalyticsScope, analyticsMeta, channelInScope, listingInScope } from './analytics-scope.ts';
import { checkInCohortTotals } from './check-in-cohort.ts';
import { dailyHolding } from './reservation-daily.ts';
import {
  histogramMedian,
  summarize,
  toBuckets,
  toHistogram,
  toWeekdayCounts,
} from './reservation-histograms.ts';
import { longestStayNights, touchesPeriod } from './reservation-stays.ts';

type PatternInput = z.output<typeof bookingPatternStatsInputSchema>;

/** The histograms one pass over the check-in cohort produces. */
const histogramKinds = ['booking_weekday', 'check_in_weekday', 'lead_days', 'nights', 'guests'] as const;

/**
 * get_booking_pattern_stats: how the period's check-in cohort (accepted stays checking in during it) was
 * booked — weekdays, lead times, stay lengths, party sizes — and occupancy per weekday of the stay night.
 * Check-ins, ALOS and the lead-time mean and median come from {@link checkInCohortTotals}, the definition the
 * headline KPIs use; the distributions from one grouped pass over the same cohort.
 */
export async function bookingPatternStats(
  db: Executor,
  scope: AnalyticsScope,
  input: PatternInput,
): Promise<BookingPatternStats> {
  const period: AnalyticsPeriod = { startDate: input.startDate, endDate: input.endDate };
  const [cohort] = await checkInCohortTotals(db, scope, [period]);
  const { rows } = await sql<{ kind: (typeof histogramKinds)[number]; value: number; count: string }>`
    select
      case
        when grouping(booking_weekday) = 0 then 'booking_weekday'
        when grouping(check_in_weekday) = 0 then 'check_in_weekday'
        when grouping(lead_days) = 0 then 'lead_days'
        when grouping(nights) = 0 then 'nights'
        else 'guests'
      end as kind,
      coalesce(booking_weekday, check_in_weekday, lead_days, nights, guests) as value,
      count(*) as count
    from (
      select extract(isodow from r.booked_on)::integer as booking_weekday,
        extract(isodow from r.start_date)::integer as check_in_weekday, r.start_date - r.booked_on as lead_days,
        r.nights, r.adults + r.children as guests
      from reservations r
      where r.account_id = ${scope.accountId}
        and r.start_date between ${period.startDate}::date and ${period.endDate}::date
        and r.status = 'accepted'
        and ${listingInScope(scope, 'r.listing_id')}
        and ${channelInScope(scope, 'r.channel')}
    ) cohort
    group by grouping sets ((booking_weekday), (check_in_weekday), (lead_days), (nights), (guests))`.execute(
    db,
  );
  const histogram = (kind: (typeof histogramKinds)[number]) =>
    toHistogram(rows.filter((row) => row.kind === kind));
  const weekdayRows = (kind: (typeof histogramKinds)[number]) =>
    histogram(kind).map((entry) => ({ isoWeekday: entry.value, count: entry.count }));

  const checkIns = cohort?.checkIns ?? 0;
  const leadMean = checkIns === 0 ? null : round2((cohort?.leadDaysSum ?? 0) / checkIns);
  const alos = checkIns === 0 ? null : round2((cohort?.stayNights ?? 0) / checkIns);
  const guests = histogram('guests');
  const occupancyByWeekday = await weekdayOccupancy(db, scope, period);

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
      mean: leadMean,
      median: cohort?.leadTimeMedian ?? null,
      buckets: toBuckets(histogram('lead_days'), leadTimeBuckets),
    },
    lengthOfStay: {
      mean: alos,
      median: histogramMedian(histogram('nights')),
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
 * Booked and available nights per ISO weekday of the night: accepted stays and blocks holding each day's
 * night ({@link dailyHolding}, one pass over each), supply as listings × that weekday's dates in the period
 * minus the blocked ones.
 */
async function weekdayOccupancy(
  db: Executor,
  scope: AnalyticsScope,
  period: AnalyticsPeriod,
): Promise<BookingPatternStats['occupancyByWeekday']> {
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
  const blocks = sql`(
    select lower(h.nights) as start_date, upper(h.nights) as end_date
    from calendar_holds h
    where h.account_id = ${scope.accountId}
      and h.kind = 'block'
      and h.nights && daterange(${period.startDate}::date, ${period.endDate}::date, '[]')
      and ${listingInScope(scope, 'h.listing_id')}
  )`;
  const { rows } = await sql<{ iso_weekday: number; booked: string; blocked: string }>`
    select extract(isodow from booked.day)::integer as iso_weekday, sum(booked.holding) as booked,
      sum(blocked.holding) as blocked
    from ${dailyHolding(stays, period)} booked
    join ${dailyHolding(blocks, period)} blocked on blocked.day = booked.day
    group by 1`.execute(db);
  return weekdays.map((weekday, index) => {
    const row = rows.find((entry) => Number(entry.iso_weekday) === index + 1);
    const bookedNights = Number(row?.booked ?? 0);
    const availableNights =
      scope.listingCount * datesOnWeekday(period, index + 1) - Number(row?.blocked ?? 0);
    return { weekday, bookedNights, availableNights, occupancy: ratioOf(bookedNights, availableNights) };
  });
}

/** How many dates of the period fall on ISO weekday `isoWeekday` (1 = Monday). */
function datesOnWeekday(period: AnalyticsPeriod, isoWeekday: number): number {
  const nights = periodNights(period);
  const firstIso = ((dayOfWeek(period.startDate) + 6) % 7) + 1;
  const offset = (isoWeekday - firstIso + 7) % 7;
  return offset >= nights ? 0 : Math.floor((nights - 1 - offset) / 7) + 1;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
