import { addDays } from '@innkeep/domain';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyticsScope } from '../src/analytics/analytics-scope.ts';
import { checkInCohortTotals } from '../src/analytics/check-in-cohort.ts';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { insertStay } from './support/analytics-fixture.ts';
import {
  buildRandomPortfolio,
  type RandomPortfolio,
  randomPeriod,
  seededRandom,
} from './support/analytics-random.ts';
import { writeWhileAnotherIsOpen } from './support/concurrent-writers.ts';
import {
  followRawReservationWrites,
  followUseCaseReservationWrites,
} from './support/reservation-write-scenarios.ts';

// `check_in_month_facts` is the check-in cohort rolled up by statement triggers on `reservations`. After
// every kind of reservation write it must hold what a rebuild from the reservations gives, and the cohort
// read through it must equal the cohort read from the reservations themselves.

const seed = 20_261_125;

type FactRow = [
  month: string,
  channel: string,
  live: boolean,
  leadDays: number,
  count: number,
  nights: number,
];

describe.each(testDatabaseKinds)('check-in month facts on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let portfolio: RandomPortfolio;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    portfolio = await buildRandomPortfolio(db, seed, { listings: 3 });
  }, 120_000);

  afterAll(async () => {
    await handle?.close();
  });

  const accountId = () => portfolio.account.accountId;

  /** The rows of a query selecting a fact's columns, in its order. */
  async function factRows(query: RawBuilder<unknown>): Promise<FactRow[]> {
    const { rows } = await sql<{
      month: string;
      channel: string;
      live: boolean;
      lead_days: number;
      reservations: number;
      nights: number;
    }>`${query}`.execute(db);
    return rows.map((row) => [row.month, row.channel, row.live, row.lead_days, row.reservations, row.nights]);
  }

  /** The stored facts of the portfolio's account; keys fallen to zero say nothing and are left out. */
  const storedFacts = () =>
    factRows(sql`
      select month, channel, live, lead_days, reservations, nights
      from check_in_month_facts
      where account_id = ${accountId()} and (reservations <> 0 or nights <> 0)
      order by month, channel, live, lead_days`);

  const rebuiltFacts = () =>
    factRows(sql`
      select date_trunc('month', start_date)::date as month, channel, status = 'accepted' as live,
        start_date - booked_on as lead_days, count(*)::integer as reservations, sum(nights)::integer as nights
      from reservations
      where account_id = ${accountId()} and status in ('accepted', 'cancelled')
      group by 1, 2, 3, 4
      order by 1, 2, 3, 4`);

  async function expectExact(): Promise<void> {
    const stored = await storedFacts();
    expect(stored.length).toBeGreaterThan(0);
    expect(stored).toEqual(await rebuiltFacts());
  }

  it('follows inserts, status changes, moves, re-dating, deletes and time-zone changes', async () => {
    await followRawReservationWrites(db, portfolio, { expectExact, storedRows: storedFacts });
  });

  it('follows reservations written through the use cases', async () => {
    await followUseCaseReservationWrites(db, portfolio, expectExact);
  });

  it('gives the cohort the reservations give, for whole months, parts of months and a channel', async () => {
    const everything: AnalyticsScope = {
      accountId: accountId(),
      listingIds: null,
      listingGroupId: null,
      channel: null,
      listingCount: portfolio.listings.length,
    };
    const { rows } = await sql<{ id: string }>`
      select id from listings where account_id = ${accountId()}`.execute(db);
    // Every listing by id: the same reservations, read without the roll-up.
    const byIds: AnalyticsScope = { ...everything, listingIds: rows.map((row) => row.id) };
    const random = seededRandom(seed + 1);
    const periods = [
      { startDate: '2025-02-01', endDate: '2026-01-31' },
      { startDate: '2025-03-15', endDate: '2025-09-14' },
      { startDate: '2025-06-01', endDate: '2025-06-30' },
      { startDate: '2025-06-02', endDate: '2025-06-29' },
      ...Array.from({ length: 12 }, () => randomPeriod(random, portfolio.range, 400)),
    ];
    for (const period of periods) {
      for (const channel of [null, 'airbnb'] as const) {
        const [rolledUp] = await checkInCohortTotals(db, { ...everything, channel }, [period]);
        const [read] = await checkInCohortTotals(db, { ...byIds, channel }, [period]);
        expect({ period, channel, totals: rolledUp }).toEqual({ period, channel, totals: read });
      }
    }
    const [year] = await checkInCohortTotals(db, everything, [
      { startDate: '2025-02-01', endDate: '2026-01-31' },
    ]);
    expect(year?.checkIns).toBeGreaterThan(0);
  });

  // Only a server can keep a transaction open while another one runs; PGlite runs one at a time.
  it.runIf(kind === 'postgres')('keeps both of two bookings of one key written at once', async () => {
    // Not the first listing, whose time zone the first test moved.
    const [, harbor, cabin] = portfolio.listings;
    if (!harbor || !cabin) throw new Error('the random portfolio has too few listings');
    // Same check-in month, channel and lead time: the same roll-up row.
    const stay = (listingId: string, startDate: string) => ({
      listingId,
      startDate,
      endDate: addDays(startDate, 2),
      nightly: [10_000, 10_000],
      channel: 'direct' as const,
      createdAt: `${addDays(startDate, -30)}T12:00:00.000Z`,
    });
    // The second's upsert waits for the first transaction's row, then adds to what that one committed.
    await writeWhileAnotherIsOpen(
      db,
      (trx) => insertStay(trx, portfolio.account, stay(harbor.id, '2027-05-10')),
      (trx) => insertStay(trx, portfolio.account, stay(cabin.id, '2027-05-20')),
    );

    const may = (await storedFacts()).filter(([month]) => month === '2027-05-01');
    expect(may.map(([, , , , count]) => count).reduce((sum, count) => sum + count, 0)).toBe(2);
    await expectExact();
  });
});
