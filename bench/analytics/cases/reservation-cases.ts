import { toMajorUnits } from '@innkeep/domain';
import type {
  BookingPatternStats,
  CancellationStats,
  CheckInsCheckOuts,
  GapAnalysis,
  PaceStats,
  ReservationStatusStats,
  TurnoverStats,
  UpcomingReservations,
} from '@innkeep/domain/analytics';
import { checkInCohort, median } from '../baselines/check-in-cohort.ts';
import { groupBy } from '../baselines/group-by.ts';
import { activeNightsIn, activePart, activeSince } from '../baselines/listing-supply.ts';
import { fetchSoldNights } from '../baselines/sold-nights.ts';
import { mean2, ratio } from '../figures.ts';
import {
  addDays,
  dayNumber,
  isoWeekday,
  localDate,
  type NightRange,
  overlapNights,
  rangeLastYear,
  startOfLocalDay,
} from '../local-dates.ts';
import {
  fetchAccountTimeZone,
  fetchCalendarDays,
  fetchHolds,
  fetchListings,
  fetchReservationChanges,
  fetchReservations,
  type HoldRow,
  type ListingRow,
  type ReservationChangeRow,
  type ReservationRow,
} from '../raw-rows.ts';
import { type BenchContext, defaultTargetMs, type ToolCase } from '../tool-case.ts';

// Reservation tools: pace, booking patterns, cancellations, statuses, gaps, turnovers, arrivals, upcoming.

const allListings = (context: BenchContext) => ({ ...context.period });
const weekdayNames = ['', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const farFuture = '9999-12-31';

/** What was on the books for `range` at `instant`, from each reservation's latest change before it. */
function onTheBooks(
  changes: readonly ReservationChangeRow[],
  range: NightRange,
  instant: Date,
): { reservations: number; nights: number; rent: Map<string, number> } {
  const latest = new Map<string, ReservationChangeRow>();
  for (const change of changes) {
    if (change.changed_at >= instant) continue;
    const known = latest.get(change.reservation_id);
    if (known === undefined || change.changed_at >= known.changed_at)
      latest.set(change.reservation_id, change);
  }
  let reservations = 0;
  let nights = 0;
  const rent = new Map<string, number>();
  for (const snapshot of latest.values()) {
    if (snapshot.status !== 'accepted') continue;
    const inPeriod = overlapNights(snapshot.start_date, snapshot.end_date, range);
    if (inPeriod === 0) continue;
    reservations += 1;
    nights += inPeriod;
    // Rent spread evenly over the stay's nights, the spare cents on the earliest ones.
    const stayNights = dayNumber(snapshot.end_date) - dayNumber(snapshot.start_date);
    const share = Math.floor(snapshot.accommodation_minor / stayNights);
    const spare = snapshot.accommodation_minor - share * stayNights;
    const firstIndex = Math.max(0, dayNumber(range.startDate) - dayNumber(snapshot.start_date));
    const spareInPeriod = Math.max(0, Math.min(spare, firstIndex + inPeriod) - firstIndex);
    rent.set(snapshot.currency, (rent.get(snapshot.currency) ?? 0) + share * inPeriod + spareInPeriod);
  }
  return { reservations, nights, rent };
}

/** Each listing's nights of `range` since it became active, minus the nights blocked in them. */
function availableNights(
  listings: readonly ListingRow[],
  holds: readonly HoldRow[],
  range: NightRange,
): number {
  const listingsById = new Map(listings.map((listing) => [listing.id, listing]));
  const blocked = holds
    .filter((hold) => hold.kind === 'block')
    .reduce((sum, hold) => {
      const listing = listingsById.get(hold.listing_id);
      return listing === undefined
        ? sum
        : sum + overlapNights(hold.start, hold.end, activePart(listing, range));
    }, 0);
  return listings.reduce((sum, listing) => sum + activeNightsIn(listing, range), 0) - blocked;
}

const pickupWindows = [1, 7, 30];

const paceStats: ToolCase = {
  tool: 'get_pace_stats',
  // The books as of today (the default), with pickup over 1, 7 and 30 days.
  arguments: allListings,
  targetMs: defaultTargetMs,
  baseline: {
    run: async (context) => {
      const { db, accountId, period, today } = context;
      const lastYear = rangeLastYear(period);
      const [zone, listings, changes, changesLastYear, holds, holdsLastYear, soldNights] = await Promise.all([
        fetchAccountTimeZone(db, accountId),
        fetchListings(db, accountId),
        fetchReservationChanges(db, accountId, period),
        fetchReservationChanges(db, accountId, lastYear),
        fetchHolds(db, accountId, period),
        fetchHolds(db, accountId, lastYear),
        fetchSoldNights(context, period),
      ]);
      const endOf = (date: string) => startOfLocalDay(addDays(date, 1), zone);
      const figures: Record<string, number | null> = {};
      const add = (prefix: string, books: ReturnType<typeof onTheBooks>, available: number) => {
        figures[`${prefix}.reservations`] = books.reservations;
        figures[`${prefix}.nights`] = books.nights;
        figures[`${prefix}.availableNights`] = available;
        figures[`${prefix}.occupancy`] = ratio(books.nights, available);
        for (const [currency, minor] of books.rent)
          figures[`${prefix}.rent.${currency}`] = toMajorUnits(minor, currency);
      };
      const now = onTheBooks(changes, period, endOf(today));
      // Today's books take rent at the nightly rates, as the revenue tools do; earlier ones spread it evenly.
      const nightlyRent = new Map<string, number>();
      for (const night of soldNights)
        nightlyRent.set(night.currency, (nightlyRent.get(night.currency) ?? 0) + night.accommodation);
      add('onTheBooks', { ...now, rent: nightlyRent }, availableNights(listings, holds, period));
      const yearEarlier = rangeLastYear({ startDate: today, endDate: today }).startDate;
      add(
        'lastYear',
        onTheBooks(changesLastYear, lastYear, endOf(yearEarlier)),
        availableNights(listings, holdsLastYear, lastYear),
      );
      for (const days of pickupWindows) {
        const then = onTheBooks(changes, period, endOf(addDays(today, -days)));
        figures[`pickup${days}.netReservations`] = now.reservations - then.reservations;
        figures[`pickup${days}.netNights`] = now.nights - then.nights;
      }
      return figures;
    },
    figuresOf: (output) => {
      const result = output as PaceStats;
      const figures: Record<string, number | null> = {};
      for (const [prefix, books] of [
        ['onTheBooks', result.onTheBooks],
        ['lastYear', result.lastYear],
      ] as const) {
        figures[`${prefix}.reservations`] = books.reservations;
        figures[`${prefix}.nights`] = books.nights;
        figures[`${prefix}.availableNights`] = books.availableNights;
        figures[`${prefix}.occupancy`] = books.occupancy;
        for (const entry of books.rent) figures[`${prefix}.rent.${entry.currency}`] = entry.amount;
      }
      for (const pickup of result.pickup) {
        figures[`pickup${pickup.days}.netReservations`] = pickup.netReservations;
        figures[`pickup${pickup.days}.netNights`] = pickup.netNights;
      }
      return figures;
    },
  },
};

/** Counts per bucket of a day-count distribution, keyed `<prefix><label>`. */
function bucketFigures(
  values: readonly number[],
  buckets: readonly { min: number | null; max: number | null; label: string }[],
  prefix: string,
): Record<string, number> {
  const figures: Record<string, number> = {};
  for (const bucket of buckets) {
    figures[`${prefix}${bucket.label}`] = values.filter(
      (value) => (bucket.min === null || value >= bucket.min) && (bucket.max === null || value <= bucket.max),
    ).length;
  }
  return figures;
}

const leadBuckets = [
  { min: null, max: -1, label: '<0' },
  { min: 0, max: 1, label: '0–1' },
  { min: 2, max: 7, label: '2–7' },
  { min: 8, max: 14, label: '8–14' },
  { min: 15, max: 30, label: '15–30' },
  { min: 31, max: 60, label: '31–60' },
  { min: 61, max: 90, label: '61–90' },
  { min: 91, max: 180, label: '91–180' },
  { min: 181, max: null, label: '181+' },
];
const stayBuckets = [
  { min: 1, max: 1, label: '1' },
  { min: 2, max: 2, label: '2' },
  { min: 3, max: 3, label: '3' },
  { min: 4, max: 6, label: '4–6' },
  { min: 7, max: 13, label: '7–13' },
  { min: 14, max: 27, label: '14–27' },
  { min: 28, max: null, label: '28+' },
];

const bookingPatternStats: ToolCase = {
  tool: 'get_booking_pattern_stats',
  arguments: allListings,
  targetMs: defaultTargetMs,
  baseline: {
    run: async (context) => {
      const { db, accountId, period } = context;
      const [listings, reservations, holds] = await Promise.all([
        fetchListings(db, accountId),
        fetchReservations(db, accountId, period),
        fetchHolds(db, accountId, period),
      ]);
      const { live } = checkInCohort(reservations, listings, period);
      const figures: Record<string, number | null> = { checkIns: live.length };
      const leads = live.map((stay) => stay.leadDays);
      const stays = live.map((stay) => stay.reservation.nights);
      for (let weekday = 1; weekday <= 7; weekday += 1) {
        const name = weekdayNames[weekday];
        figures[`bookingWeekday.${name}`] = live.filter(
          (stay) => isoWeekday(addDays(stay.reservation.start_date, -stay.leadDays)) === weekday,
        ).length;
        figures[`checkInWeekday.${name}`] = live.filter(
          (stay) => isoWeekday(stay.reservation.start_date) === weekday,
        ).length;
      }
      figures['leadTime.mean'] = mean2(
        leads.reduce((sum, value) => sum + value, 0),
        leads.length,
      );
      figures['leadTime.median'] = median(leads);
      Object.assign(figures, bucketFigures(leads, leadBuckets, 'leadTime.'));
      figures['lengthOfStay.mean'] = mean2(
        stays.reduce((sum, value) => sum + value, 0),
        stays.length,
      );
      figures['lengthOfStay.median'] = median(stays);
      Object.assign(figures, bucketFigures(stays, stayBuckets, 'lengthOfStay.'));
      const parties = live.map((stay) => stay.reservation.adults + stay.reservation.children);
      figures['guests.mean'] = mean2(
        parties.reduce((sum, value) => sum + value, 0),
        parties.length,
      );
      for (const size of new Set(parties))
        figures[`guests.${size}`] = parties.filter((value) => value === size).length;
      // Occupancy per weekday of the stay night: every accepted night in the period, every listing-night since
      // the listing became active.
      const booked = new Array<number>(8).fill(0);
      const supply = new Array<number>(8).fill(0);
      const countNights = (from: string, to: string, into: number[], sign: number, within = period) => {
        const start = Math.max(dayNumber(from), dayNumber(within.startDate));
        const end = Math.min(dayNumber(to), dayNumber(within.endDate) + 1);
        for (let day = start; day < end; day += 1) {
          const weekday = isoWeekday(addDays(period.startDate, day - dayNumber(period.startDate)));
          into[weekday] = (into[weekday] ?? 0) + sign;
        }
      };
      for (const reservation of reservations) {
        if (reservation.status === 'accepted')
          countNights(reservation.start_date, reservation.end_date, booked, 1);
      }
      const listingsById = new Map(listings.map((listing) => [listing.id, listing]));
      for (const listing of listings) countNights(activeSince(listing), farFuture, supply, 1);
      for (const hold of holds) {
        const listing = listingsById.get(hold.listing_id);
        if (hold.kind !== 'block' || listing === undefined) continue;
        countNights(hold.start, hold.end, supply, -1, activePart(listing, period));
      }
      for (let weekday = 1; weekday <= 7; weekday += 1) {
        const name = weekdayNames[weekday];
        figures[`occupancyByWeekday.${name}.bookedNights`] = booked[weekday] ?? 0;
        figures[`occupancyByWeekday.${name}.availableNights`] = supply[weekday] ?? 0;
        figures[`occupancyByWeekday.${name}.occupancy`] = ratio(booked[weekday] ?? 0, supply[weekday] ?? 0);
      }
      return figures;
    },
    figuresOf: (output) => {
      const result = output as BookingPatternStats;
      const figures: Record<string, number | null> = { checkIns: result.checkIns };
      for (const entry of result.bookingWeekday) figures[`bookingWeekday.${entry.weekday}`] = entry.count;
      for (const entry of result.checkInWeekday) figures[`checkInWeekday.${entry.weekday}`] = entry.count;
      figures['leadTime.mean'] = result.leadTime.mean;
      figures['leadTime.median'] = result.leadTime.median;
      for (const bucket of result.leadTime.buckets) figures[`leadTime.${bucket.bucket}`] = bucket.count;
      figures['lengthOfStay.mean'] = result.lengthOfStay.mean;
      figures['lengthOfStay.median'] = result.lengthOfStay.median;
      for (const bucket of result.lengthOfStay.buckets)
        figures[`lengthOfStay.${bucket.bucket}`] = bucket.count;
      figures['guests.mean'] = result.guests.mean;
      for (const size of result.guests.sizes) figures[`guests.${size.guests}`] = size.count;
      for (const entry of result.occupancyByWeekday) {
        figures[`occupancyByWeekday.${entry.weekday}.bookedNights`] = entry.bookedNights;
        figures[`occupancyByWeekday.${entry.weekday}.availableNights`] = entry.availableNights;
        figures[`occupancyByWeekday.${entry.weekday}.occupancy`] = entry.occupancy;
      }
      return figures;
    },
  },
};

const cancellationStats: ToolCase = {
  tool: 'get_cancellation_stats',
  // The default cohort: reservations due to check in during the period.
  arguments: allListings,
  targetMs: defaultTargetMs,
  baseline: {
    run: async (context) => {
      const { db, accountId, period } = context;
      const [listings, reservations] = await Promise.all([
        fetchListings(db, accountId),
        fetchReservations(db, accountId, period),
      ]);
      const zones = new Map(listings.map((listing) => [listing.id, listing.time_zone]));
      const { live, cancelled } = checkInCohort(reservations, listings, period);
      const liveRows = live.map((stay) => stay.reservation);
      const nightsOf = (rows: readonly ReservationRow[]) => rows.reduce((sum, row) => sum + row.nights, 0);
      const figures: Record<string, number | null> = {
        'reservations.cancelled': cancelled.length,
        'reservations.live': live.length,
        'reservations.rate': ratio(cancelled.length, cancelled.length + live.length),
        'nights.cancelled': nightsOf(cancelled),
        'nights.live': nightsOf(liveRows),
        'nights.rate': ratio(nightsOf(cancelled), nightsOf(cancelled) + nightsOf(liveRows)),
      };
      const rent = new Map<string, { cancelled: number; live: number }>();
      for (const [rows, side] of [
        [cancelled, 'cancelled'],
        [liveRows, 'live'],
      ] as const) {
        for (const row of rows) {
          const entry = rent.get(row.currency) ?? { cancelled: 0, live: 0 };
          entry[side] += row.accommodation_minor;
          rent.set(row.currency, entry);
        }
      }
      for (const [currency, entry] of rent) {
        figures[`rent.${currency}.cancelled`] = toMajorUnits(entry.cancelled, currency);
        figures[`rent.${currency}.live`] = toMajorUnits(entry.live, currency);
        figures[`rent.${currency}.rate`] = ratio(entry.cancelled, entry.cancelled + entry.live);
      }
      for (const party of new Set(cancelled.map((row) => row.cancelled_by ?? ''))) {
        const rows = cancelled.filter((row) => row.cancelled_by === party);
        figures[`cancelledBy.${party}.reservations`] = rows.length;
        figures[`cancelledBy.${party}.nights`] = nightsOf(rows);
      }
      for (const channel of new Set([...cancelled, ...liveRows].map((row) => row.channel))) {
        const cancelledHere = cancelled.filter((row) => row.channel === channel).length;
        const liveHere = liveRows.filter((row) => row.channel === channel).length;
        figures[`channel.${channel}.cancelled`] = cancelledHere;
        figures[`channel.${channel}.live`] = liveHere;
        figures[`channel.${channel}.rate`] = ratio(cancelledHere, cancelledHere + liveHere);
      }
      const withDate = cancelled.filter((row) => row.cancelled_at !== null);
      const leadDays = withDate.map(
        (row) =>
          dayNumber(row.start_date) -
          dayNumber(localDate(row.cancelled_at ?? row.created_at, zones.get(row.listing_id) ?? 'UTC')),
      );
      figures['cancellationLeadTime.mean'] = mean2(
        leadDays.reduce((sum, value) => sum + value, 0),
        leadDays.length,
      );
      figures['cancellationLeadTime.median'] = median(leadDays);
      return figures;
    },
    figuresOf: (output) => {
      const result = output as CancellationStats;
      const figures: Record<string, number | null> = {
        'reservations.cancelled': result.reservations.cancelled,
        'reservations.live': result.reservations.live,
        'reservations.rate': result.reservations.rate,
        'nights.cancelled': result.nights.cancelled,
        'nights.live': result.nights.live,
        'nights.rate': result.nights.rate,
        'cancellationLeadTime.mean': result.cancellationLeadTime.mean,
        'cancellationLeadTime.median': result.cancellationLeadTime.median,
      };
      for (const entry of result.rent) {
        figures[`rent.${entry.currency}.cancelled`] = entry.cancelled;
        figures[`rent.${entry.currency}.live`] = entry.live;
        figures[`rent.${entry.currency}.rate`] = entry.rate;
      }
      for (const entry of result.byCancelledBy) {
        figures[`cancelledBy.${entry.cancelledBy}.reservations`] = entry.reservations;
        figures[`cancelledBy.${entry.cancelledBy}.nights`] = entry.nights;
      }
      for (const entry of result.byChannel) {
        figures[`channel.${entry.channel}.cancelled`] = entry.cancelled;
        figures[`channel.${entry.channel}.live`] = entry.live;
        figures[`channel.${entry.channel}.rate`] = entry.rate;
      }
      return figures;
    },
  },
};

/** The normalised status of a reservation, by its listing's local today. */
function normalisedStatus(reservation: ReservationRow, listingToday: string): string {
  if (reservation.status === 'accepted') {
    if (reservation.end_date <= listingToday) return 'completed';
    return reservation.start_date > listingToday ? 'upcoming' : 'in_house';
  }
  if (reservation.status === 'cancelled') return `cancelled_by_${reservation.cancelled_by}`;
  return reservation.status;
}

const reservationStatusStats: ToolCase = {
  tool: 'get_reservation_status_stats',
  arguments: allListings,
  targetMs: defaultTargetMs,
  baseline: {
    run: async (context) => {
      const { db, accountId, period } = context;
      const [listings, reservations] = await Promise.all([
        fetchListings(db, accountId),
        fetchReservations(db, accountId, period),
      ]);
      const todayByListing = new Map(
        listings.map((listing) => [listing.id, localDate(context.now, listing.time_zone)]),
      );
      const cohort = reservations.filter(
        (reservation) =>
          reservation.start_date >= period.startDate && reservation.start_date <= period.endDate,
      );
      const figures: Record<string, number | null> = { reservations: cohort.length };
      const byStatus = groupBy(cohort, (reservation) =>
        normalisedStatus(reservation, todayByListing.get(reservation.listing_id) ?? context.today),
      );
      for (const [status, rows] of byStatus) {
        figures[`${status}.reservations`] = rows.length;
        figures[`${status}.nights`] = rows.reduce((sum, row) => sum + row.nights, 0);
        const rent = new Map<string, number>();
        for (const row of rows)
          rent.set(row.currency, (rent.get(row.currency) ?? 0) + row.accommodation_minor);
        for (const [currency, minor] of rent)
          figures[`${status}.rent.${currency}`] = toMajorUnits(minor, currency);
      }
      return figures;
    },
    figuresOf: (output) => {
      const result = output as ReservationStatusStats;
      const figures: Record<string, number | null> = { reservations: result.reservations };
      for (const entry of result.statuses) {
        if (entry.reservations === 0) continue;
        figures[`${entry.status}.reservations`] = entry.reservations;
        figures[`${entry.status}.nights`] = entry.nights;
        for (const rent of entry.rent) figures[`${entry.status}.rent.${rent.currency}`] = rent.amount;
      }
      return figures;
    },
  },
};

const gapAnalysis: ToolCase = {
  tool: 'get_gap_analysis',
  // Orphan = shorter than the minimum stay of its first night; 20 gaps listed, soonest first.
  arguments: allListings,
  targetMs: defaultTargetMs,
  baseline: {
    run: async (context) => {
      const { db, accountId, period } = context;
      // Every hold of the account: a gap touching the period can reach any distance past its edges.
      const [listings, holds, days] = await Promise.all([
        fetchListings(db, accountId),
        fetchHolds(db, accountId, { startDate: '0001-01-01', endDate: farFuture }),
        fetchCalendarDays(db, accountId, { startDate: '0001-01-01', endDate: farFuture }),
      ]);
      const dayRows = new Map(days.map((day) => [`${day.listing_id}|${day.date}`, day]));
      const holdsByListing = groupBy(holds, (hold) => hold.listing_id);
      const totals = {
        past: { gaps: 0, nights: 0, orphanGaps: 0, orphanNights: 0, orphanValue: new Map<string, number>() },
        future: {
          gaps: 0,
          nights: 0,
          orphanGaps: 0,
          orphanNights: 0,
          orphanValue: new Map<string, number>(),
        },
      };
      for (const listing of listings) {
        const listingToday = localDate(context.now, listing.time_zone);
        const sorted = (holdsByListing.get(listing.id) ?? []).sort((a, b) => (a.start < b.start ? -1 : 1));
        for (let index = 1; index < sorted.length; index += 1) {
          const gapStart = sorted[index - 1]?.end ?? '';
          const gapEnd = sorted[index]?.start ?? '';
          if (gapStart >= gapEnd || gapStart > period.endDate || gapEnd <= period.startDate) continue;
          const gapNights = dayNumber(gapEnd) - dayNumber(gapStart);
          const minStay = dayRows.get(`${listing.id}|${gapStart}`)?.min_nights ?? listing.min_nights;
          const orphan = gapNights < minStay;
          for (const side of ['past', 'future'] as const) {
            const sideRange =
              side === 'past'
                ? { startDate: period.startDate, endDate: minDate(period.endDate, addDays(listingToday, -1)) }
                : { startDate: maxDate(period.startDate, listingToday), endDate: period.endDate };
            if (sideRange.startDate > sideRange.endDate) continue;
            const nights = overlapNights(gapStart, gapEnd, sideRange);
            if (nights === 0) continue;
            const tally = totals[side];
            tally.gaps += 1;
            tally.nights += nights;
            if (!orphan) continue;
            tally.orphanGaps += 1;
            tally.orphanNights += nights;
            const first = Math.max(dayNumber(gapStart), dayNumber(sideRange.startDate));
            for (let day = first; day < first + nights; day += 1) {
              const date = addDays(gapStart, day - dayNumber(gapStart));
              const price = dayRows.get(`${listing.id}|${date}`)?.price_minor ?? listing.base_price_minor;
              tally.orphanValue.set(listing.currency, (tally.orphanValue.get(listing.currency) ?? 0) + price);
            }
          }
        }
      }
      const figures: Record<string, number | null> = {};
      for (const side of ['past', 'future'] as const) {
        const tally = totals[side];
        figures[`${side}.gaps`] = tally.gaps;
        figures[`${side}.nights`] = tally.nights;
        figures[`${side}.orphanGaps`] = tally.orphanGaps;
        figures[`${side}.orphanNights`] = tally.orphanNights;
        for (const [currency, minor] of tally.orphanValue) {
          figures[`${side}.orphanValue.${currency}`] = toMajorUnits(minor, currency);
        }
      }
      return figures;
    },
    figuresOf: (output) => {
      const result = output as GapAnalysis;
      const figures: Record<string, number | null> = {};
      for (const side of ['past', 'future'] as const) {
        const totals = result[side];
        figures[`${side}.gaps`] = totals.gaps;
        figures[`${side}.nights`] = totals.nights;
        figures[`${side}.orphanGaps`] = totals.orphanGaps;
        figures[`${side}.orphanNights`] = totals.orphanNights;
        for (const entry of totals.orphanValue)
          figures[`${side}.orphanValue.${entry.currency}`] = entry.amount;
      }
      return figures;
    },
  },
};

function minDate(a: string, b: string): string {
  return a < b ? a : b;
}

function maxDate(a: string, b: string): string {
  return a > b ? a : b;
}

const turnoverStats: ToolCase = {
  tool: 'get_turnover_stats',
  arguments: allListings,
  targetMs: defaultTargetMs,
  baseline: {
    run: async (context) => {
      const { db, accountId, period } = context;
      // Check-outs in the period and every later check-in: the next guest may come any time after.
      const reservations = await fetchReservations(db, accountId, {
        startDate: period.startDate,
        endDate: farFuture,
      });
      const accepted = reservations.filter((reservation) => reservation.status === 'accepted');
      const checkIns = new Map(
        [...groupBy(accepted, (reservation) => reservation.listing_id)].map(([listingId, stays]) => [
          listingId,
          stays.map((stay) => stay.start_date).sort(),
        ]),
      );
      const turnarounds: number[] = [];
      let turnovers = 0;
      let withoutNext = 0;
      for (const reservation of reservations) {
        if (reservation.status !== 'accepted') continue;
        if (reservation.end_date < period.startDate || reservation.end_date > period.endDate) continue;
        turnovers += 1;
        const next = (checkIns.get(reservation.listing_id) ?? []).find(
          (date) => date >= reservation.end_date,
        );
        if (next === undefined) withoutNext += 1;
        else turnarounds.push(dayNumber(next) - dayNumber(reservation.end_date));
      }
      const sameDay = turnarounds.filter((days) => days === 0).length;
      return {
        turnovers,
        sameDay,
        sameDayRate: ratio(sameDay, turnovers),
        withoutNextBooking: withoutNext,
        'turnaround.mean': mean2(
          turnarounds.reduce((sum, value) => sum + value, 0),
          turnarounds.length,
        ),
        'turnaround.median': median(turnarounds),
      };
    },
    figuresOf: (output) => {
      const result = output as TurnoverStats;
      return {
        turnovers: result.turnovers,
        sameDay: result.sameDay,
        sameDayRate: result.sameDayRate,
        withoutNextBooking: result.withoutNextBooking,
        'turnaround.mean': result.turnaround.mean,
        'turnaround.median': result.turnaround.median,
      };
    },
  },
};

const checkInsCheckOuts: ToolCase = {
  tool: 'get_check_ins_check_outs',
  // Twelve months default to monthly buckets.
  arguments: allListings,
  targetMs: defaultTargetMs,
  baseline: {
    run: async (context) => {
      const { period } = context;
      const reservations = await fetchReservations(context.db, context.accountId, period);
      const figures: Record<string, number> = { arrivals: 0, departures: 0, stayovers: 0 };
      const bump = (key: string) => {
        figures[key] = (figures[key] ?? 0) + 1;
      };
      const inPeriod = (date: string) => date >= period.startDate && date <= period.endDate;
      for (const reservation of reservations) {
        if (reservation.status !== 'accepted') continue;
        if (inPeriod(reservation.start_date)) {
          bump('arrivals');
          bump(`${reservation.start_date.slice(0, 7)}.arrivals`);
        }
        if (inPeriod(reservation.end_date)) {
          bump('departures');
          bump(`${reservation.end_date.slice(0, 7)}.departures`);
        }
        const first = Math.max(dayNumber(reservation.start_date) + 1, dayNumber(period.startDate));
        const last = Math.min(dayNumber(reservation.end_date) - 1, dayNumber(period.endDate));
        for (let day = first; day <= last; day += 1) {
          bump('stayovers');
          bump(`${addDays(period.startDate, day - dayNumber(period.startDate)).slice(0, 7)}.stayovers`);
        }
      }
      return figures;
    },
    figuresOf: (output) => {
      const result = output as CheckInsCheckOuts;
      const figures: Record<string, number | null> = { ...result.totals };
      for (const bucket of result.series) {
        if (bucket.arrivals > 0) figures[`${bucket.key}.arrivals`] = bucket.arrivals;
        if (bucket.departures > 0) figures[`${bucket.key}.departures`] = bucket.departures;
        if (bucket.stayovers > 0) figures[`${bucket.key}.stayovers`] = bucket.stayovers;
      }
      return figures;
    },
  },
};

const upcomingWithinDays = 30;

const upcomingReservations: ToolCase = {
  tool: 'get_upcoming_reservations',
  // No period: arrivals from today up to 30 days ahead and guests in house, the first page of 20.
  arguments: () => ({}),
  targetMs: defaultTargetMs,
  baseline: {
    run: async (context) => {
      const { db, accountId, today } = context;
      const [listings, reservations] = await Promise.all([
        fetchListings(db, accountId),
        fetchReservations(db, accountId, {
          startDate: addDays(today, -1),
          endDate: addDays(today, upcomingWithinDays + 1),
        }),
      ]);
      const todayByListing = new Map(
        listings.map((listing) => [listing.id, localDate(context.now, listing.time_zone)]),
      );
      let inHouse = 0;
      let arrivals = 0;
      for (const reservation of reservations) {
        if (reservation.status !== 'accepted') continue;
        const listingToday = todayByListing.get(reservation.listing_id) ?? today;
        if (reservation.start_date < listingToday && reservation.end_date > listingToday) inHouse += 1;
        if (
          reservation.start_date >= listingToday &&
          reservation.start_date <= addDays(listingToday, upcomingWithinDays)
        ) {
          arrivals += 1;
        }
      }
      return { inHouse, arrivals };
    },
    figuresOf: (output) => {
      const result = output as UpcomingReservations;
      return { inHouse: result.inHouse, arrivals: result.arrivals };
    },
  },
};

/** The reservation tools' cases. */
export const reservationCases: readonly ToolCase[] = [
  paceStats,
  bookingPatternStats,
  cancellationStats,
  reservationStatusStats,
  gapAnalysis,
  turnoverStats,
  checkInsCheckOuts,
  upcomingReservations,
];
