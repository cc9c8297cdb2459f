import type { Clock } from '@innkeep/domain';
import { newId } from '@innkeep/domain';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCalendarUseCases } from '../src/calendar/calendar.store.ts';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database, Executor } from '../src/database.ts';
import { createReservationUseCases } from '../src/reservations/reservations.store.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { writeWhileAnotherIsOpen } from './support/concurrent-writers.ts';
import { createTestAccount, createTestListing, type TestAccount } from './support/fixtures.ts';
import { insertOwnerBlock } from './support/gaps-from-holds.ts';

// `calendar_gaps` is derived from `calendar_holds` by statement triggers. After every kind of hold write it
// must hold exactly what a rebuild from the holds gives: the run between each hold and the next, when open.

const clock: Clock = { now: () => new Date('2026-04-01T12:00:00.000Z') };
const guest = { firstName: 'Grace', lastName: 'Guest' };

type GapRow = [listingId: string, startDate: string, endDate: string];

describe.each(testDatabaseKinds)('calendar gaps on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let account: TestAccount;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    account = await createTestAccount(db);
  }, 180_000);

  afterAll(async () => {
    await handle?.close();
  });

  async function storedGaps(): Promise<GapRow[]> {
    const { rows } = await sql<{ listing_id: string; start_date: string; end_date: string }>`
      select listing_id, start_date::text, end_date::text from calendar_gaps
      order by listing_id, start_date`.execute(db);
    return rows.map((row) => [row.listing_id, row.start_date, row.end_date]);
  }

  async function rebuiltGaps(): Promise<GapRow[]> {
    const { rows } = await sql<{ listing_id: string; start_date: string; end_date: string }>`
      select listing_id, start_date::text, end_date::text
      from (
        select listing_id, upper(nights) as start_date,
          lead(lower(nights)) over (partition by listing_id order by lower(nights)) as end_date
        from calendar_holds
      ) g
      where end_date > start_date
      order by listing_id, start_date`.execute(db);
    return rows.map((row) => [row.listing_id, row.start_date, row.end_date]);
  }

  const insertBlock = (executor: Executor, listingId: string, startDate: string, endDate: string) =>
    insertOwnerBlock(executor, account.accountId, listingId, startDate, endDate);

  async function expectExact(): Promise<void> {
    expect(await storedGaps()).toEqual(await rebuiltGaps());
  }

  it('follows inserts, moves, resizes and deletes of holds, one or many at a time', async () => {
    const harbor = await createTestListing(db, account.accountId, { name: 'Harbor Loft' });
    const cabin = await createTestListing(db, account.accountId, { name: 'Pine Cabin' });

    const first = await insertBlock(db, harbor, '2026-06-01', '2026-06-03');
    await expectExact();
    const second = await insertBlock(db, harbor, '2026-06-10', '2026-06-12');
    // Back to back with the second block: no gap between them.
    await insertBlock(db, harbor, '2026-06-12', '2026-06-15');
    expect((await storedGaps()).filter(([listingId]) => listingId === harbor)).toEqual([
      [harbor, '2026-06-03', '2026-06-10'],
    ]);
    await expectExact();

    // Several holds of two listings in one statement, out of order.
    await db
      .insertInto('calendar_holds')
      .values(
        [
          [cabin, '2026-07-20', '2026-07-22'],
          [harbor, '2026-06-20', '2026-06-21'],
          [cabin, '2026-07-01', '2026-07-05'],
          [cabin, '2026-07-05', '2026-07-06'],
        ].map(([listingId, startDate, endDate]) => ({
          id: newId('block'),
          account_id: account.accountId,
          listing_id: listingId ?? '',
          nights: `[${startDate},${endDate})`,
          kind: 'block',
          block_reason: 'maintenance',
        })),
      )
      .execute();
    await expectExact();

    // Grow into the gap, shrink away from it, move to the other listing.
    await sql`update calendar_holds set nights = '[2026-06-01,2026-06-08)' where id = ${first}`.execute(db);
    await expectExact();
    await sql`update calendar_holds set nights = '[2026-06-11,2026-06-12)' where id = ${second}`.execute(db);
    await expectExact();
    await sql`
      update calendar_holds set listing_id = ${cabin}, nights = '[2026-07-10,2026-07-12)'
      where id = ${second}`.execute(db);
    await expectExact();
    // An update that changes no nights leaves the gaps as they are.
    await sql`update calendar_holds set note = 'Painting' where listing_id = ${cabin}`.execute(db);
    await expectExact();

    await db.deleteFrom('calendar_holds').where('id', '=', first).execute();
    await expectExact();
    await db.deleteFrom('calendar_holds').where('listing_id', 'in', [harbor, cabin]).execute();
    expect((await storedGaps()).filter(([listingId]) => [harbor, cabin].includes(listingId))).toEqual([]);
    await expectExact();
  });

  it('follows reservations and blocks written through the use cases', async () => {
    const listingId = await createTestListing(db, account.accountId, { name: 'Dune House' });
    const reservations = createReservationUseCases({ db, clock });
    const calendar = createCalendarUseCases({ db, clock });

    const early = await reservations.create(account.owner, {
      listingId,
      startDate: '2026-05-01',
      endDate: '2026-05-04',
      guest,
      adults: 2,
      guestPrice: 300,
    });
    const late = await reservations.create(account.owner, {
      listingId,
      startDate: '2026-05-20',
      endDate: '2026-05-25',
      guest,
      adults: 2,
      guestPrice: 500,
    });
    await expectExact();
    await calendar.setAvailability(account.owner, {
      listingId,
      startDate: '2026-05-10',
      endDate: '2026-05-12',
      available: false,
    });
    await expectExact();
    await reservations.update(account.owner, {
      reservationId: early.id,
      startDate: '2026-05-02',
      endDate: '2026-05-10',
    });
    await expectExact();
    await calendar.setAvailability(account.owner, {
      listingId,
      startDate: '2026-05-11',
      endDate: '2026-05-11',
      available: true,
    });
    await expectExact();
    await reservations.cancel(account.owner, { reservationId: late.id, cancelledBy: 'guest' });
    await expectExact();
    // Deleting the listing's reservation cascades to its hold.
    await db.deleteFrom('reservations').where('id', '=', early.id).execute();
    await expectExact();
  });

  // Only a server can keep a transaction open while another one runs; PGlite runs one at a time.
  it.runIf(kind === 'postgres')('stays exact when two transactions write one listing at once', async () => {
    const listingId = await createTestListing(db, account.accountId, { name: 'Raced Retreat' });
    await insertBlock(db, listingId, '2026-08-01', '2026-08-02');
    await insertBlock(db, listingId, '2026-08-30', '2026-08-31');

    // The second's rebuild waits for the first transaction, then reads the hold that one committed.
    await writeWhileAnotherIsOpen(
      db,
      (trx) => insertBlock(trx, listingId, '2026-08-10', '2026-08-12'),
      (trx) => insertBlock(trx, listingId, '2026-08-20', '2026-08-22'),
    );

    expect((await storedGaps()).filter(([id]) => id === listingId)).toEqual([
      [listingId, '2026-08-02', '2026-08-10'],
      [listingId, '2026-08-12', '2026-08-20'],
      [listingId, '2026-08-22', '2026-08-30'],
    ]);
    await expectExact();
  });
});
