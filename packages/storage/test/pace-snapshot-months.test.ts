import { addDays, type Clock } from '@innkeep/domain';
import { paceStatsInputSchema } from '@innkeep/domain/analytics';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paceStats } from '../src/analytics/reservation-pace.ts';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database, Executor } from '../src/database.ts';
import { createReservationUseCases } from '../src/reservations/reservations.store.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { writeWhileAnotherIsOpen } from './support/concurrent-writers.ts';
import { createTestAccount, createTestListing, type TestAccount } from './support/fixtures.ts';

// `pace_snapshot_months` rolls up the accepted `reservation_changes` snapshots by stay month and the weeks they
// began and were replaced in, kept by statement triggers. After every kind of write it must hold exactly what a
// recomputation night by night gives (keys that fell to zero stay behind and are ignored).

const guest = { firstName: 'Grace', lastName: 'Guest' };

type MonthRow = [
  accountId: string,
  stayMonth: string,
  beganWeek: string,
  replacedWeek: string,
  currency: string,
  nights: number,
  rentMinor: number,
  checksIn: number,
  crossesIn: number,
];

interface MonthQueryRow {
  account_id: string;
  stay_month: string;
  began_week: string;
  replaced_week: string;
  currency: string;
  nights: string;
  rent_minor: string;
  checks_in: string;
  crosses_in: string;
}

const asMonthRows = (rows: readonly MonthQueryRow[]): MonthRow[] =>
  rows.map((row) => [
    row.account_id,
    row.stay_month,
    row.began_week,
    row.replaced_week,
    row.currency,
    Number(row.nights),
    Number(row.rent_minor),
    Number(row.checks_in),
    Number(row.crosses_in),
  ]);

describe.each(testDatabaseKinds)('pace snapshot months on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let account: TestAccount;
  let now = new Date('2026-03-02T12:00:00.000Z');
  const clock: Clock = { now: () => now };

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    account = await createTestAccount(db);
  }, 180_000);

  afterAll(async () => {
    await handle?.close();
  });

  async function storedMonths(): Promise<MonthRow[]> {
    const { rows } = await sql<MonthQueryRow>`
      select account_id, stay_month::text, began_week::text, replaced_week::text, currency, nights, rent_minor,
        checks_in, crosses_in
      from pace_snapshot_months
      where checks_in <> 0 or crosses_in <> 0 or nights <> 0 or rent_minor <> 0
      order by 1, 2, 3, 4, 5`.execute(db);
    return asMonthRows(rows);
  }

  // Night by night: each night's even share of the stay's rent, plus a spare cent on the first
  // mod(rent, nights) nights; the month the stay checks in counts it as a check-in, later months as crossing in.
  async function recomputedMonths(): Promise<MonthRow[]> {
    const { rows } = await sql<MonthQueryRow>`
      select s.account_id, date_trunc('month', n.night)::date::text as stay_month,
        date_trunc('week', s.changed_at at time zone 'UTC')::date::text as began_week,
        coalesce(date_trunc('week', s.valid_until at time zone 'UTC')::date::text, 'infinity') as replaced_week,
        s.currency, count(*) as nights,
        sum(s.accommodation_minor / (s.end_date - s.start_date)
          + case when n.nights_before < s.accommodation_minor % (s.end_date - s.start_date) then 1 else 0 end)
          as rent_minor,
        count(distinct s.id) filter (where date_trunc('month', n.night) = date_trunc('month', s.start_date))
          as checks_in,
        count(distinct s.id) filter (where date_trunc('month', n.night) > date_trunc('month', s.start_date))
          as crosses_in
      from reservation_changes s
      cross join lateral (
        select i as nights_before, (s.start_date + i)::timestamp as night
        from generate_series(0, s.end_date - s.start_date - 1) as i
      ) n
      where s.status = 'accepted'
      group by 1, 2, 3, 4, 5
      order by 1, 2, 3, 4, 5`.execute(db);
    return asMonthRows(rows);
  }

  async function expectExact(): Promise<void> {
    expect(await storedMonths()).toEqual(await recomputedMonths());
  }

  // get_pace_stats reads the roll-up for the whole account, and the snapshots themselves when filtered by
  // listing: filtered by every listing, the books, pickup and changes must come out the same, for whole months
  // and for periods with days before and after them, today and in the past.
  async function expectPaceFromRollUp(): Promise<void> {
    const listings = await db
      .selectFrom('listings')
      .select('id')
      .where('account_id', '=', account.accountId)
      .execute();
    const wholeAccount = {
      accountId: account.accountId,
      listingIds: null,
      listingGroupId: null,
      channel: null,
      listingCount: listings.length,
    };
    const everyListing = { ...wholeAccount, listingIds: listings.map((listing) => listing.id) };
    for (const input of [
      { startDate: '2026-04-01', endDate: '2026-06-30' },
      { startDate: '2026-04-30', endDate: '2026-09-02' },
      { startDate: '2026-05-01', endDate: '2026-08-30', asOf: '2026-03-09' },
      { startDate: '2026-05-11', endDate: '2026-06-30', asOf: '2026-03-06' },
    ]) {
      const parsed = paceStatsInputSchema.parse(input);
      const { meta: _rollUpMeta, ...fromRollUp } = await paceStats(db, wholeAccount, parsed, now);
      const { meta: _snapshotsMeta, ...fromSnapshots } = await paceStats(db, everyListing, parsed, now);
      expect(fromRollUp).toEqual(fromSnapshots);
    }
  }

  it('follows bookings, changes, cancellations and deletes through the use cases, across weeks', async () => {
    const listingId = await createTestListing(db, account.accountId, { name: 'Dune House' });
    const reservations = createReservationUseCases({ db, clock });

    // Across a month's end, with a rent that leaves spare cents: 1,000.01 over 3 nights.
    const crossing = await reservations.create(account.owner, {
      listingId,
      startDate: '2026-04-29',
      endDate: '2026-05-02',
      guest,
      adults: 2,
      guestPrice: 1000.01,
    });
    const short = await reservations.create(account.owner, {
      listingId,
      startDate: '2026-05-10',
      endDate: '2026-05-12',
      guest,
      adults: 1,
      guestPrice: 250,
    });
    await expectExact();
    expect((await storedMonths()).filter((row) => row[1] === '2026-04-01')).toEqual([
      [account.accountId, '2026-04-01', '2026-03-02', 'infinity', 'USD', 2, 66_668, 1, 0],
    ]);

    // A week later: new dates (the first snapshot is replaced in this week), then a new price.
    now = new Date('2026-03-10T09:00:00.000Z');
    await reservations.update(account.owner, {
      reservationId: crossing.id,
      startDate: '2026-05-30',
      endDate: '2026-06-04',
    });
    await expectExact();
    await reservations.update(account.owner, { reservationId: short.id, guestPrice: 333.33 });
    await expectExact();
    await expectPaceFromRollUp();

    now = new Date('2026-03-24T18:00:00.000Z');
    await reservations.cancel(account.owner, { reservationId: short.id, cancelledBy: 'guest' });
    await expectExact();
    await expectPaceFromRollUp();
    // Deleting the reservation cascades to its snapshots.
    await db.deleteFrom('reservations').where('id', '=', crossing.id).execute();
    await expectExact();
  });

  it('follows snapshots written, replaced and deleted directly, several at a time', async () => {
    const listingId = await createTestListing(db, account.accountId, { name: 'Pine Cabin' });
    const reservations = createReservationUseCases({ db, clock });
    now = new Date('2026-04-01T12:00:00.000Z');
    const booked = await reservations.create(account.owner, {
      listingId,
      startDate: '2026-07-28',
      endDate: '2026-08-30',
      guest,
      adults: 2,
      guestPrice: 4321.09,
    });
    // Several snapshots in one statement, out of order; one of them pending, which books no nights.
    const snapshot = (
      changedAt: string,
      status: string,
      startDate: string,
      endDate: string,
      rent: number,
    ) => ({
      reservation_id: booked.id,
      account_id: account.accountId,
      changed_at: new Date(changedAt),
      change: 'details',
      status,
      start_date: startDate,
      end_date: endDate,
      guests: 2,
      accommodation_minor: rent,
      guest_price_minor: rent,
      host_payout_minor: rent,
      currency: 'USD',
    });
    await db
      .insertInto('reservation_changes')
      .values([
        snapshot('2026-05-20T08:00:00.000Z', 'accepted', '2026-08-01', '2026-10-03', 987_654),
        snapshot('2026-04-15T08:00:00.000Z', 'accepted', '2026-07-30', '2026-08-02', 100),
        snapshot('2026-05-01T08:00:00.000Z', 'pending', '2026-07-30', '2026-08-02', 100),
      ])
      .execute();
    await expectExact();

    // Rewrites of what the books read: a later replacement, another price, a move to another week.
    await sql`
      update reservation_changes set valid_until = valid_until + interval '9 days'
      where reservation_id = ${booked.id} and valid_until is not null`.execute(db);
    await expectExact();
    await sql`
      update reservation_changes
      set accommodation_minor = accommodation_minor + 7, changed_at = changed_at - interval '8 days'
      where reservation_id = ${booked.id} and status = 'accepted' and start_date = '2026-08-01'`.execute(db);
    await expectExact();
    // An update that changes nothing pace reads moves nothing.
    await sql`update reservation_changes set diff = '{"note": "x"}' where reservation_id = ${booked.id}`.execute(
      db,
    );
    await expectExact();

    await sql`
      delete from reservation_changes where reservation_id = ${booked.id} and status = 'pending'`.execute(db);
    await expectExact();
    await sql`delete from reservation_changes where reservation_id = ${booked.id}`.execute(db);
    expect((await storedMonths()).filter((row) => row[1] === '2026-09-01')).toEqual([]);
    await expectExact();
  });

  // Only a server can keep a transaction open while another one runs; PGlite runs one at a time.
  it.runIf(kind === 'postgres')(
    'stays exact when two transactions add to the same keys at once',
    async () => {
      const listingId = await createTestListing(db, account.accountId, { name: 'Raced Retreat' });
      now = new Date('2026-06-03T12:00:00.000Z');
      const reservations = createReservationUseCases({ db, clock });
      const booked = await Promise.all(
        ['2026-09-01', '2026-09-10', '2026-09-20'].map((startDate) =>
          reservations.create(account.owner, {
            listingId,
            startDate,
            endDate: addDays(startDate, 2),
            guest,
            adults: 1,
            guestPrice: 200,
          }),
        ),
      );
      // A new price for each of two of them, in two transactions at once: both add to the same keys.
      const reprice = (executor: Executor, reservationId: string, startDate: string) =>
        executor
          .insertInto('reservation_changes')
          .values({
            reservation_id: reservationId,
            account_id: account.accountId,
            changed_at: new Date('2026-06-04T12:00:00.000Z'),
            change: 'price',
            status: 'accepted',
            start_date: startDate,
            end_date: addDays(startDate, 2),
            guests: 1,
            accommodation_minor: 30_000,
            guest_price_minor: 30_000,
            host_payout_minor: 30_000,
            currency: 'USD',
          })
          .execute();
      const [, second, third] = booked;
      await writeWhileAnotherIsOpen(
        db,
        (trx) => reprice(trx, second?.id ?? '', '2026-09-10'),
        (trx) => reprice(trx, third?.id ?? '', '2026-09-20'),
      );
      expect((await storedMonths()).filter((row) => row[1] === '2026-09-01')).toEqual([
        [account.accountId, '2026-09-01', '2026-06-01', '2026-06-01', 'USD', 4, 40_000, 2, 0],
        [account.accountId, '2026-09-01', '2026-06-01', 'infinity', 'USD', 6, 80_000, 3, 0],
      ]);
      await expectExact();
    },
  );
});
