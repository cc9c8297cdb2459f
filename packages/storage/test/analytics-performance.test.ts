import { DomainError, newId } from '@innkeep/domain';
import type { AnalyticsUseCases } from '@innkeep/domain/analytics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/connection.ts';
import { createPostgresDomain } from '../src/create-domain.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { type AnalyticsFixture, buildAnalyticsFixture } from './support/analytics-fixture.ts';

// Expected figures are worked out by hand from the fixture (see buildAnalyticsFixture's comment). March 2026
// in a nutshell, amounts in minor units:
//
// Supply: 4 listings × 31 nights = 124 calendar nights. Blocks: Berlin maintenance 5–7 (3) and manual 24–25
// (2), Boston owner 12–14 (3), Cabin owner all 31 → owner 34, maintenance 3, manual 2, total 39; available
// 124 − 39 = 85. EUR listings (Berlin, Lisbon, Cabin): 93 calendar, 36 blocked, 57 available; USD (Boston):
// 31 calendar, 3 blocked, 28 available.
//
// Sold nights (accepted stays only):
// - s1 Berlin airbnb, Mar 1–2 of Feb 27→Mar 3: 2 nights, rent 12000 + 12000 = 24000, cleaning 5000 / 4 = 1250
//   a night → 2500, channel fee 6820 / 4 = 1705 → 3410, payout 42180 / 4 = 10545 → 21090.
// - s2 Berlin direct, Mar 10–12: 3 nights, rent 27000, fees 5000, payout 32000.
// - s3 Berlin booking, Mar 28–31 of Mar 28→Apr 2: 4 nights, rent 44000, cleaning 6000 / 5 = 1200 → 4800,
//   channel fee 8250 / 5 = 1650 → 6600, payout 52750 / 5 = 10550 → 42200.
// - s4 Lisbon vrbo, all 31 nights (of 90 from Jan 15): rent 31 × 5000 = 155000; cleaning 10000 / 90 = 111 rest
//   10 (the first 10 nights, in January, take 112) → 31 × 111 = 3441; channel fee 23000 / 90 = 255 rest 50
//   (nights 1–50 take 256: Jan 15 … Mar 5) → 5 × 256 + 26 × 255 = 7910; payout 437000 / 90 = 4855 rest 50 →
//   5 × 4856 + 26 × 4855 = 150510.
// - s7 Boston direct (USD), Mar 7–9: 3 nights, rent 20000 + 20000 + 22000 = 62000, fees 7500, payout 69500.
// EUR: 40 nights, rent 250000, fees 15741, total 265741, channel fees 17920, net 247821, payout 245800.
// USD: 3 nights, rent 62000, fees 7500, total 69500, channel fees 0, payout 69500. Booked: 43 nights.

const march = { startDate: '2026-03-01', endDate: '2026-03-31' };

describe.each(testDatabaseKinds)('performance analytics on %s', (kind) => {
  let handle: DatabaseHandle;
  let fixture: AnalyticsFixture;
  let analytics: AnalyticsUseCases;
  let cityFlatsGroup: string;
  let everythingGroup: string;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    fixture = await buildAnalyticsFixture(handle.db);
    analytics = createPostgresDomain({ db: handle.db, clock: { now: () => fixture.now } }).analytics;
    cityFlatsGroup = newId('listingGroup');
    everythingGroup = newId('listingGroup');
    const { accountId } = fixture.account;
    await handle.db
      .insertInto('listing_groups')
      .values([
        { id: cityFlatsGroup, account_id: accountId, name: 'City flats' },
        { id: everythingGroup, account_id: accountId, name: 'Everything' },
      ])
      .execute();
    const { berlin, lisbon, boston, cabin } = fixture.listings;
    await handle.db
      .insertInto('listing_group_members')
      .values([
        { group_id: cityFlatsGroup, listing_id: berlin },
        { group_id: cityFlatsGroup, listing_id: lisbon },
        ...[berlin, lisbon, boston, cabin].map((id) => ({ group_id: everythingGroup, listing_id: id })),
      ])
      .execute();
  }, 180_000);
  afterAll(async () => handle?.close());

  const owner = () => fixture.account.owner;

  describe('get_occupancy_stats', () => {
    it('takes blocked nights out of the calendar and divides booked by available nights', async () => {
      const stats = await analytics.getOccupancyStats(owner(), {
        ...march,
        compareTo: ['previous_period', 'same_period_last_year'],
      });
      expect(stats).toMatchObject({
        listings: 4,
        calendarNights: 124,
        blockedNights: { owner: 34, maintenance: 3, manual: 2, total: 39 },
        availableNights: 85,
        bookedNights: 43,
        occupancy: 0.5059, // 43 / 85 = 0.50588
        grossOccupancy: 0.3468, // 43 / 124 = 0.34677
        nullReasons: {},
      });
      expect(stats.meta.notes.join(' ')).toContain('from the day it became active');
      // Previous period: Jan 29 – Feb 28 (31 nights), no blocks; s4 31 nights + s1 Feb 27, 28 = 33.
      // Last year: March 2025; only s12, Mar 10–13 2025 = 4 nights.
      const [previous, lastYear] = stats.comparisons;
      expect(previous).toMatchObject({
        kind: 'previous_period',
        period: { startDate: '2026-01-29', endDate: '2026-02-28', nights: 31 },
        availableNights: 124,
        bookedNights: 33,
        occupancy: 0.2661, // 33 / 124 = 0.26613
        changes: {
          bookedNights: { absolute: 10, relative: 0.303, nullReasons: {} }, // (43 − 33) / 33 = 0.30303
          occupancy: { absolute: 0.2398, relative: 0.9012, nullReasons: {} }, // 0.5059 − 0.2661; / 0.2661
        },
      });
      expect(lastYear).toMatchObject({
        kind: 'same_period_last_year',
        period: { startDate: '2025-03-01', endDate: '2025-03-31', nights: 31 },
        bookedNights: 4,
        occupancy: 0.0323, // 4 / 124 = 0.03226
      });
    });

    it('gives a fully blocked listing null occupancy with its reason, not 0 %', async () => {
      // Cabin: 31 calendar nights, all owner-blocked → 0 available; booked 0 / calendar 31 = 0 gross.
      const stats = await analytics.getOccupancyStats(owner(), {
        ...march,
        listingIds: [fixture.listings.cabin],
      });
      expect(stats).toMatchObject({
        listings: 1,
        calendarNights: 31,
        blockedNights: { owner: 31, maintenance: 0, manual: 0, total: 31 },
        availableNights: 0,
        bookedNights: 0,
        occupancy: null,
        grossOccupancy: 0,
        nullReasons: { occupancy: 'no_available_nights' },
      });
    });

    it('counts only the channel’s booked nights against the whole supply under a channel filter', async () => {
      // vrbo: s4's 31 nights / 85 available = 0.36471.
      const stats = await analytics.getOccupancyStats(owner(), { ...march, channel: 'vrbo' });
      expect(stats).toMatchObject({ availableNights: 85, bookedNights: 31, occupancy: 0.3647 });
      expect(stats.meta.channel).toBe('vrbo');
      expect(stats.meta.notes.join(' ')).toContain('available nights are the whole supply');
    });

    it('clips stays and blocks to a period inside them', async () => {
      // Mar 30 – Apr 1 (3 nights): Berlin s3 Mar 30, 31, Apr 1 (3); Lisbon s4 (3); Cabin blocked Mar 30, 31 (2);
      // calendar 4 × 3 = 12, available 10, booked 6.
      const stats = await analytics.getOccupancyStats(owner(), {
        startDate: '2026-03-30',
        endDate: '2026-04-01',
      });
      expect(stats).toMatchObject({
        calendarNights: 12,
        blockedNights: { owner: 2, total: 2 },
        availableNights: 10,
        bookedNights: 6,
        occupancy: 0.6,
      });
    });
  });

  describe('get_revenue_stats', () => {
    it('reports every revenue basis per currency and per channel, never adding currencies', async () => {
      const stats = await analytics.getRevenueStats(owner(), march);
      expect(stats.meta.currencies).toEqual(['EUR', 'USD']);
      expect(stats.currencies).toEqual([
        {
          currency: 'EUR',
          bookedNights: 40,
          accommodationRevenue: 2500,
          fees: 157.41,
          totalRevenue: 2657.41,
          channelFees: 179.2,
          netRevenue: 2478.21,
          payout: 2458,
        },
        {
          currency: 'USD',
          bookedNights: 3,
          accommodationRevenue: 620,
          fees: 75,
          totalRevenue: 695,
          channelFees: 0,
          netRevenue: 695,
          payout: 695,
        },
      ]);
      // Shares of EUR total revenue 265741: airbnb 26500 → 0.09972, booking 48800 → 0.18364,
      // direct 32000 → 0.12042, vrbo 158441 → 0.59622; USD is all direct.
      expect(
        stats.byChannel.map(({ channel, currency, bookedNights, totalRevenue, shareOfTotalRevenue }) => ({
          channel,
          currency,
          bookedNights,
          totalRevenue,
          shareOfTotalRevenue,
        })),
      ).toEqual([
        {
          channel: 'airbnb',
          currency: 'EUR',
          bookedNights: 2,
          totalRevenue: 265,
          shareOfTotalRevenue: 0.0997,
        },
        {
          channel: 'booking',
          currency: 'EUR',
          bookedNights: 4,
          totalRevenue: 488,
          shareOfTotalRevenue: 0.1836,
        },
        {
          channel: 'direct',
          currency: 'EUR',
          bookedNights: 3,
          totalRevenue: 320,
          shareOfTotalRevenue: 0.1204,
        },
        {
          channel: 'vrbo',
          currency: 'EUR',
          bookedNights: 31,
          totalRevenue: 1584.41,
          shareOfTotalRevenue: 0.5962,
        },
        { channel: 'direct', currency: 'USD', bookedNights: 3, totalRevenue: 695, shareOfTotalRevenue: 1 },
      ]);
      expect(stats.comparisons).toEqual([]);
    });

    it('compares with last year per currency, with a null relative change on a zero baseline', async () => {
      // March 2025: s12 only, rent 38000, cleaning 5000, channel fee 5890. EUR rent 2500 − 380 = +2120,
      // 2120 / 380 = 5.57895; USD had nothing last year.
      const stats = await analytics.getRevenueStats(owner(), {
        ...march,
        compareTo: ['same_period_last_year'],
      });
      const [lastYear] = stats.comparisons;
      expect(lastYear?.currencies).toEqual([
        {
          currency: 'EUR',
          bookedNights: 4,
          accommodationRevenue: 380,
          fees: 50,
          totalRevenue: 430,
          channelFees: 58.9,
          netRevenue: 371.1,
          payout: 371.1,
        },
        {
          currency: 'USD',
          bookedNights: 0,
          accommodationRevenue: 0,
          fees: 0,
          totalRevenue: 0,
          channelFees: 0,
          netRevenue: 0,
          payout: 0,
        },
      ]);
      expect(lastYear?.changes[0]?.accommodationRevenue).toEqual({
        absolute: 2120,
        relative: 5.5789,
        nullReasons: {},
      });
      expect(lastYear?.changes[1]?.accommodationRevenue).toEqual({
        absolute: 620,
        relative: null,
        nullReasons: { relative: 'no_baseline' },
      });
    });
  });

  describe('get_adr_stats', () => {
    it('divides rent by booked nights, with the median and the weekday/weekend split', async () => {
      const stats = await analytics.getAdrStats(owner(), march);
      expect(stats.revenueBasis).toBe('accommodation');
      // EUR 250000 / 40 = 6250. Median of 40 nights (31 at 5000, 3 at 9000, 4 at 11000, 2 at 12000) = 5000.
      // Weekend (Fri, Sat nights: 6, 7, 13, 14, 20, 21, 27, 28): s3 Mar 28 11000 + s4 8 × 5000 = 51000 / 9 =
      // 5666.67; weekdays 250000 − 51000 = 199000 / 31 = 6419.35.
      // USD: 62000 / 3 = 20666.67; median 20000; weekend Sat Mar 7 20000; weekdays (20000 + 22000) / 2.
      expect(stats.currencies).toEqual([
        {
          currency: 'EUR',
          bookedNights: 40,
          revenue: 2500,
          adr: 62.5,
          medianNightlyRate: 50,
          weekdayAdr: 64.19,
          weekendAdr: 56.67,
          nullReasons: {},
        },
        {
          currency: 'USD',
          bookedNights: 3,
          revenue: 620,
          adr: 206.67,
          medianNightlyRate: 200,
          weekdayAdr: 210,
          weekendAdr: 200,
          nullReasons: {},
        },
      ]);
      // airbnb 24000 / 2, booking 44000 / 4, direct 27000 / 3, vrbo 155000 / 31; USD direct 62000 / 3.
      expect(stats.byChannel.map(({ channel, currency, adr }) => [channel, currency, adr])).toEqual([
        ['airbnb', 'EUR', 120],
        ['booking', 'EUR', 110],
        ['direct', 'EUR', 90],
        ['vrbo', 'EUR', 50],
        ['direct', 'USD', 206.67],
      ]);
    });

    it('switches the numerator with revenueBasis and leaves the nightly detail out of long periods', async () => {
      // Total basis: EUR 265741 / 40 = 6643.53 → 66.44; USD 69500 / 3 = 23166.67 → 231.67.
      const total = await analytics.getAdrStats(owner(), { ...march, revenueBasis: 'total' });
      expect(total.currencies.map(({ currency, revenue, adr }) => [currency, revenue, adr])).toEqual([
        ['EUR', 2657.41, 66.44],
        ['USD', 695, 231.67],
      ]);
      // Jan 1 – Apr 30 is 120 nights, over the 93 the nightly detail allows.
      const long = await analytics.getAdrStats(owner(), { startDate: '2026-01-01', endDate: '2026-04-30' });
      expect(long.currencies[0]).not.toHaveProperty('medianNightlyRate');
      expect(long.meta.notes.join(' ')).toContain('left out for periods over 93 nights');
    });
  });

  describe('get_revpar_stats', () => {
    it('divides each currency’s revenue by the available nights of the listings priced in it', async () => {
      const stats = await analytics.getRevparStats(owner(), march);
      expect(stats).toMatchObject({ availableNights: 85, bookedNights: 43, occupancy: 0.5059 });
      // EUR: 250000 / 57 = 4385.96 → 43.86 = ADR 62.50 × occupancy 40 / 57 (0.7018) = 43.86; gross
      // 250000 / 93 = 26.88. USD: 62000 / 28 = 22.14 ≈ 206.67 × 3 / 28 (0.1071) = 22.13; gross 62000 / 31 = 20.
      expect(stats.currencies).toEqual([
        {
          currency: 'EUR',
          listings: 3,
          calendarNights: 93,
          availableNights: 57,
          bookedNights: 40,
          occupancy: 0.7018,
          revenue: 2500,
          adr: 62.5,
          revpar: 43.86,
          grossRevpar: 26.88,
          nullReasons: {},
        },
        {
          currency: 'USD',
          listings: 1,
          calendarNights: 31,
          availableNights: 28,
          bookedNights: 3,
          occupancy: 0.1071,
          revenue: 620,
          adr: 206.67,
          revpar: 22.14,
          grossRevpar: 20,
          nullReasons: {},
        },
      ]);
    });

    it('is null with no_available_nights for a fully blocked listing', async () => {
      const stats = await analytics.getRevparStats(owner(), {
        ...march,
        listingIds: [fixture.listings.cabin],
      });
      expect(stats.currencies).toEqual([
        expect.objectContaining({
          currency: 'EUR',
          availableNights: 0,
          revpar: null,
          adr: null,
          nullReasons: {
            occupancy: 'no_available_nights',
            adr: 'no_booked_nights',
            revpar: 'no_available_nights',
          },
        }),
      ]);
    });
  });

  describe('get_headline_kpis', () => {
    it('bundles the KPIs with the previous period and last year by default', async () => {
      const kpis = await analytics.getHeadlineKpis(owner(), march);
      expect(kpis.comparisonPeriods).toEqual({
        previousPeriod: { startDate: '2026-01-29', endDate: '2026-02-28', nights: 31 },
        samePeriodLastYear: { startDate: '2025-03-01', endDate: '2025-03-31', nights: 31 },
      });
      expect(kpis.occupancy).toEqual({
        value: 0.5059,
        previousPeriod: { value: 0.2661, change: 0.2398, relativeChange: 0.9012 },
        samePeriodLastYear: { value: 0.0323, change: 0.4736, relativeChange: 14.6625 },
        nullReasons: {},
      });
      // Check-in cohort of March: s2 (Mar 10, booked Mar 1: 9 days ahead), s7 (Mar 7, booked Mar 6 in Boston:
      // 1 day), s3 (Mar 28, booked Feb 10: 46 days); cancelled s6 (Mar 15) and s8 (Mar 20).
      // Stays 3 + 3 + 5 = 11 nights → 11 / 3 = 3.67; lead (9 + 1 + 46) / 3 = 18.67, median 9; 2 / 5 cancelled.
      // Previous period: s1 (Feb 27, 4 nights, booked Jan 20: 38 days). Last year: s12 (4 nights, 37 days).
      expect(kpis.checkIns).toMatchObject({
        value: 3,
        previousPeriod: { value: 1, change: 2, relativeChange: 2 },
      });
      expect(kpis.averageLengthOfStay.value).toBe(3.67);
      expect(kpis.averageLeadTimeDays).toMatchObject({
        value: 18.67,
        previousPeriod: { value: 38, change: -19.33 },
        samePeriodLastYear: { value: 37, change: -18.33 },
      });
      expect(kpis.medianLeadTimeDays.value).toBe(9);
      expect(kpis.cancellationRate).toEqual({
        value: 0.4,
        previousPeriod: { value: 0, change: 0.4, relativeChange: null },
        samePeriodLastYear: { value: 0, change: 0.4, relativeChange: null },
        nullReasons: {
          'previousPeriod.relativeChange': 'no_baseline',
          'samePeriodLastYear.relativeChange': 'no_baseline',
        },
      });
      // EUR ADR: 62.50 now; previous 175000 / 33 = 5303.03 → 53.03; last year 38000 / 4 = 95.
      // EUR RevPAR: 43.86 now; previous 175000 / 93 = 18.82; last year 38000 / 93 = 4.09.
      const [euro, dollar] = kpis.currencies;
      expect(euro?.adr).toMatchObject({
        value: 62.5,
        previousPeriod: { value: 53.03, change: 9.47 },
        samePeriodLastYear: { value: 95, change: -32.5, relativeChange: -0.3421 },
      });
      expect(euro?.revpar).toMatchObject({
        value: 43.86,
        previousPeriod: { value: 18.82 },
        samePeriodLastYear: { value: 4.09 },
      });
      // Total revenue previous: rent 175000 + fees (s4 31 × 111 + s1 2 × 1250 = 5941) = 180941.
      expect(euro?.totalRevenue).toMatchObject({
        value: 2657.41,
        previousPeriod: { value: 1809.41, change: 848 },
      });
      // No USD stays before March: the comparisons' ADR is null, and so are its changes.
      expect(dollar?.adr).toEqual({
        value: 206.67,
        previousPeriod: { value: null, change: null, relativeChange: null },
        samePeriodLastYear: { value: null, change: null, relativeChange: null },
        nullReasons: {
          'previousPeriod.value': 'no_booked_nights',
          'previousPeriod.change': 'no_booked_nights',
          'previousPeriod.relativeChange': 'no_baseline',
          'samePeriodLastYear.value': 'no_booked_nights',
          'samePeriodLastYear.change': 'no_booked_nights',
          'samePeriodLastYear.relativeChange': 'no_baseline',
        },
      });
    });

    it('narrows the comparisons with compareTo', async () => {
      const kpis = await analytics.getHeadlineKpis(owner(), { ...march, compareTo: [] });
      expect(kpis.comparisonPeriods).toEqual({});
      expect(kpis.bookedNights).toEqual({ value: 43, nullReasons: {} });
    });
  });

  describe('get_timeseries_stats', () => {
    it('flags partial months, and the buckets add up to the period', async () => {
      const series = await analytics.getTimeseriesStats(owner(), {
        startDate: '2026-02-15',
        endDate: '2026-04-10',
        compareToLastYear: true,
      });
      // Feb 15–28: s4 14 nights + s1 Feb 27, 28 = 16; rent 70000 + 20000 = 90000; 4 × 14 = 56 available.
      // April 1–10: s3 Apr 1 (11000) + s4 10 nights (50000) = 11 nights, 61000; 40 available.
      expect(
        series.buckets.map((bucket) => [bucket.key, bucket.partial, bucket.nights, bucket.bookedNights]),
      ).toEqual([
        ['2026-02', true, 14, 16],
        ['2026-03', false, 31, 43],
        ['2026-04', true, 10, 11],
      ]);
      expect(series.buckets[0]).toMatchObject({
        startDate: '2026-02-15',
        endDate: '2026-02-28',
        occupancy: 0.2857, // 16 / 56
        currencies: [
          { currency: 'EUR', adr: 56.25, revpar: 21.43, accommodationRevenue: 900 }, // 90000 / 16; / 42
          {
            currency: 'USD',
            adr: null,
            revpar: 0,
            accommodationRevenue: 0,
            nullReasons: { adr: 'no_booked_nights' },
          },
        ],
      });
      expect(series.buckets[2]).toMatchObject({ occupancy: 0.275 }); // 11 / 40
      // Last year's March: s12's 4 nights; the other months of 2025 had none.
      expect(series.buckets.map((bucket) => bucket.lastYear?.bookedNights)).toEqual([0, 4, 0]);
      expect(series.buckets[1]?.lastYear).toMatchObject({ startDate: '2025-03-01', endDate: '2025-03-31' });

      const totals = await analytics.getRevenueStats(owner(), {
        startDate: '2026-02-15',
        endDate: '2026-04-10',
      });
      const bucketNights = series.buckets.reduce((sum, bucket) => sum + (bucket.bookedNights ?? 0), 0);
      expect(bucketNights).toBe(16 + 43 + 11);
      expect(totals.currencies.reduce((sum, entry) => sum + entry.bookedNights, 0)).toBe(bucketNights);
    });

    it('counts each night once on its local date across daylight-saving changes', async () => {
      // Boston s7 Mar 7, 8 (US DST starts that Sunday), 9; Berlin s3 Mar 28, 29 (EU DST), 30, 31.
      const boston = await analytics.getTimeseriesStats(owner(), {
        startDate: '2026-03-06',
        endDate: '2026-03-10',
        granularity: 'day',
        metrics: ['bookedNights'],
        listingIds: [fixture.listings.boston],
      });
      expect(boston.buckets.map((bucket) => [bucket.key, bucket.bookedNights])).toEqual([
        ['2026-03-06', 0],
        ['2026-03-07', 1],
        ['2026-03-08', 1],
        ['2026-03-09', 1],
        ['2026-03-10', 0],
      ]);
      const berlin = await analytics.getTimeseriesStats(owner(), {
        startDate: '2026-03-27',
        endDate: '2026-03-31',
        granularity: 'day',
        metrics: ['bookedNights', 'occupancy'],
        listingIds: [fixture.listings.berlin],
      });
      expect(berlin.buckets.map((bucket) => bucket.bookedNights)).toEqual([0, 1, 1, 1, 1]);
    });

    it('puts ISO weeks side by side with the weeks 364 days earlier', async () => {
      // March 2026 starts on a Sunday: the first bucket is the week of Monday Feb 23, cut to Mar 1.
      // Week of Mar 2: s1 Mar 2 + s4 7 + s7 Mar 7, 8 = 10 booked; 28 − Berlin maintenance 3 − Cabin 7 = 18.
      // 364 days earlier, Mar 3–9 2025, had no stays; Mar 10–16 2025 holds s12's 4 nights.
      const series = await analytics.getTimeseriesStats(owner(), {
        ...march,
        granularity: 'week',
        metrics: ['bookedNights', 'occupancy'],
        compareToLastYear: true,
      });
      expect(series.buckets.map((bucket) => [bucket.key, bucket.partial])).toEqual([
        ['2026-02-23', true],
        ['2026-03-02', false],
        ['2026-03-09', false],
        ['2026-03-16', false],
        ['2026-03-23', false],
        ['2026-03-30', true],
      ]);
      expect(series.buckets[1]).toMatchObject({ bookedNights: 10, occupancy: 0.5556 });
      expect(series.buckets[1]?.lastYear).toMatchObject({ startDate: '2025-03-03', endDate: '2025-03-09' });
      expect(series.buckets.map((bucket) => bucket.lastYear?.bookedNights)).toEqual([0, 0, 4, 0, 0, 0]);
    });

    it('refuses more buckets than a granularity allows, pointing to a coarser one', async () => {
      // Jan 1 – Apr 30 is 120 days, over the 92 a day series may have.
      const refused = analytics.getTimeseriesStats(owner(), {
        startDate: '2026-01-01',
        endDate: '2026-04-30',
        granularity: 'day',
      });
      await expect(refused).rejects.toMatchObject({ code: 'invalid_argument' });
      await expect(refused).rejects.toThrow(
        /at most 92 buckets; this period has 120\. Use granularity week or month/,
      );
    });
  });

  describe('get_listing_breakdown_stats', () => {
    it('ranks listings by occupancy with nulls last, bounded, beside the scope’s totals', async () => {
      const breakdown = await analytics.getListingBreakdownStats(owner(), { ...march, limit: 3 });
      // Lisbon 31 / 31 = 1; Berlin 9 / (31 − 5) = 0.34615; Boston 3 / 28 = 0.10714; Cabin null (0 available).
      expect(breakdown.rows.map((row) => [row.name, row.occupancy])).toEqual([
        ['Lisbon Flat', 1],
        ['Berlin Loft', 0.3462],
        ['Boston House', 0.1071],
      ]);
      expect(breakdown).toMatchObject({ by: 'listing', sortBy: 'occupancy', order: 'desc', totalRows: 4 });
      expect(breakdown.truncated).toBe(true);
      expect(breakdown.totals).toMatchObject({
        listings: 4,
        calendarNights: 124,
        availableNights: 85,
        bookedNights: 43,
        occupancy: 0.5059,
      });
      // Berlin: rent 24000 + 27000 + 44000 = 95000 over 9 nights (105.56) and 26 available (36.54); fees
      // 2500 + 5000 + 4800 = 12300 → total 107300.
      expect(breakdown.rows[1]).toEqual({
        id: fixture.listings.berlin,
        name: 'Berlin Loft',
        listings: 1,
        calendarNights: 31,
        blockedNights: 5,
        availableNights: 26,
        bookedNights: 9,
        occupancy: 0.3462,
        grossOccupancy: 0.2903,
        currencies: [
          {
            currency: 'EUR',
            availableNights: 26,
            bookedNights: 9,
            accommodationRevenue: 950,
            totalRevenue: 1073,
            adr: 105.56,
            revpar: 36.54,
            nullReasons: {},
          },
        ],
        nullReasons: {},
      });
    });

    it('sorts money within each currency', async () => {
      // EUR RevPAR: Lisbon 155000 / 31 = 50, Berlin 36.54, Cabin null; then USD: Boston 22.14.
      const breakdown = await analytics.getListingBreakdownStats(owner(), { ...march, sortBy: 'revpar' });
      expect(breakdown.rows.map((row) => [row.name, row.currencies[0]?.revpar])).toEqual([
        ['Lisbon Flat', 50],
        ['Berlin Loft', 36.54],
        ['Owner Cabin', null],
        ['Boston House', 22.14],
      ]);
      expect(breakdown.truncated).toBe(false);
    });

    it('adds up a group’s listings as a ratio of sums', async () => {
      // City flats = Berlin + Lisbon: 62 calendar, 5 blocked, 57 available, 9 + 31 = 40 booked → 0.70175;
      // rent 95000 + 155000 = 250000 → ADR 62.50, RevPAR 250000 / 57 = 43.86.
      // Everything = all four listings = the totals: 43 / 85.
      const breakdown = await analytics.getListingBreakdownStats(owner(), { ...march, by: 'group' });
      expect(
        breakdown.rows.map((row) => [
          row.id,
          row.listings,
          row.availableNights,
          row.bookedNights,
          row.occupancy,
        ]),
      ).toEqual([
        [cityFlatsGroup, 2, 57, 40, 0.7018],
        [everythingGroup, 4, 85, 43, 0.5059],
      ]);
      expect(breakdown.rows[0]?.currencies).toEqual([
        expect.objectContaining({ currency: 'EUR', accommodationRevenue: 2500, adr: 62.5, revpar: 43.86 }),
      ]);
      expect(breakdown.rows[1]?.currencies.map((entry) => entry.currency)).toEqual(['EUR', 'USD']);
    });
  });

  describe('get_channel_performance', () => {
    it('gives each channel its volume, shares, net ADR, commission and check-in cohort', async () => {
      const performance = await analytics.getChannelPerformance(owner(), march);
      expect(performance.totals).toEqual({
        reservations: 3,
        bookedNights: 43,
        currencies: [
          { currency: 'EUR', totalRevenue: 2657.41 },
          { currency: 'USD', totalRevenue: 695 },
        ],
      });
      // Most nights first: vrbo 31, direct 6 (3 EUR + 3 USD), booking 4, airbnb 2 of 43.
      expect(performance.channels.map((row) => [row.channel, row.bookedNights, row.nightShare])).toEqual([
        ['vrbo', 31, 0.7209],
        ['direct', 6, 0.1395],
        ['booking', 4, 0.093],
        ['airbnb', 2, 0.0465],
      ]);
      const [vrbo, direct, booking, airbnb] = performance.channels;
      // booking: total 48800, channel fees 6600 → commission 0.13525; the rent's part of the fees is
      // 6600 × 44000 / 48800 = 5951 → net ADR (44000 − 5951) / 4 = 95.12. s3 is its one check-in: 5 nights,
      // 46 days ahead.
      expect(booking).toMatchObject({
        reservations: 1,
        averageLengthOfStay: 5,
        averageLeadTimeDays: 46,
        medianLeadTimeDays: 46,
        cancellationRate: 0,
        currencies: [
          {
            currency: 'EUR',
            accommodationRevenue: 440,
            totalRevenue: 488,
            channelFees: 66,
            netRevenue: 422,
            revenueShare: 0.1836,
            adr: 110,
            netAdr: 95.12,
            effectiveCommission: 0.1352,
            nullReasons: {},
          },
        ],
      });
      // vrbo: no check-in in March (s4 arrived in January): cohort figures null, nights still count.
      // Net ADR: 7910 × 155000 / 158441 = 7738 → (155000 − 7738) / 31 = 4750.39 → 47.50.
      expect(vrbo).toMatchObject({
        reservations: 0,
        averageLengthOfStay: null,
        cancellationRate: null,
        currencies: [{ currency: 'EUR', adr: 50, netAdr: 47.5, effectiveCommission: 0.0499 }],
        nullReasons: { averageLengthOfStay: 'no_reservations', cancellationRate: 'no_reservations' },
      });
      // direct: s2 (3 nights, 9 days) and s7 (3 nights, 1 day) checked in; s8 was cancelled → 1 / 3.
      expect(direct).toMatchObject({
        reservations: 2,
        averageLengthOfStay: 3,
        averageLeadTimeDays: 5,
        cancelledReservations: 1,
        cancellationRate: 0.3333,
      });
      expect(direct?.currencies.map((entry) => [entry.currency, entry.netAdr, entry.revenueShare])).toEqual([
        ['EUR', 90, 0.1204],
        ['USD', 206.67, 1],
      ]);
      // airbnb: s6 (due Mar 15) was cancelled and nothing checked in → 1 / 1. Net ADR: 3410 × 24000 / 26500 =
      // 3088 → (24000 − 3088) / 2 = 104.56.
      expect(airbnb).toMatchObject({
        reservations: 0,
        cancelledReservations: 1,
        cancellationRate: 1,
        currencies: [{ currency: 'EUR', adr: 120, netAdr: 104.56, effectiveCommission: 0.1287 }],
      });
    });

    it('keeps shares against all channels when one channel is asked for', async () => {
      const performance = await analytics.getChannelPerformance(owner(), { ...march, channel: 'booking' });
      expect(performance.channels.map((row) => [row.channel, row.nightShare])).toEqual([['booking', 0.093]]);
      expect(performance.totals.bookedNights).toBe(43);
    });
  });

  describe('input and scope', () => {
    it('answers not_found for a listing outside the account', async () => {
      await expect(
        analytics.getOccupancyStats(owner(), { ...march, listingIds: ['lst_does_not_exist'] }),
      ).rejects.toMatchObject({ code: 'not_found' });
    });

    it('refuses a period that ends before it starts', async () => {
      const refused = analytics.getHeadlineKpis(owner(), { startDate: '2026-03-31', endDate: '2026-03-01' });
      await expect(refused).rejects.toBeInstanceOf(DomainError);
      await expect(refused).rejects.toMatchObject({ code: 'invalid_argument' });
    });
  });
});
