import { addDays, parseInput } from '@innkeep/domain';
import { bookingPatternStatsInputSchema } from '@innkeep/domain/analytics';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyticsScope } from '../src/analytics/analytics-scope.ts';
import { bookingPatternStats } from '../src/analytics/reservation-patterns.ts';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { domainMigrations } from '../src/migrations/index.ts';
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

// `booking_pattern_facts` is the booking-pattern histograms rolled up by statement triggers on
// `reservations`. After every kind of reservation write it must hold what a recomputation from the
// reservations gives (here night by night, independently of the migration's own tally function), and
// get_booking_pattern_stats read through it must equal the same tool read from the reservations alone.

const seed = 20_261_127;

type FactRow = [month: string, channel: string, kind: string, value: number, tally: number];

describe.each(testDatabaseKinds)('booking pattern facts on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let portfolio: RandomPortfolio;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    portfolio = await buildRandomPortfolio(db, seed, { listings: 3 });
    // Party sizes of one to six, so the guests histogram has more than one value.
    await sql`
      update reservations
      set adults = 1 + mod(abs(hashtext(id)), 4), children = mod(abs(hashtext(id || 'children')), 3)
      where account_id = ${portfolio.account.accountId}`.execute(db);
  }, 120_000);

  afterAll(async () => {
    await handle?.close();
  });

  const accountId = () => portfolio.account.accountId;

  /** The stored facts of the portfolio's account; keys fallen to zero say nothing and are left out. */
  async function storedFacts(): Promise<FactRow[]> {
    const { rows } = await sql<{
      month: string;
      channel: string;
      kind: string;
      value: number;
      tally: number;
    }>`
      select month, channel, kind, value, tally
      from booking_pattern_facts
      where account_id = ${accountId()} and tally <> 0
      order by month, channel, kind, value`.execute(db);
    return rows.map((row) => [row.month, row.channel, row.kind, row.value, row.tally]);
  }

  /** The facts recomputed from the accepted reservations, their nights expanded one by one. */
  async function recomputedFacts(): Promise<FactRow[]> {
    const { rows } = await sql<{
      month: string;
      channel: string;
      kind: string;
      value: number;
      tally: number;
    }>`
      with accepted as (
        select channel, start_date, booked_on, nights, adults + children as guests
        from reservations
        where account_id = ${accountId()} and status = 'accepted'
      ),
      tallies as (
        select date_trunc('month', start_date)::date as month, channel, 'check_in_weekday' as kind,
          extract(isodow from start_date)::integer as value
        from accepted
        union all
        select date_trunc('month', start_date)::date, channel, 'booking_weekday',
          extract(isodow from booked_on)::integer
        from accepted
        union all
        select date_trunc('month', start_date)::date, channel, 'nights', nights from accepted
        union all
        select date_trunc('month', start_date)::date, channel, 'guests', guests from accepted
        union all
        select date_trunc('month', night)::date, channel, 'booked_nights', extract(isodow from night)::integer
        from (
          select a.channel, a.start_date + n.offset_days as night
          from accepted a
          cross join lateral generate_series(0, a.nights - 1) as n (offset_days)
        ) nights
      )
      select month, channel, kind, value, count(*)::integer as tally
      from tallies
      group by 1, 2, 3, 4
      order by 1, 2, 3, 4`.execute(db);
    return rows.map((row) => [row.month, row.channel, row.kind, row.value, row.tally]);
  }

  async function expectExact(): Promise<void> {
    const stored = await storedFacts();
    expect(stored.length).toBeGreaterThan(0);
    expect(stored).toEqual(await recomputedFacts());
  }

  it('follows inserts, status changes, moves, re-dating, party sizes, deletes and time-zone changes', async () => {
    await followRawReservationWrites(db, portfolio, { expectExact, storedRows: storedFacts });
  });

  it('follows reservations written through the use cases', async () => {
    await followUseCaseReservationWrites(db, portfolio, expectExact);
  });

  it('backfills, when the migration runs over existing reservations, what the triggers kept', async () => {
    const migration = domainMigrations['2026_11_27_0026_booking_pattern_facts'];
    if (!migration?.down) throw new Error('the booking pattern facts migration is missing');
    const kept = await storedFacts();
    await migration.down(db);
    await migration.up(db);
    expect(await storedFacts()).toEqual(kept);
    await expectExact();
  });

  it('gives the booking patterns the reservations give, for whole months, parts of months and a channel', async () => {
    const { rows } = await sql<{ id: string }>`
      select id from listings where account_id = ${accountId()}`.execute(db);
    const everything: AnalyticsScope = {
      accountId: accountId(),
      listingIds: null,
      listingGroupId: null,
      channel: null,
      listingCount: rows.length,
    };
    // Every listing by id: the same reservations, read without the roll-ups.
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
      const input = parseInput(bookingPatternStatsInputSchema, period);
      for (const channel of [null, 'airbnb'] as const) {
        const rolledUp = await bookingPatternStats(db, { ...everything, channel }, input);
        const read = await bookingPatternStats(db, { ...byIds, channel }, input);
        expect({ period, channel, stats: rolledUp }).toEqual({ period, channel, stats: read });
      }
    }
    const year = await bookingPatternStats(
      db,
      everything,
      parseInput(bookingPatternStatsInputSchema, { startDate: '2025-02-01', endDate: '2026-01-31' }),
    );
    expect(year.checkIns).toBeGreaterThan(0);
    expect(year.guests.sizes.length).toBeGreaterThan(1);
  });

  // Only a server can keep a transaction open while another one runs; PGlite runs one at a time.
  it.runIf(kind === 'postgres')('keeps both of two bookings of one key written at once', async () => {
    // Not the first listing, whose time zone the first test moved.
    const [, harbor, cabin] = portfolio.listings;
    if (!harbor || !cabin) throw new Error('the random portfolio has too few listings');
    // Same check-in month, channel, weekday, length and party: the same roll-up rows.
    const stay = (listingId: string, startDate: string) => ({
      listingId,
      startDate,
      endDate: addDays(startDate, 2),
      nightly: [10_000, 10_000],
      channel: 'direct' as const,
      createdAt: `${addDays(startDate, -30)}T12:00:00.000Z`,
    });
    // The second's upsert waits for the first transaction's rows, then adds to what that one committed.
    await writeWhileAnotherIsOpen(
      db,
      (trx) => insertStay(trx, portfolio.account, stay(harbor.id, '2027-05-10')),
      (trx) => insertStay(trx, portfolio.account, stay(cabin.id, '2027-05-17')),
    );

    const may = (await storedFacts()).filter(
      ([month, , kind]) => month === '2027-05-01' && kind === 'nights',
    );
    expect(may).toEqual([['2027-05-01', 'direct', 'nights', 2, 2]]);
    await expectExact();
  });

  it('empties with the reservations when they are truncated', async () => {
    await sql`truncate reservations cascade`.execute(db);
    const { rows } = await sql<{ facts: number }>`
      select count(*)::integer as facts from booking_pattern_facts`.execute(db);
    expect(rows[0]?.facts).toBe(0);
  });
});
