import { addDays, currencyExponent, daysBetween, maxDate, minDate } from '@innkeep/domain';
import type { AnalyticsUseCases } from '@innkeep/domain/analytics';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/connection.ts';
import { createPostgresDomain } from '../src/create-domain.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import {
  buildRandomPortfolio,
  type Random,
  type RandomPortfolio,
  randomPeriod,
  seededRandom,
} from './support/analytics-random.ts';

// Properties that must hold for any data, checked on a seeded random portfolio (three currencies, stays and
// blocks of every length, edge-crossing stays) over random periods. A failure names its seed and period.

const seed = 20_261_124;
const periods = 12;

/** An amount in major units back in exact minor units. */
const minor = (amount: number, currency: string) => Math.round(amount * 10 ** currencyExponent(currency));

/** The nights of [startDate, endDate) inside the inclusive period. */
function overlap(startDate: string, endDate: string, period: { startDate: string; endDate: string }): number {
  const from = maxDate(startDate, period.startDate);
  const to = minDate(addDays(endDate, -1), period.endDate);
  return Math.max(0, daysBetween(from, to) + 1);
}

describe.each(testDatabaseKinds)('performance analytics properties on %s', (kind) => {
  let handle: DatabaseHandle;
  let portfolio: RandomPortfolio;
  let analytics: AnalyticsUseCases;
  let random: Random;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    portfolio = await buildRandomPortfolio(handle.db, seed, { listings: 4 });
    analytics = createPostgresDomain({ db: handle.db, clock: { now: () => new Date() } }).analytics;
    random = seededRandom(seed + 1);
  }, 120_000);
  afterAll(async () => handle?.close());

  const owner = () => portfolio.account.owner;
  const accepted = () => portfolio.stays.filter((stay) => stay.status === 'accepted');

  it('adds the pro-rated money up to the reservations’ totals exactly', async () => {
    const everything = {
      startDate: addDays(portfolio.range.startDate, -1),
      endDate: portfolio.range.endDate,
    };
    const revenue = await analytics.getRevenueStats(owner(), everything);
    const expected = new Map<
      string,
      { nights: number; rent: number; fees: number; commission: number; payout: number }
    >();
    for (const stay of accepted()) {
      const sums = expected.get(stay.currency) ?? { nights: 0, rent: 0, fees: 0, commission: 0, payout: 0 };
      sums.nights += stay.nightly.length;
      sums.rent += stay.accommodation;
      sums.fees += stay.fees;
      sums.commission += stay.channelFees;
      sums.payout += stay.payoutMinor;
      expected.set(stay.currency, sums);
    }
    expect(revenue.currencies.map((entry) => entry.currency)).toEqual([...expected.keys()].sort());
    for (const entry of revenue.currencies) {
      const sums = expected.get(entry.currency);
      expect({
        nights: entry.bookedNights,
        rent: minor(entry.accommodationRevenue, entry.currency),
        fees: minor(entry.fees, entry.currency),
        commission: minor(entry.channelFees, entry.currency),
        payout: minor(entry.payout, entry.currency),
      }).toEqual(sums);
    }
  });

  it('counts any period’s supply, nights and money like the stays and blocks say, whole months or not', async () => {
    for (let index = 0; index < periods; index += 1) {
      const period = randomPeriod(random, portfolio.range, 400);
      const nights = daysBetween(period.startDate, period.endDate) + 1;
      const blocked = { owner: 0, maintenance: 0, manual: 0 };
      for (const block of portfolio.blocks)
        blocked[block.reason] += overlap(block.startDate, block.endDate, period);
      const rent = new Map<string, { nights: number; rent: number }>();
      for (const stay of accepted()) {
        const sums = rent.get(stay.currency) ?? { nights: 0, rent: 0 };
        stay.nightly.forEach((amount, night) => {
          const date = addDays(stay.startDate, night);
          if (date >= period.startDate && date <= period.endDate) {
            sums.nights += 1;
            sums.rent += amount;
          }
        });
        rent.set(stay.currency, sums);
      }
      const booked = [...rent.values()].reduce((total, sums) => total + sums.nights, 0);
      const calendar = portfolio.listings.length * nights;
      const blockedTotal = blocked.owner + blocked.maintenance + blocked.manual;

      const occupancy = await analytics.getOccupancyStats(owner(), period);
      expect({ period, ...occupancy, meta: undefined }).toMatchObject({
        period,
        calendarNights: calendar,
        blockedNights: { ...blocked, total: blockedTotal },
        availableNights: calendar - blockedTotal,
        bookedNights: booked,
      });

      // Money: the roll-up path (whole months from stay_month_facts) against the nightly facts alone.
      const { rows: nightly } = await sql<{
        currency: string;
        nights: number;
        rent: number;
        fees: number;
        commission: number;
        payout: number;
      }>`
        select currency, count(*)::integer as nights, sum(accommodation_minor)::bigint as rent,
          sum(fees_minor)::bigint as fees, sum(channel_fees_minor)::bigint as commission,
          sum(payout_minor)::bigint as payout
        from stay_night_facts
        where account_id = ${portfolio.account.accountId}
          and night between ${period.startDate}::date and ${period.endDate}::date
        group by currency order by currency`.execute(handle.db);
      const revenue = await analytics.getRevenueStats(owner(), period);
      expect({
        period,
        currencies: revenue.currencies.map((entry) => ({
          currency: entry.currency,
          nights: entry.bookedNights,
          rent: minor(entry.accommodationRevenue, entry.currency),
          fees: minor(entry.fees, entry.currency),
          commission: minor(entry.channelFees, entry.currency),
          payout: minor(entry.payout, entry.currency),
        })),
      }).toEqual({ period, currencies: nightly });
      for (const row of nightly) {
        expect({ period, currency: row.currency, nights: row.nights, rent: row.rent }).toEqual({
          period,
          currency: row.currency,
          ...rent.get(row.currency),
        });
      }
    }
  });

  it('keeps RevPAR = ADR × occupancy in every currency, up to rounding', async () => {
    for (let index = 0; index < periods; index += 1) {
      const period = randomPeriod(random, portfolio.range, 400);
      const revenueBasis = random.pick(['accommodation', 'total', 'net', 'payout'] as const);
      const stats = await analytics.getRevparStats(owner(), { ...period, revenueBasis });
      for (const entry of stats.currencies) {
        if (entry.adr === null || entry.occupancy === null || entry.revpar === null) continue;
        // RevPAR and ADR are each rounded to the minor unit (±½), occupancy to 4 decimals (± 0.00005).
        const unit = 10 ** -currencyExponent(entry.currency);
        const tolerance = unit + Math.abs(entry.adr) * 0.00005 + 1e-9;
        expect({
          period,
          revenueBasis,
          currency: entry.currency,
          gap: Math.abs(entry.revpar - entry.adr * entry.occupancy),
        }).toEqual({
          period,
          revenueBasis,
          currency: entry.currency,
          gap: expect.toSatisfy((gap: number) => gap <= tolerance),
        });
      }
    }
  });

  it('adds the listings up to the portfolio, whatever the sort', async () => {
    for (let index = 0; index < periods / 2; index += 1) {
      const period = randomPeriod(random, portfolio.range, 400);
      const sortBy = random.pick([
        'occupancy',
        'bookedNights',
        'availableNights',
        'accommodationRevenue',
        'adr',
        'revpar',
        'name',
      ] as const);
      const breakdown = await analytics.getListingBreakdownStats(owner(), { ...period, sortBy, limit: 100 });
      expect(breakdown.truncated).toBe(false);
      expect(breakdown.rows).toHaveLength(portfolio.listings.length);
      const sum = (pick: (row: (typeof breakdown.rows)[number]) => number) =>
        breakdown.rows.reduce((total, row) => total + pick(row), 0);
      const { totals } = breakdown;
      expect({
        period,
        sortBy,
        calendar: sum((row) => row.calendarNights),
        blocked: sum((row) => row.blockedNights),
        available: sum((row) => row.availableNights),
        booked: sum((row) => row.bookedNights),
      }).toEqual({
        period,
        sortBy,
        calendar: totals.calendarNights,
        blocked: totals.blockedNights.total,
        available: totals.availableNights,
        booked: totals.bookedNights,
      });
      for (const money of totals.currencies) {
        const rows = breakdown.rows.flatMap((row) =>
          row.currencies.filter((entry) => entry.currency === money.currency),
        );
        const add = (pick: (entry: (typeof rows)[number]) => number) =>
          rows.reduce((total, entry) => total + pick(entry), 0);
        expect({
          currency: money.currency,
          available: add((entry) => entry.availableNights),
          booked: add((entry) => entry.bookedNights),
          rent: add((entry) => minor(entry.accommodationRevenue, money.currency)),
          total: add((entry) => minor(entry.totalRevenue, money.currency)),
        }).toEqual({
          currency: money.currency,
          available: money.availableNights,
          booked: money.bookedNights,
          rent: minor(money.accommodationRevenue, money.currency),
          total: minor(money.totalRevenue, money.currency),
        });
      }
    }
  });

  it('adds the buckets of a series up to the period, partial edge buckets included', async () => {
    for (let index = 0; index < periods; index += 1) {
      const granularity = random.pick(['month', 'month', 'week', 'day'] as const);
      const period = randomPeriod(random, portfolio.range, granularity === 'day' ? 92 : 400);
      const series = await analytics.getTimeseriesStats(owner(), {
        ...period,
        granularity,
        metrics: [
          'bookedNights',
          'availableNights',
          'blockedNights',
          'accommodationRevenue',
          'totalRevenue',
          'netRevenue',
          'payout',
        ],
      });
      const [occupancy, revenue] = await Promise.all([
        analytics.getOccupancyStats(owner(), period),
        analytics.getRevenueStats(owner(), period),
      ]);
      const sum = (pick: (bucket: (typeof series.buckets)[number]) => number | undefined) =>
        series.buckets.reduce((total, bucket) => total + (pick(bucket) ?? 0), 0);
      expect({
        period,
        granularity,
        nights: sum((bucket) => bucket.nights),
        booked: sum((bucket) => bucket.bookedNights),
        available: sum((bucket) => bucket.availableNights),
        blocked: sum((bucket) => bucket.blockedNights),
      }).toEqual({
        period,
        granularity,
        nights: daysBetween(period.startDate, period.endDate) + 1,
        booked: occupancy.bookedNights,
        available: occupancy.availableNights,
        blocked: occupancy.blockedNights.total,
      });
      for (const totals of revenue.currencies) {
        const { currency } = totals;
        const inBuckets = series.buckets.flatMap(
          (bucket) => bucket.currencies?.filter((entry) => entry.currency === currency) ?? [],
        );
        const add = (pick: (entry: (typeof inBuckets)[number]) => number | null | undefined) =>
          inBuckets.reduce((total, entry) => total + minor(pick(entry) ?? 0, currency), 0);
        expect({
          period,
          granularity,
          currency,
          rent: add((entry) => entry.accommodationRevenue),
          total: add((entry) => entry.totalRevenue),
          net: add((entry) => entry.netRevenue),
          payout: add((entry) => entry.payout),
        }).toEqual({
          period,
          granularity,
          currency,
          rent: minor(totals.accommodationRevenue, currency),
          total: minor(totals.totalRevenue, currency),
          net: minor(totals.netRevenue, currency),
          payout: minor(totals.payout, currency),
        });
      }
    }
  });
});
