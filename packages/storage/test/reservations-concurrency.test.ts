import type { Clock } from '@innkeep/domain';
import { addDays, DomainError, newId } from '@innkeep/domain';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { createReservationUseCases } from '../src/reservations/reservations.store.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { createTestAccount, createTestListing, type TestAccount } from './support/fixtures.ts';

const clock: Clock = { now: () => new Date('2026-04-01T12:00:00.000Z') };

describe.each(testDatabaseKinds)('no double booking on %s', (kind) => {
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

  async function holdsOn(listingId: string) {
    return db
      .selectFrom('calendar_holds')
      .select([sql<string>`lower(nights)`.as('start'), sql<string>`upper(nights)`.as('end'), 'kind'])
      .where('listing_id', '=', listingId)
      .execute();
  }

  it('lets exactly one of 50 concurrent overlapping bookings through', async () => {
    const listingId = await createTestListing(db, account.accountId, { name: 'Contested Cabin' });
    const reservations = createReservationUseCases({ db, clock });
    // Stays of 4 nights arriving 1, 2 or 3 June: every pair shares at least one night. Half are priced
    // from the calendar, half at an explicit price, so both paths race.
    const requests = Array.from({ length: 50 }, (_, index) => {
      const startDate = addDays('2026-06-01', index % 3);
      return {
        listingId,
        startDate,
        endDate: addDays(startDate, 4),
        guest: { firstName: `Guest${index}`, lastName: 'Racer' },
        adults: 2,
        ...(index % 2 === 0 ? { guestPrice: 400 } : {}),
      };
    });
    const results = await Promise.allSettled(
      requests.map((request) => reservations.create(account.owner, request)),
    );

    const fulfilled = results.filter((result) => result.status === 'fulfilled');
    expect(fulfilled).toHaveLength(1);
    const winner = fulfilled[0]?.value;
    results.forEach((result, index) => {
      if (result.status === 'fulfilled') return;
      const error: unknown = result.reason;
      expect(error).toBeInstanceOf(DomainError);
      const refusal = error as DomainError;
      expect(refusal.code).toBe('conflict');
      const request = requests[index];
      expect(refusal.message).toContain('Contested Cabin');
      expect(refusal.message).toContain(request?.startDate);
      expect(refusal.message).toContain(request?.endDate);
      expect(refusal.message).toContain(winner?.startDate);
      expect(refusal.details).toEqual({
        clashes: [
          {
            startDate: winner?.startDate,
            endDate: winner?.endDate,
            kind: 'reservation',
            reservationId: winner?.id,
            blockReason: null,
          },
        ],
      });
    });

    expect(await holdsOn(listingId)).toEqual([
      { start: winner?.startDate, end: winner?.endDate, kind: 'reservation' },
    ]);
    const stored = await db
      .selectFrom('reservations')
      .select('id')
      .where('listing_id', '=', listingId)
      .execute();
    expect(stored.map((row) => row.id)).toEqual([winner?.id]);
    const changes = await db
      .selectFrom('reservation_changes')
      .select('reservation_id')
      .where('account_id', '=', account.accountId)
      .execute();
    expect(changes.map((row) => row.reservation_id)).toEqual([winner?.id]);
  }, 180_000);

  // Only a server can keep a transaction open while another one runs; PGlite runs one at a time.
  it.runIf(kind === 'postgres')(
    'reports what won when the constraint, not the check, refuses a booking',
    async () => {
      const listingId = await createTestListing(db, account.accountId, { name: 'Raced Retreat' });
      const reservations = createReservationUseCases({ db, clock });
      // A block written by a writer that does not take the listing lock, left uncommitted, so the
      // booking's own clash check cannot see it and only the exclusion constraint can stop the booking.
      let release: () => void = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let blockWritten: () => void = () => {};
      const written = new Promise<void>((resolve) => {
        blockWritten = resolve;
      });
      const blocker = db.transaction().execute(async (trx) => {
        await trx
          .insertInto('calendar_holds')
          .values({
            id: newId('block'),
            account_id: account.accountId,
            listing_id: listingId,
            nights: '[2026-07-03,2026-07-06)',
            kind: 'block',
            reservation_id: null,
            block_reason: 'maintenance',
            note: null,
            created_by: null,
          })
          .execute();
        blockWritten();
        await released;
      });
      await written;
      const booking = reservations.create(account.owner, {
        listingId,
        startDate: '2026-07-01',
        endDate: '2026-07-04',
        guest: { firstName: 'Late', lastName: 'Comer' },
        adults: 1,
        guestPrice: 300,
      });
      booking.catch(() => {});
      // Wait until the booking's hold insert is stuck behind the open block.
      for (let attempt = 0; attempt < 100; attempt += 1) {
        const waiting = await sql<{ n: number }>`
          select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`.execute(db);
        if ((waiting.rows[0]?.n ?? 0) > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      release();
      await blocker;
      await expect(booking).rejects.toMatchObject({
        code: 'conflict',
        details: {
          clashes: [
            {
              startDate: '2026-07-03',
              endDate: '2026-07-06',
              kind: 'block',
              reservationId: null,
              blockReason: 'maintenance',
            },
          ],
        },
      });
      expect(await holdsOn(listingId)).toEqual([{ start: '2026-07-03', end: '2026-07-06', kind: 'block' }]);
      const stored = await db
        .selectFrom('reservations')
        .select('id')
        .where('listing_id', '=', listingId)
        .execute();
      expect(stored).toEqual([]);
    },
    30_000,
  );
});
