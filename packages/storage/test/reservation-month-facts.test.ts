import { addDays, parseInput } from '@innkeep/domain';
import { cancellationStatsInputSchema, reservationStatusStatsInputSchema } from '@innkeep/domain/analytics';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyticsScope } from '../src/analytics/analytics-scope.ts';
import { cancellationStats } from '../src/analytics/reservation-cancellations.ts';
import { reservationStatusStats } from '../src/analytics/reservation-statuses.ts';
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
import { followUseCaseReservationWrites } from './support/reservation-write-scenarios.ts';

// `reservation_month_facts` is the reservations rolled up by check-in month, channel, currency, status and
// who cancelled, kept by statement triggers on `reservations`. After every kind of reservation write it must
// hold what a recomputation from the reservations gives, and get_cancellation_stats and
// get_reservation_status_stats read through it must equal the same tools read from the reservations alone.

const seed = 20_261_128;

type FactRow = [
  month: string,
  channel: string,
  currency: string,
  status: string,
  cancelledBy: string | null,
  reservations: number,
  nights: number,
  rent: number,
];

describe.each(testDatabaseKinds)('reservation month facts on %s', (kind) => {
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

  /** The stored facts of the portfolio's account; keys fallen to zero say nothing and are left out. */
  async function storedFacts(): Promise<FactRow[]> {
    const { rows } = await sql<{
      month: string;
      channel: string;
      currency: string;
      status: string;
      cancelled_by: string | null;
      reservations: number;
      nights: number;
      rent: number;
    }>`
      select month, channel, currency, status, nullif(cancelled_by, '') as cancelled_by, reservations,
        nights::integer as nights, rent_minor::integer as rent
      from reservation_month_facts
      where account_id = ${accountId()} and reservations <> 0
      order by month, channel, currency, status, cancelled_by nulls first`.execute(db);
    return rows.map((row) => [
      row.month,
      row.channel,
      row.currency,
      row.status,
      row.cancelled_by,
      row.reservations,
      row.nights,
      row.rent,
    ]);
  }

  /** The facts recomputed from the reservations, their months taken from the check-in's text. */
  async function recomputedFacts(): Promise<FactRow[]> {
    const { rows } = await sql<{
      month: string;
      channel: string;
      currency: string;
      status: string;
      cancelled_by: string | null;
      reservations: number;
      nights: number;
      rent: number;
    }>`
      select (to_char(start_date, 'YYYY-MM') || '-01')::date as month, channel, currency::text as currency,
        status, cancelled_by, count(*)::integer as reservations, sum(end_date - start_date)::integer as nights,
        sum(accommodation_minor)::integer as rent
      from reservations
      where account_id = ${accountId()}
      group by 1, 2, 3, 4, 5
      order by 1, 2, 3, 4, 5 nulls first`.execute(db);
    return rows.map((row) => [
      row.month,
      row.channel,
      row.currency,
      row.status,
      row.cancelled_by,
      row.reservations,
      row.nights,
      row.rent,
    ]);
  }

  async function expectExact(): Promise<void> {
    const stored = await storedFacts();
    expect(stored.length).toBeGreaterThan(0);
    expect(stored).toEqual(await recomputedFacts());
  }

  it('follows inserts, status changes, cancellations, moves, currency and channel changes and deletes', async () => {
    await expectExact();
    const [first, second, third, fourth] = portfolio.stays.filter((stay) => stay.status === 'accepted');
    const cancelledOne = portfolio.stays.find((stay) => stay.status === 'cancelled');
    const pendingOne = portfolio.stays.find((stay) => stay.status === 'pending');
    if (!first || !second || !third || !fourth || !cancelledOne || !pendingOne) {
      throw new Error('the random portfolio lacks a status this test needs');
    }

    // Accepted to cancelled by the host, back, and pending into the cohort.
    await sql`
      update reservations set status = 'cancelled', cancelled_by = 'host', cancelled_at = now()
      where id = ${first.id}`.execute(db);
    await expectExact();
    await sql`
      update reservations set status = 'accepted', cancelled_by = null, cancelled_at = null
      where id = ${cancelledOne.id}`.execute(db);
    await sql`update reservations set status = 'accepted' where id = ${pendingOne.id}`.execute(db);
    await expectExact();
    // To another month and another length, past the portfolio's last night so it overlaps no other stay;
    // another channel, another currency, another rent; several rows in one statement.
    await sql`
      update reservations set start_date = start_date + 1000, end_date = end_date + 1003
      where id = ${second.id}`.execute(db);
    await sql`
      update reservations set channel = case when channel = 'airbnb' then 'vrbo' else 'airbnb' end,
        currency = case when currency = 'USD' then 'EUR' else 'USD' end,
        accommodation_minor = accommodation_minor + 700
      where id in (${third.id}, ${fourth.id})`.execute(db);
    await expectExact();
    // An update of every reservation that changes no counted column leaves the facts as they are.
    const before = await storedFacts();
    await sql`update reservations set guest_first_name = 'Renamed' where account_id = ${accountId()}`.execute(
      db,
    );
    expect(await storedFacts()).toEqual(before);

    await sql`delete from reservations where id in (${first.id}, ${fourth.id})`.execute(db);
    await expectExact();
  });

  it('follows reservations written through the use cases', async () => {
    await followUseCaseReservationWrites(db, portfolio, expectExact);
  });

  it('backfills, when the migration runs over existing reservations, what the triggers kept', async () => {
    const migration = domainMigrations['2026_11_27_0029_reservation_month_facts'];
    if (!migration?.down) throw new Error('the reservation month facts migration is missing');
    const kept = await storedFacts();
    await migration.down(db);
    await migration.up(db);
    expect(await storedFacts()).toEqual(kept);
    await expectExact();
  });

  it('gives the cancellation and status stats the reservations give, for whole months, parts of months and a channel', async () => {
    const { rows } = await sql<{ id: string }>`
      select id from listings where account_id = ${accountId()}`.execute(db);
    const everything: AnalyticsScope = {
      accountId: accountId(),
      listingIds: null,
      listingGroupId: null,
      channel: null,
      listingCount: rows.length,
    };
    // Every listing by id: the same reservations, read without the roll-up.
    const byIds: AnalyticsScope = { ...everything, listingIds: rows.map((row) => row.id) };
    const random = seededRandom(seed + 1);
    const periods = [
      { startDate: '2025-02-01', endDate: '2026-01-31' },
      { startDate: '2025-03-15', endDate: '2025-09-14' },
      { startDate: '2025-06-01', endDate: '2025-06-30' },
      { startDate: '2025-06-02', endDate: '2025-06-29' },
      ...Array.from({ length: 10 }, () => randomPeriod(random, portfolio.range, 400)),
    ];
    // Today inside the portfolio's range, so the status stats' completed range ends within a period.
    const nows = [new Date('2025-10-17T12:00:00.000Z'), new Date('2026-03-01T23:30:00.000Z')];
    for (const period of periods) {
      for (const now of nows) {
        for (const channel of [null, 'airbnb'] as const) {
          for (const cohort of ['check_in', 'booked'] as const) {
            const input = parseInput(cancellationStatsInputSchema, { ...period, cohort });
            const rolledUp = await cancellationStats(db, { ...everything, channel }, input, now);
            const read = await cancellationStats(db, { ...byIds, channel }, input, now);
            expect({ period, now, channel, cohort, stats: rolledUp.reservations }).toEqual({
              period,
              now,
              channel,
              cohort,
              stats: read.reservations,
            });
            expect({ ...rolledUp, meta: null }).toEqual({ ...read, meta: null });
          }
          const input = parseInput(reservationStatusStatsInputSchema, period);
          const rolledUp = await reservationStatusStats(db, { ...everything, channel }, input, now);
          const read = await reservationStatusStats(db, { ...byIds, channel }, input, now);
          expect({ period, now, channel, statuses: rolledUp.statuses }).toEqual({
            period,
            now,
            channel,
            statuses: read.statuses,
          });
        }
      }
    }
    const year = await cancellationStats(
      db,
      everything,
      parseInput(cancellationStatsInputSchema, { startDate: '2025-02-01', endDate: '2026-01-31' }),
      nows[0] ?? new Date(),
    );
    expect(year.reservations.cancelled).toBeGreaterThan(0);
    expect(year.rent.length).toBeGreaterThan(1);
  });

  // Only a server can keep a transaction open while another one runs; PGlite runs one at a time.
  it.runIf(kind === 'postgres')('keeps both of two bookings of one key written at once', async () => {
    const [, harbor, cabin] = portfolio.listings;
    if (!harbor || !cabin) throw new Error('the random portfolio has too few listings');
    // Same check-in month, channel, currency and status: the same roll-up row.
    const stay = (listingId: string, startDate: string) => ({
      listingId,
      startDate,
      endDate: addDays(startDate, 2),
      nightly: [10_000, 10_000],
      channel: 'direct' as const,
      currency: 'EUR',
      createdAt: `${addDays(startDate, -30)}T12:00:00.000Z`,
    });
    // The second's upsert waits for the first transaction's row, then adds to what that one committed.
    await writeWhileAnotherIsOpen(
      db,
      (trx) => insertStay(trx, portfolio.account, stay(harbor.id, '2027-05-10')),
      (trx) => insertStay(trx, portfolio.account, stay(cabin.id, '2027-05-17')),
    );

    const may = (await storedFacts()).filter(([month]) => month === '2027-05-01');
    expect(may).toEqual([['2027-05-01', 'direct', 'EUR', 'accepted', null, 2, 4, 40_000]]);
    await expectExact();
  });

  it('empties with the reservations when they are truncated', async () => {
    await sql`truncate reservations cascade`.execute(db);
    const { rows } = await sql<{ facts: number }>`
      select count(*)::integer as facts from reservation_month_facts`.execute(db);
    expect(rows[0]?.facts).toBe(0);
  });
});
