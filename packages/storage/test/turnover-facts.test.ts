import { addDays, daysBetween } from '@innkeep/domain';
import { turnoverStatsInputSchema } from '@innkeep/domain/analytics';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyticsScope } from '../src/analytics/analytics-scope.ts';
import { summarize, toHistogram } from '../src/analytics/reservation-histograms.ts';
import { turnoverStats } from '../src/analytics/reservation-turnovers.ts';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { createReservationUseCases } from '../src/reservations/reservations.store.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { insertStay } from './support/analytics-fixture.ts';
import {
  buildRandomPortfolio,
  type RandomPortfolio,
  randomPeriod,
  seededRandom,
} from './support/analytics-random.ts';
import { writeWhileAnotherIsOpen } from './support/concurrent-writers.ts';
import { createTestListing } from './support/fixtures.ts';

// `turnover_facts` pairs every accepted stay with its listing's next accepted check-in, kept by statement
// triggers on `reservations`. After every kind of reservation write it must hold what a recomputation from the
// reservations gives (here by a different route: the earliest later check-in, not the next row), and the
// turnover stats read through it must equal those counted from the reservations themselves.

const seed = 20_261_127;

type FactRow = [
  reservationId: string,
  listingId: string,
  accountId: string,
  checkOut: string,
  channel: string,
  turnaroundDays: number | null,
];

interface FactColumns {
  reservation_id: string;
  listing_id: string;
  account_id: string;
  check_out: string;
  channel: string;
  turnaround_days: number | null;
}

const toFactRows = (rows: readonly FactColumns[]): FactRow[] =>
  rows.map((row) => [
    row.reservation_id,
    row.listing_id,
    row.account_id,
    row.check_out,
    row.channel,
    row.turnaround_days,
  ]);

describe.each(testDatabaseKinds)('turnover facts on %s', (kind) => {
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
  const guest = { firstName: 'Grace', lastName: 'Guest' };

  async function storedFacts(): Promise<FactRow[]> {
    const { rows } = await sql<FactColumns>`
      select reservation_id, listing_id, account_id, check_out::text, channel, turnaround_days
      from turnover_facts
      order by reservation_id`.execute(db);
    return toFactRows(rows);
  }

  async function recomputedFacts(): Promise<FactRow[]> {
    const { rows } = await sql<FactColumns>`
      select r.id as reservation_id, r.listing_id, r.account_id, r.end_date::text as check_out, r.channel,
        (select min(n.start_date) from reservations n
         where n.listing_id = r.listing_id and n.status = 'accepted' and n.start_date >= r.end_date)
          - r.end_date as turnaround_days
      from reservations r
      where r.status = 'accepted'
      order by r.id`.execute(db);
    return toFactRows(rows);
  }

  /** The roll-ups as stored; account keys fallen to zero say nothing and are left out. */
  async function storedRollUps(): Promise<{ listingMonths: unknown[]; accountMonths: unknown[] }> {
    // Each month's own counts, from the running totals; months without check-outs say nothing.
    const listingMonths = await sql`
      select listing_id, channel, month_number, account_id, turnovers, same_day
      from (
        select t.listing_id, t.channel, t.first_month_number + k - 1 as month_number, t.account_id,
          t.turnovers[k] - coalesce(t.turnovers[k - 1], 0) as turnovers,
          t.same_day[k] - coalesce(t.same_day[k - 1], 0) as same_day
        from turnover_listing_totals t
        cross join generate_subscripts(t.turnovers, 1) k
      ) monthly
      where turnovers <> 0 or same_day <> 0
      order by listing_id, channel, month_number`.execute(db);
    const accountMonths = await sql`
      select account_id, month::text, channel, turnaround_days, turnovers from turnover_account_months
      where turnovers <> 0
      order by account_id, month, channel, turnaround_days`.execute(db);
    return { listingMonths: listingMonths.rows, accountMonths: accountMonths.rows };
  }

  /** The roll-ups summed up from the stored stays. */
  async function summedRollUps(): Promise<{ listingMonths: unknown[]; accountMonths: unknown[] }> {
    const listingMonths = await sql`
      select listing_id, channel,
        extract(year from check_out)::integer * 12 + extract(month from check_out)::integer - 1 as month_number,
        account_id, count(*)::integer as turnovers, (count(*) filter (where turnaround_days = 0))::integer as same_day
      from turnover_facts
      -- a row per channel and one for every channel (null)
      group by listing_id, month_number, account_id, grouping sets ((channel), ())
      order by listing_id, channel, month_number`.execute(db);
    const accountMonths = await sql`
      select account_id, date_trunc('month', check_out)::date::text as month, channel, turnaround_days,
        count(*)::integer as turnovers
      from turnover_facts
      group by 1, 2, 3, 4
      order by account_id, month, channel, turnaround_days`.execute(db);
    return { listingMonths: listingMonths.rows, accountMonths: accountMonths.rows };
  }

  async function expectExact(): Promise<void> {
    const stored = await storedFacts();
    expect(stored.length).toBeGreaterThan(0);
    expect(stored).toEqual(await recomputedFacts());
    expect(await storedRollUps()).toEqual(await summedRollUps());
    // One row per listing and channel with check-outs (and for all its channels), its totals from its first
    // month's to its last one's.
    const { rows: spans } = await sql<{ stored: string; counted: string }>`
      select
        (select string_agg(listing_id || coalesce(channel, '*') || ':' || first_month_number || '+'
          || cardinality(turnovers) || '/' || cardinality(same_day), ',' order by listing_id, channel)
         from turnover_listing_totals) as stored,
        (select string_agg(listing_id || coalesce(channel, '*') || ':' || first_number || '+'
          || (last_number - first_number + 1) || '/' || (last_number - first_number + 1), ','
          order by listing_id, channel)
         from (
           select listing_id, channel,
             min(extract(year from check_out)::integer * 12 + extract(month from check_out)::integer - 1)
               as first_number,
             max(extract(year from check_out)::integer * 12 + extract(month from check_out)::integer - 1)
               as last_number
           from turnover_facts group by listing_id, grouping sets ((channel), ())) span) as counted`.execute(
      db,
    );
    expect(spans[0]?.stored).toBe(spans[0]?.counted);
  }

  /** The stored turnaround of one stay; undefined when the stay has no row (not accepted). */
  async function turnaroundOf(reservationId: string): Promise<number | null | undefined> {
    const { rows } = await sql<{ turnaround_days: number | null }>`
      select turnaround_days from turnover_facts where reservation_id = ${reservationId}`.execute(db);
    return rows[0]?.turnaround_days;
  }

  it('starts as the recomputation and follows status changes, moves, re-dating and deletes', async () => {
    await expectExact();
    const accepted = portfolio.stays.filter((stay) => stay.status === 'accepted');
    const [first, second, third, fourth] = accepted;
    const cancelledOne = portfolio.stays.find((stay) => stay.status === 'cancelled');
    const pendingOne = portfolio.stays.find((stay) => stay.status === 'pending');
    const otherListing = portfolio.listings.find((listing) => listing.id !== first?.listingId);
    if (!first || !second || !third || !fourth || !cancelledOne || !pendingOne || !otherListing) {
      throw new Error('the random portfolio lacks a stay this test needs');
    }

    // Cancelling a stay changes the turnaround of the stay before it; back into the books, and pending in.
    await sql`
      update reservations set status = 'cancelled', cancelled_by = 'guest' where id = ${second.id}`.execute(
      db,
    );
    await expectExact();
    await sql`
      update reservations set status = 'accepted', cancelled_by = null where id = ${cancelledOne.id}`.execute(
      db,
    );
    await sql`update reservations set status = 'accepted' where id = ${pendingOne.id}`.execute(db);
    await expectExact();
    // Past every other stay (the portfolio fills its range), to another listing, and another channel for
    // several rows in one statement.
    await sql`
      update reservations set start_date = start_date + 900, end_date = end_date + 903
      where id = ${third.id}`.execute(db);
    await expectExact();
    await sql`
      update reservations set listing_id = ${otherListing.id}, start_date = '2030-03-01', end_date = '2030-03-05'
      where id = ${first.id}`.execute(db);
    await expectExact();
    await sql`
      update reservations set channel = case when channel = 'airbnb' then 'vrbo' else 'airbnb' end
      where id in (${fourth.id}, ${pendingOne.id})`.execute(db);
    await expectExact();
    // An update of every reservation that changes no turnover leaves the facts as they are.
    const before = [await storedFacts(), await storedRollUps()];
    await sql`update reservations set guest_first_name = 'Renamed' where account_id = ${accountId()}`.execute(
      db,
    );
    expect([await storedFacts(), await storedRollUps()]).toEqual(before);

    await sql`delete from reservations where id in (${fourth.id}, ${cancelledOne.id})`.execute(db);
    await expectExact();
  });

  it('follows stays of several listings inserted in one statement', async () => {
    const [harbor, cabin] = portfolio.listings;
    if (!harbor || !cabin) throw new Error('the random portfolio has too few listings');
    // Copies of two stays, shifted past everything else, as one multi-row insert.
    await sql`
      insert into reservations (id, account_id, listing_id, channel, confirmation_code, status,
        guest_first_name, guest_last_name, start_date, end_date, currency, accommodation_minor,
        guest_price_minor, host_payout_minor)
      values
        ('res_bulk_1', ${accountId()}, ${harbor.id}, 'direct', 'BULK1', 'accepted', 'A', 'B',
          '2029-01-10', '2029-01-12', 'EUR', 100, 100, 100),
        ('res_bulk_2', ${accountId()}, ${cabin.id}, 'airbnb', 'BULK2', 'accepted', 'A', 'B',
          '2029-01-03', '2029-01-08', 'EUR', 100, 100, 100),
        ('res_bulk_3', ${accountId()}, ${harbor.id}, 'vrbo', 'BULK3', 'accepted', 'A', 'B',
          '2029-01-05', '2029-01-10', 'EUR', 100, 100, 100),
        ('res_bulk_4', ${accountId()}, ${cabin.id}, 'vrbo', 'BULK4', 'pending', 'A', 'B',
          '2029-01-08', '2029-01-09', 'EUR', 100, 100, 100)`.execute(db);
    expect(await turnaroundOf('res_bulk_3')).toBe(0);
    expect(await turnaroundOf('res_bulk_1')).toBeNull();
    expect(await turnaroundOf('res_bulk_4')).toBeUndefined();
    await expectExact();
    await sql`delete from reservations where id like 'res_bulk_%'`.execute(db);
    await expectExact();
  });

  it('follows reservations written through the use cases', async () => {
    const listingId = await createTestListing(db, accountId(), { name: 'Use-case Loft' });
    const reservations = createReservationUseCases({
      db,
      clock: { now: () => new Date('2026-02-10T09:00:00.000Z') },
    });
    const stay = (startDate: string, endDate: string) =>
      reservations.create(portfolio.account.owner, {
        listingId,
        startDate,
        endDate,
        guest,
        adults: 2,
        guestPrice: 300,
      });
    const early = await stay('2026-05-01', '2026-05-04');
    const late = await stay('2026-05-06', '2026-05-10');
    expect(await turnaroundOf(early.id)).toBe(2);
    expect(await turnaroundOf(late.id)).toBeNull();
    await expectExact();
    // Moving the next stay closer changes the earlier stay's turnaround.
    await reservations.update(portfolio.account.owner, {
      reservationId: late.id,
      startDate: '2026-05-04',
      endDate: '2026-05-08',
    });
    expect(await turnaroundOf(early.id)).toBe(0);
    await expectExact();
    await reservations.cancel(portfolio.account.owner, { reservationId: late.id, cancelledBy: 'guest' });
    expect(await turnaroundOf(early.id)).toBeNull();
    expect(await turnaroundOf(late.id)).toBeUndefined();
    await expectExact();
  });

  it('gives the turnover stats the reservations give, for any period, listing and channel', async () => {
    const everything: AnalyticsScope = {
      accountId: accountId(),
      listingIds: null,
      listingGroupId: null,
      channel: null,
      listingCount: portfolio.listings.length,
    };
    const { rows: stays } = await sql<{
      listing_id: string;
      channel: string;
      start_date: string;
      end_date: string;
    }>`
      select listing_id, channel, start_date::text, end_date::text from reservations
      where account_id = ${accountId()} and status = 'accepted'`.execute(db);
    /** The figures counted from the stays: each check-out with its listing's earliest later check-in. */
    const counted = (period: { startDate: string; endDate: string }, scope: AnalyticsScope) => {
      let withoutNextBooking = 0;
      const turnarounds = new Map<number, number>();
      const perListing = new Map<string, { turnovers: number; sameDay: number }>();
      for (const stay of stays) {
        if (stay.end_date < period.startDate || stay.end_date > period.endDate) continue;
        if (scope.channel !== null && stay.channel !== scope.channel) continue;
        if (scope.listingIds !== null && !scope.listingIds.includes(stay.listing_id)) continue;
        const next = stays
          .filter((other) => other.listing_id === stay.listing_id && other.start_date >= stay.end_date)
          .map((other) => other.start_date)
          .sort()[0];
        const days = next === undefined ? null : daysBetween(stay.end_date, next);
        if (days === null) withoutNextBooking += 1;
        else turnarounds.set(days, (turnarounds.get(days) ?? 0) + 1);
        const listing = perListing.get(stay.listing_id) ?? { turnovers: 0, sameDay: 0 };
        perListing.set(stay.listing_id, {
          turnovers: listing.turnovers + 1,
          sameDay: listing.sameDay + (days === 0 ? 1 : 0),
        });
      }
      const histogram = toHistogram([...turnarounds].map(([value, count]) => ({ value, count })));
      return {
        turnovers: [...perListing.values()].reduce((sum, listing) => sum + listing.turnovers, 0),
        sameDay: turnarounds.get(0) ?? 0,
        withoutNextBooking,
        turnaround: summarize(histogram),
        perListing,
      };
    };

    const random = seededRandom(seed + 1);
    const periods = [
      { startDate: '2025-02-01', endDate: '2026-01-31' },
      { startDate: addDays(portfolio.range.endDate, -20), endDate: addDays(portfolio.range.endDate, 40) },
      ...Array.from({ length: 10 }, () => randomPeriod(random, portfolio.range, 400)),
    ];
    const oneListing = { ...everything, listingIds: [portfolio.listings[1]?.id ?? ''], listingCount: 1 };
    let seen = 0;
    for (const period of periods) {
      for (const scope of [everything, { ...everything, channel: 'airbnb' as const }, oneListing]) {
        const stats = await turnoverStats(db, scope, turnoverStatsInputSchema.parse(period));
        const { perListing, ...figures } = counted(period, scope);
        const { turnovers, sameDay, withoutNextBooking, turnaround } = stats;
        expect({ period, scope, turnovers, sameDay, withoutNextBooking, turnaround }).toEqual({
          period,
          scope,
          ...figures,
        });
        expect(stats.busiestListings).toHaveLength(perListing.size);
        for (const listing of stats.busiestListings) {
          expect({ period, scope, ...listing }).toMatchObject({
            period,
            scope,
            ...perListing.get(listing.listingId),
          });
        }
        seen += turnovers;
      }
    }
    expect(seen).toBeGreaterThan(0);
  });

  // Only a server can keep a transaction open while another one runs; PGlite runs one at a time.
  it.runIf(kind === 'postgres')('stays exact when two transactions book one listing at once', async () => {
    const listingId = await createTestListing(db, accountId(), { name: 'Raced Retreat' });
    const stay = (startDate: string, endDate: string) => ({
      listingId,
      startDate,
      endDate,
      nightly: Array.from({ length: daysBetween(startDate, endDate) }, () => 10_000),
      createdAt: '2027-01-05T12:00:00.000Z',
    });
    await insertStay(db, portfolio.account, stay('2027-08-01', '2027-08-03'));

    // The second's rebuild waits for the first transaction, then reads the stay that one committed.
    await writeWhileAnotherIsOpen(
      db,
      (trx) => insertStay(trx, portfolio.account, stay('2027-08-05', '2027-08-08')),
      (trx) => insertStay(trx, portfolio.account, stay('2027-08-08', '2027-08-10')),
    );

    const { rows } = await sql<{ check_out: string; turnaround_days: number | null }>`
      select check_out::text, turnaround_days from turnover_facts
      where listing_id = ${listingId} order by check_out`.execute(db);
    expect(rows).toEqual([
      { check_out: '2027-08-03', turnaround_days: 2 },
      { check_out: '2027-08-08', turnaround_days: 0 },
      { check_out: '2027-08-10', turnaround_days: null },
    ]);
    await expectExact();
  });

  it.runIf(kind === 'postgres')(
    'keeps both of two check-outs of one account month written at once',
    async () => {
      const harbor = await createTestListing(db, accountId(), { name: 'Raced Harbor' });
      const cabin = await createTestListing(db, accountId(), { name: 'Raced Cabin' });
      // Same account, month, channel and turnaround (none yet): the same account roll-up row.
      const stay = (listingId: string) => ({
        listingId,
        startDate: '2031-05-10',
        endDate: '2031-05-12',
        nightly: [10_000, 10_000],
        createdAt: '2031-01-05T12:00:00.000Z',
      });
      // The second's upsert waits for the first transaction's row, then adds to what that one committed.
      await writeWhileAnotherIsOpen(
        db,
        (trx) => insertStay(trx, portfolio.account, stay(harbor)),
        (trx) => insertStay(trx, portfolio.account, stay(cabin)),
      );

      const { rows } = await sql<{ turnovers: number }>`
      select turnovers from turnover_account_months
      where account_id = ${accountId()} and month = '2031-05-01' and turnaround_days is null`.execute(db);
      expect(rows).toEqual([{ turnovers: 2 }]);
      await expectExact();
    },
  );
});
