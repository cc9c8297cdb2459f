import { type Kysely, sql } from 'kysely';
import { expect } from 'vitest';
import type { Database } from '../../src/database.ts';
import { createReservationUseCases } from '../../src/reservations/reservations.store.ts';
import type { RandomPortfolio } from './analytics-random.ts';
import { createTestListing } from './fixtures.ts';

/** What a scenario checks after each write: the derived table against its recomputation. */
export interface DerivedTableChecks {
  /** Fails unless the derived table equals what a rebuild from the reservations gives. */
  expectExact(): Promise<void>;
  /** The derived table's rows, to show that an update moving nothing leaves them alone. */
  storedRows(): Promise<unknown[]>;
}

/**
 * Every kind of raw reservation write a roll-up kept by triggers on `reservations` must follow, checked after
 * each: accepted to cancelled and back, pending to accepted, a move to another month and length (past the
 * portfolio's last night, so it overlaps no other stay), channel and party changes of several rows in one
 * statement, a later confirmation (the booked-on date), a listing moving across the date line (every booking
 * re-dated), an update of every row that moves none, and deletes.
 */
export async function followRawReservationWrites(
  db: Kysely<Database>,
  portfolio: RandomPortfolio,
  checks: DerivedTableChecks,
): Promise<void> {
  const { expectExact } = checks;
  const [first, second, third, fourth] = portfolio.stays.filter((stay) => stay.status === 'accepted');
  const cancelledOne = portfolio.stays.find((stay) => stay.status === 'cancelled');
  const pendingOne = portfolio.stays.find((stay) => stay.status === 'pending');
  if (!first || !second || !third || !fourth || !cancelledOne || !pendingOne) {
    throw new Error('the random portfolio lacks a status this scenario needs');
  }
  await expectExact();

  await sql`
    update reservations set status = 'cancelled', cancelled_by = 'guest' where id = ${first.id}`.execute(db);
  await expectExact();
  await sql`
    update reservations set status = 'accepted', cancelled_by = null where id = ${cancelledOne.id}`.execute(
    db,
  );
  await sql`update reservations set status = 'accepted' where id = ${pendingOne.id}`.execute(db);
  await expectExact();
  await sql`
    update reservations set start_date = start_date + 1000, end_date = end_date + 1003
    where id = ${second.id}`.execute(db);
  await sql`
    update reservations set channel = case when channel = 'airbnb' then 'vrbo' else 'airbnb' end,
      children = children + 1
    where id in (${third.id}, ${fourth.id})`.execute(db);
  await expectExact();
  await sql`
    update reservations set confirmed_at = confirmed_at + interval '9 days'
    where id = ${third.id}`.execute(db);
  await expectExact();
  await sql`
    update listings set time_zone = 'Pacific/Kiritimati'
    where id = ${portfolio.listings[0]?.id}`.execute(db);
  await expectExact();
  const before = await checks.storedRows();
  await sql`
    update reservations set guest_first_name = 'Renamed'
    where account_id = ${portfolio.account.accountId}`.execute(db);
  expect(await checks.storedRows()).toEqual(before);

  await sql`delete from reservations where id in (${first.id}, ${fourth.id})`.execute(db);
  await expectExact();
}

/**
 * A stay booked, moved and cancelled through the reservation use cases, on a listing of its own, with
 * `expectExact` after each step: the path the product writes by, beside the raw writes above.
 */
export async function followUseCaseReservationWrites(
  db: Kysely<Database>,
  portfolio: RandomPortfolio,
  expectExact: () => Promise<void>,
): Promise<void> {
  const listingId = await createTestListing(db, portfolio.account.accountId, { name: 'Use-case Loft' });
  const reservations = createReservationUseCases({
    db,
    clock: { now: () => new Date('2026-02-10T09:00:00.000Z') },
  });
  const stay = await reservations.create(portfolio.account.owner, {
    listingId,
    startDate: '2026-03-30',
    endDate: '2026-04-02',
    guest: { firstName: 'Grace', lastName: 'Guest' },
    adults: 3,
    guestPrice: 300,
  });
  await expectExact();
  await reservations.update(portfolio.account.owner, {
    reservationId: stay.id,
    startDate: '2026-04-05',
    endDate: '2026-04-12',
  });
  await expectExact();
  await reservations.cancel(portfolio.account.owner, { reservationId: stay.id, cancelledBy: 'guest' });
  await expectExact();
}
