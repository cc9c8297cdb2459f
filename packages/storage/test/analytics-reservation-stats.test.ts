import type { Actor } from '@innkeep/domain';
import type { ReservationAnalyticsUseCases } from '@innkeep/domain/analytics';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildStayNightFacts } from '../src/analytics/stay-night-facts.ts';
import type { DatabaseHandle } from '../src/connection.ts';
import { createPostgresDomain } from '../src/create-domain.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { type AnalyticsFixture, buildAnalyticsFixture, insertStay } from './support/analytics-fixture.ts';

// Expectations are computed by hand from the fixture (see its doc comment) plus two rows added below:
// - e1: Lisbon, direct, accepted 2026-04-15→04-18 (arrives the day s4 leaves), rent 6000 × 3, created
//   2026-03-10 10:00Z;
// - Berlin's 2026-03-26 asks for a minimum stay of 3 nights at 120.00, which makes the open 03-26→03-28
//   an orphan gap.
// "Now" is the fixture's 2026-03-16 12:00Z: 13:00 in Berlin and Lisbon's 12:00, 08:00 in Boston, the same
// date everywhere. The account's time zone is Europe/Berlin.

const march = { startDate: '2026-03-01', endDate: '2026-03-31' };
const april = { startDate: '2026-04-01', endDate: '2026-04-30' };

describe.each(testDatabaseKinds)('reservation analytics on %s', (kind) => {
  let handle: DatabaseHandle;
  let fixture: AnalyticsFixture;
  let analytics: ReservationAnalyticsUseCases;
  let owner: Actor;
  let e1: string;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    fixture = await buildAnalyticsFixture(handle.db);
    owner = fixture.account.owner;
    e1 = await insertStay(handle.db, fixture.account, {
      listingId: fixture.listings.lisbon,
      startDate: '2026-04-15',
      endDate: '2026-04-18',
      nightly: [6_000, 6_000, 6_000],
      guestFirstName: 'Eva',
      createdAt: '2026-03-10T10:00:00.000Z',
    });
    await rebuildStayNightFacts(handle.db, fixture.account.accountId);
    await sql`
      insert into calendar_days (listing_id, date, price_minor, min_nights)
      values (${fixture.listings.berlin}, '2026-03-26', 12000, 3)`.execute(handle.db);
    analytics = createPostgresDomain({ db: handle.db, clock: { now: () => fixture.now } }).analytics;
  }, 180_000);
  afterAll(async () => handle?.close());

  describe('get_pace_stats', () => {
    it('reads the books as of today against the same time last year', async () => {
      const pace = await analytics.getPaceStats(owner, march);
      // Accepted snapshots with March nights at the end of 03-16 (Berlin): s1 2 nights, s2 3, s3 4 of 5, s4 31
      // of 90, s7 3. s6 and s8 are cancelled by then, s9–s11 never accepted. Today's books take rent at the
      // nightly rates: s1 12000 + 12000, s2 27000, s3 4 × 11000, s4 31 × 5000 = 250000 EUR; s7 62000 USD.
      // Available: 4 × 31 − blocks (3 + 2 Berlin, 3 Boston, 31 cabin) = 85.
      expect(pace.onTheBooks).toEqual({
        period: { ...march, nights: 31 },
        asOf: '2026-03-16',
        reservations: 5,
        nights: 43,
        availableNights: 85,
        occupancy: 0.5059,
        rent: [
          { currency: 'EUR', amount: 2500 },
          { currency: 'USD', amount: 620 },
        ],
        nullReasons: {},
      });
      // March 2025 as of 2025-03-16: s12 (4 nights, 38000, spread evenly as past books are); no blocks then:
      // 124 available.
      expect(pace.lastYear).toEqual({
        period: { startDate: '2025-03-01', endDate: '2025-03-31', nights: 31 },
        asOf: '2025-03-16',
        reservations: 1,
        nights: 4,
        availableNights: 124,
        occupancy: 0.0323,
        rent: [{ currency: 'EUR', amount: 380 }],
        nullReasons: {},
      });
      expect(pace.change.nights).toEqual({ absolute: 39, relative: 9.75, nullReasons: {} });
      expect(pace.change.rent).toEqual([
        { currency: 'EUR', absolute: 2120, relative: 5.5789, nullReasons: {} },
        { currency: 'USD', absolute: 620, relative: null, nullReasons: { relative: 'no_baseline' } },
      ]);
    });

    it('counts pickup as the net change and the reservations that went on and came off the books', async () => {
      const pace = await analytics.getPaceStats(owner, march);
      // Nothing changed for March after 03-09. At the end of 02-14 (23:00Z) the books held s1,
      // s3, s4 and s8 (7 nights, 147000 USD; cancelled 03-01): 4 reservations, 2 + 4 + 31 + 7 = 44 nights.
      // Since then s2 (3 nights) and s7 (3 nights) came on, s8 came off; s6 was cancelled at 12:00Z on
      // 02-14, before the window.
      expect(pace.pickup).toEqual([
        {
          days: 1,
          since: '2026-03-15',
          netReservations: 0,
          netNights: 0,
          netRent: [
            { currency: 'EUR', amount: 0 },
            { currency: 'USD', amount: 0 },
          ],
          newReservations: 0,
          newNights: 0,
          cancelledReservations: 0,
          cancelledNights: 0,
        },
        expect.objectContaining({ days: 7, netNights: 0, newReservations: 0, cancelledReservations: 0 }),
        {
          days: 30,
          since: '2026-02-14',
          netReservations: 1,
          netNights: -1,
          netRent: [
            { currency: 'EUR', amount: 270 },
            { currency: 'USD', amount: -850 },
          ],
          newReservations: 2,
          newNights: 6,
          cancelledReservations: 1,
          cancelledNights: 7,
        },
      ]);
    });

    it('replays the books at an earlier date, in the account’s time zone', async () => {
      // The end of 03-01 in Berlin is 03-01 23:00Z: s2 (created 09:00Z) is on, s8 (cancelled 15:00Z) is off.
      const pace = await analytics.getPaceStats(owner, { ...march, asOf: '2026-03-01', pickupDays: [1] });
      expect(pace.onTheBooks).toMatchObject({
        reservations: 4,
        nights: 2 + 3 + 4 + 31,
        rent: [{ currency: 'EUR', amount: 2480 }],
      });
      // Over 03-01 alone: s2 came on (3 nights), s8 came off (7 nights).
      expect(pace.pickup).toEqual([
        expect.objectContaining({
          days: 1,
          netReservations: 0,
          netNights: -4,
          newReservations: 1,
          cancelledNights: 7,
        }),
      ]);
      await expect(analytics.getPaceStats(owner, { ...march, asOf: '2026-03-17' })).rejects.toMatchObject({
        code: 'invalid_argument',
      });
    });
  });

  describe('get_booking_pattern_stats', () => {
    it('distributes the March check-ins by weekday, lead time, stay length and party size', async () => {
      const patterns = await analytics.getBookingPatternStats(owner, march);
      // Cohort: s2 (booked Sun 03-01, arrives Tue 03-10, lead 9, 3 nights), s3 (booked Tue 02-10, arrives
      // Sat 03-28, lead 46, 5 nights), s7 (booked Fri 03-06 in Boston although 03-07 UTC, arrives Sat 03-07,
      // lead 1, 3 nights). Means 56 / 3 = 18.67 and 11 / 3 = 3.67.
      expect(patterns.checkIns).toBe(3);
      const counts = (list: readonly { count: number }[]) => list.map((entry) => entry.count);
      expect(counts(patterns.bookingWeekday)).toEqual([0, 1, 0, 0, 1, 0, 1]);
      expect(counts(patterns.checkInWeekday)).toEqual([0, 1, 0, 0, 0, 2, 0]);
      expect(patterns.leadTime.mean).toBe(18.67);
      expect(patterns.leadTime.median).toBe(9);
      expect(counts(patterns.leadTime.buckets)).toEqual([0, 1, 0, 1, 0, 1, 0, 0, 0]);
      expect(patterns.lengthOfStay).toMatchObject({ mean: 3.67, median: 3 });
      expect(counts(patterns.lengthOfStay.buckets)).toEqual([0, 0, 2, 1, 0, 0, 0]);
      expect(patterns.guests).toEqual({ mean: 2, sizes: [{ guests: 2, count: 3, share: 1 }] });
    });

    it('gives occupancy per weekday of the stay night', async () => {
      const patterns = await analytics.getBookingPatternStats(owner, march);
      // March 2026 starts on a Sunday: five Sundays, Mondays and Tuesdays, four of the others. Mondays:
      // 4 × 5 = 20 listing-nights − 5 cabin = 15 available; booked 03-02 (s1), 5 × s4, 03-09 (s7), 03-30
      // (s3) = 8. Saturdays: 16 − 4 cabin − 03-07 maintenance − 03-14 Boston owner = 10; booked 4 × s4,
      // 03-07 (s7), 03-28 (s3) = 6.
      expect(patterns.occupancyByWeekday[0]).toEqual({
        weekday: 'monday',
        bookedNights: 8,
        availableNights: 15,
        occupancy: 0.5333,
      });
      expect(patterns.occupancyByWeekday[5]).toEqual({
        weekday: 'saturday',
        bookedNights: 6,
        availableNights: 10,
        occupancy: 0.6,
      });
      const booked = patterns.occupancyByWeekday.reduce((sum, day) => sum + day.bookedNights, 0);
      const available = patterns.occupancyByWeekday.reduce((sum, day) => sum + day.availableNights, 0);
      expect([booked, available]).toEqual([43, 85]);
    });
  });

  describe('get_cancellation_stats', () => {
    it('rates the March check-in cohort by count, nights and rent, by party and channel', async () => {
      const stats = await analytics.getCancellationStats(owner, march);
      // Live s2, s3, s7 (3 + 5 + 3 nights); cancelled s6 (guest, airbnb, 3 nights, 270 EUR) and s8 (host,
      // direct, 7 nights, 1470 USD). Inquiry s9, declined s10 and pending s11 are not in it.
      expect(stats.reservations).toEqual({ cancelled: 2, live: 3, rate: 0.4 });
      expect(stats.nights).toEqual({ cancelled: 10, live: 11, rate: 0.4762 });
      expect(stats.rent).toEqual([
        { currency: 'EUR', cancelled: 270, live: 820, rate: 0.2477 },
        { currency: 'USD', cancelled: 1470, live: 620, rate: 0.7033 },
      ]);
      expect(stats.byCancelledBy).toEqual([
        { cancelledBy: 'guest', reservations: 1, nights: 3, share: 0.5 },
        { cancelledBy: 'host', reservations: 1, nights: 7, share: 0.5 },
        { cancelledBy: 'channel', reservations: 0, nights: 0, share: 0 },
      ]);
      expect(stats.byChannel).toEqual([
        { channel: 'airbnb', cancelled: 1, live: 0, rate: 1 },
        { channel: 'booking', cancelled: 0, live: 1, rate: 0 },
        { channel: 'direct', cancelled: 1, live: 2, rate: 0.3333 },
      ]);
      // s6: 03-15 − 02-14 = 29 days; s8: 03-20 − 03-01 (10:00 in Boston) = 19 days. Booked to cancelled:
      // s6 01-05 → 02-14 = 40 days, s8 2025-12-01 → 03-01 = 90 days.
      expect(stats.cancellationLeadTime).toMatchObject({ mean: 24, median: 24 });
      expect(stats.cancellationLeadTime.buckets.find((bucket) => bucket.bucket === '15–30')?.count).toBe(2);
      expect(stats.bookingToCancellation).toEqual({ mean: 65, median: 65 });
      // s3 is still ahead (03-28), so March can still change.
      expect(stats.final).toBe(false);
    });

    it('takes the April cohort and the booking cohort with s5’s 39-day cancellation lead', async () => {
      const aprilStats = await analytics.getCancellationStats(owner, april);
      // April check-ins: e1 live, s5 cancelled 03-12 for 04-20: 39 days ahead.
      expect(aprilStats.reservations).toEqual({ cancelled: 1, live: 1, rate: 0.5 });
      expect(aprilStats.cancellationLeadTime).toMatchObject({ mean: 39, median: 39 });
      expect(aprilStats.cancellationLeadTime.buckets.find((bucket) => bucket.count === 1)?.bucket).toBe(
        '31–60',
      );
      // Booked in February: s3 (02-10, live) and s5 (02-01, cancelled 39 days before its stay, 39 days
      // after booking).
      const booked = await analytics.getCancellationStats(owner, {
        startDate: '2026-02-01',
        endDate: '2026-02-28',
        cohort: 'booked',
      });
      expect(booked.meta.basis).toBe('booking_date');
      expect(booked.reservations).toEqual({ cancelled: 1, live: 1, rate: 0.5 });
      expect(booked.bookingToCancellation).toEqual({ mean: 39, median: 39 });
      expect(booked.final).toBe(false);
    });
  });

  describe('get_reservation_status_stats', () => {
    it('normalises every March check-in by each listing’s today', async () => {
      const stats = await analytics.getReservationStatusStats(owner, march);
      const byStatus = Object.fromEntries(stats.statuses.map((status) => [status.status, status]));
      expect(stats.reservations).toBe(8);
      expect(byStatus.inquiry).toMatchObject({
        reservations: 1,
        nights: 2,
        rent: [{ currency: 'USD', amount: 400 }],
      });
      expect(byStatus.pending).toMatchObject({ reservations: 1, nights: 2 });
      expect(byStatus.upcoming).toMatchObject({
        reservations: 1,
        nights: 5,
        rent: [{ currency: 'EUR', amount: 550 }],
      });
      expect(byStatus.completed).toMatchObject({
        reservations: 2,
        nights: 6,
        rent: [
          { currency: 'EUR', amount: 270 },
          { currency: 'USD', amount: 620 },
        ],
      });
      expect(byStatus.cancelled_by_guest).toMatchObject({
        rawStatus: 'cancelled',
        reservations: 1,
        nights: 3,
      });
      expect(byStatus.cancelled_by_host).toMatchObject({ reservations: 1, nights: 7 });
      expect(byStatus.declined).toMatchObject({ rawStatus: 'declined', reservations: 1 });
      expect(byStatus.in_house?.reservations).toBe(0);
    });

    it('puts a stay in house by its own listing’s date, not UTC’s', async () => {
      // 2026-03-10 03:00Z is 04:00 on 03-10 in Berlin and 23:00 on 03-09 in Boston (EDT since 03-08): s2
      // (Berlin, 03-10→03-13) has arrived, and so has s7 (Boston, 03-07→03-10), which leaves the next day.
      const early = createPostgresDomain({
        db: handle.db,
        clock: { now: () => new Date('2026-03-10T03:00:00.000Z') },
      }).analytics;
      const stats = await early.getReservationStatusStats(owner, march);
      const inHouse = stats.statuses.find((status) => status.status === 'in_house');
      expect(inHouse).toMatchObject({ reservations: 2, nights: 6 });
    });
  });

  describe('get_gap_analysis', () => {
    it('finds the open runs between held nights, orphan ones valued at listed prices', async () => {
      const gaps = await analytics.getGapAnalysis(owner, { ...march, limit: 3 });
      // Berlin: 03-03→05 (2), 03-08→10 (2), 03-13→24 (11), 03-26→28 (2, orphan: 03-26 asks for 3 nights).
      // Boston: 03-10→12 (2), 03-15→28 (13, up to the pending s11). Lisbon is held by s4, the cabin blocked.
      // Before 03-16: 2 + 2 + 3 (03-13..15) Berlin, 2 + 1 (03-15) Boston; after: 8 + 2 Berlin, 12 Boston.
      expect(gaps.past).toEqual({ gaps: 5, nights: 10, orphanGaps: 0, orphanNights: 0, orphanValue: [] });
      // The orphan's nights at listed prices: 120.00 (03-26's own) + 100.00 (base) = 220.00.
      expect(gaps.future).toEqual({
        gaps: 3,
        nights: 22,
        orphanGaps: 1,
        orphanNights: 2,
        orphanValue: [{ currency: 'EUR', amount: 220 }],
      });
      expect(gaps.gaps.map((gap) => [gap.startDate, gap.nights, gap.timing])).toEqual([
        ['2026-03-03', 2, 'past'],
        ['2026-03-08', 2, 'past'],
        ['2026-03-10', 2, 'past'],
      ]);
      expect(gaps.truncated).toBe(true);
    });

    it('finds gaps whole past the period’s edges and lists the longest first', async () => {
      const gaps = await analytics.getGapAnalysis(owner, {
        startDate: '2026-03-20',
        endDate: '2026-03-22',
        order: 'longest',
      });
      expect(
        gaps.gaps.map((gap) => ({
          name: gap.listingName,
          start: gap.startDate,
          end: gap.endDate,
          value: gap.listedValue,
        })),
      ).toEqual([
        {
          name: 'Boston House',
          start: '2026-03-15',
          end: '2026-03-28',
          value: { currency: 'USD', amount: 2600 },
        },
        {
          name: 'Berlin Loft',
          start: '2026-03-13',
          end: '2026-03-24',
          value: { currency: 'EUR', amount: 1100 },
        },
      ]);
      // Only the three nights inside the period count in the totals.
      expect(gaps.future).toMatchObject({ gaps: 2, nights: 6, orphanGaps: 0 });
    });

    it('calls short gaps orphan with maxGapNights', async () => {
      const gaps = await analytics.getGapAnalysis(owner, { ...march, maxGapNights: 2, orphansOnly: true });
      // Every 2-night gap: Berlin 03-03 and 03-08 (100.00 a night), Boston 03-10 (200.00 a night), Berlin 03-26.
      expect(gaps.past).toMatchObject({
        orphanGaps: 3,
        orphanNights: 6,
        orphanValue: [
          { currency: 'EUR', amount: 400 },
          { currency: 'USD', amount: 400 },
        ],
      });
      expect(gaps.gaps.map((gap) => gap.startDate)).toEqual([
        '2026-03-03',
        '2026-03-08',
        '2026-03-10',
        '2026-03-26',
      ]);
      expect(gaps.gaps.every((gap) => gap.orphan)).toBe(true);
    });
  });

  describe('get_turnover_stats', () => {
    it('measures each check-out against the listing’s next check-in, past the period', async () => {
      const stats = await analytics.getTurnoverStats(owner, march);
      // s1 leaves Berlin 03-03, next s2 03-10 (7 days); s2 leaves 03-13, next s3 03-28 (15); s7 leaves
      // Boston 03-10 with nothing accepted after it (s11 is only pending).
      expect(stats).toMatchObject({
        turnovers: 3,
        ownerStayTurnovers: 0,
        sameDay: 0,
        sameDayRate: 0,
        withoutNextBooking: 1,
        turnaround: { mean: 11, median: 11 },
      });
      expect(stats.distribution.map((bucket) => bucket.count)).toEqual([0, 0, 0, 0, 2]);
      expect(stats.busiestListings).toEqual([
        { listingId: fixture.listings.berlin, listingName: 'Berlin Loft', turnovers: 2, sameDay: 0 },
        { listingId: fixture.listings.boston, listingName: 'Boston House', turnovers: 1, sameDay: 0 },
      ]);
    });

    it('counts a back-to-back changeover and, when asked, the end of an owner stay', async () => {
      // April: s3 leaves Berlin 04-02 (nothing next), s4 leaves Lisbon 04-15 as e1 arrives (same day), e1
      // leaves 04-18 (nothing next). With owner stays the cabin's block ending 04-01 adds one.
      const stats = await analytics.getTurnoverStats(owner, april);
      expect(stats).toMatchObject({ turnovers: 3, sameDay: 1, sameDayRate: 0.3333, withoutNextBooking: 2 });
      const withOwners = await analytics.getTurnoverStats(owner, { ...april, includeOwnerStays: true });
      expect(withOwners).toMatchObject({ turnovers: 4, ownerStayTurnovers: 1, withoutNextBooking: 3 });
    });
  });

  describe('get_check_ins_check_outs', () => {
    it('counts arrivals, departures and stayovers per ISO week', async () => {
      const result = await analytics.getCheckInsCheckOuts(owner, {
        startDate: '2026-03-02',
        endDate: '2026-03-15',
        granularity: 'week',
      });
      // Week of 03-02: s7 arrives, s1 leaves; booked nights 03-02 (s1) + 7 (s4) + 03-07, 03-08 (s7) = 10, so
      // 10 − 1 arrival = 9 stayovers. Week of 03-09: s2 arrives; s7 and s2 leave; 7 (s4) + 03-09 (s7) +
      // 3 (s2) = 11 booked nights, 10 stayovers.
      expect(result.series).toEqual([
        {
          key: '2026-03-02',
          startDate: '2026-03-02',
          endDate: '2026-03-08',
          partial: false,
          arrivals: 1,
          departures: 1,
          stayovers: 9,
        },
        {
          key: '2026-03-09',
          startDate: '2026-03-09',
          endDate: '2026-03-15',
          partial: false,
          arrivals: 1,
          departures: 2,
          stayovers: 10,
        },
      ]);
      expect(result.totals).toEqual({ arrivals: 2, departures: 3, stayovers: 19 });
    });

    it('counts whole months from the derived tables as the days add up', async () => {
      // Whole monthly buckets are read from the stay and check-in facts, days from the reservations: each
      // month must be the sum of its days, with and without a channel filter.
      const quarter = { startDate: '2026-01-01', endDate: '2026-03-31' };
      for (const channel of [undefined, 'airbnb', 'booking'] as const) {
        const months = await analytics.getCheckInsCheckOuts(owner, {
          ...quarter,
          channel,
          granularity: 'month',
        });
        const days = await analytics.getCheckInsCheckOuts(owner, { ...quarter, channel, granularity: 'day' });
        const daysByMonth = new Map<string, { arrivals: number; departures: number; stayovers: number }>();
        for (const day of days.series) {
          const key = day.key.slice(0, 7);
          const sums = daysByMonth.get(key) ?? { arrivals: 0, departures: 0, stayovers: 0 };
          daysByMonth.set(key, {
            arrivals: sums.arrivals + day.arrivals,
            departures: sums.departures + day.departures,
            stayovers: sums.stayovers + day.stayovers,
          });
        }
        expect(
          months.series.map(({ key, arrivals, departures, stayovers }) => ({
            key,
            arrivals,
            departures,
            stayovers,
          })),
        ).toEqual([...daysByMonth].map(([key, sums]) => ({ key, ...sums })));
        expect(months.totals).toEqual(days.totals);
      }
      const all = await analytics.getCheckInsCheckOuts(owner, { ...quarter, granularity: 'month' });
      expect(all.totals.arrivals).toBeGreaterThan(0);
      expect(all.totals.departures).toBeGreaterThan(0);
      expect(all.totals.stayovers).toBeGreaterThan(0);
    });

    it('lists who arrives and leaves, by the day they do', async () => {
      const result = await analytics.getCheckInsCheckOuts(owner, { ...march, listReservations: true });
      expect(result.totals).toEqual({ arrivals: 3, departures: 3, stayovers: 43 - 3 });
      expect(result.reservations?.map((stay) => stay.reservationId)).toEqual([
        fixture.stays.s1,
        fixture.stays.s7,
        fixture.stays.s2,
        fixture.stays.s3,
      ]);
    });
  });

  describe('get_upcoming_reservations', () => {
    it('pages through the guests in house and the next arrivals', async () => {
      // In house: s4 (since 01-15). Arriving within 30 days of 03-16: s3 (03-28) and e1 (04-15, day 30).
      const first = await analytics.getUpcomingReservations(owner, { limit: 2 });
      expect(first.items.map((item) => [item.reservationId, item.daysUntilArrival, item.inHouse])).toEqual([
        [fixture.stays.s4, -60, true],
        [fixture.stays.s3, 12, false],
      ]);
      expect(first).toMatchObject({ inHouse: 1, arrivals: 2, hasMore: true });
      expect(first.items[1]).toMatchObject({ rent: 550, guestTotal: 610, payout: 527.5, currency: 'EUR' });
      const second = await analytics.getUpcomingReservations(owner, {
        limit: 2,
        cursor: first.nextCursor ?? '',
      });
      expect(
        second.items.map((item) => [item.reservationId, item.guestFirstName, item.daysUntilArrival]),
      ).toEqual([[e1, 'Eva', 30]]);
      expect(second.hasMore).toBe(false);
      const boston = await analytics.getUpcomingReservations(owner, {
        listingIds: [fixture.listings.boston],
      });
      expect(boston).toMatchObject({ items: [], inHouse: 0, arrivals: 0 });
    });
  });
});
