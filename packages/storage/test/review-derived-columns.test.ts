import { newId } from '@innkeep/domain';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { createTestAccount, createTestListing } from './support/fixtures.ts';

// `reviews.local_date` and `reservations.reviewed` are kept by triggers (migration 0009); whatever writes
// reviews, reservations or a listing's time zone, they must equal what they are derived from.
describe.each(testDatabaseKinds)('review-derived columns on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let accountId: string;
  let listingId: string;
  let firstStay: string;
  let secondStay: string;
  const reviewId = newId('review');

  async function insertReservation(): Promise<string> {
    const id = newId('reservation');
    await db
      .insertInto('reservations')
      .values({
        id,
        account_id: accountId,
        listing_id: listingId,
        channel: 'airbnb',
        confirmation_code: id.toUpperCase(),
        status: 'accepted',
        guest_first_name: 'Ada',
        guest_last_name: 'Lovelace',
        start_date: '2026-03-01',
        end_date: '2026-03-04',
        currency: 'USD',
        accommodation_minor: 30_000,
        guest_price_minor: 35_000,
        host_payout_minor: 32_000,
      })
      .execute();
    return id;
  }

  /** The reviewed flags of the two stays, and the review's local date (null once it is gone). */
  async function derived() {
    const { rows: stays } = await sql<{ id: string; reviewed: boolean }>`
      select id, reviewed from reservations where id in (${firstStay}, ${secondStay})`.execute(db);
    const { rows: reviews } = await sql<{ local_date: string }>`
      select to_char(local_date, 'YYYY-MM-DD') as local_date from reviews where id = ${reviewId}`.execute(db);
    return {
      first: stays.find((row) => row.id === firstStay)?.reviewed,
      second: stays.find((row) => row.id === secondStay)?.reviewed,
      localDate: reviews[0]?.local_date ?? null,
    };
  }

  /** Rows whose derived value differs from a rebuild from the source columns. */
  async function staleRows(): Promise<number> {
    const { rows } = await sql<{ stale: string }>`
      select (
        select count(*) from reservations r
        where r.reviewed is distinct from
          exists (select from reviews v where v.reservation_id = r.id and v.account_id = r.account_id)
      ) + (
        select count(*) from reviews v join listings l on l.id = v.listing_id
        where v.local_date is distinct from (v.submitted_at at time zone l.time_zone)::date
      ) as stale`.execute(db);
    return Number(rows[0]?.stale);
  }

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    accountId = (await createTestAccount(db)).accountId;
    listingId = await createTestListing(db, accountId, { time_zone: 'America/New_York' });
    firstStay = await insertReservation();
    secondStay = await insertReservation();
  }, 180_000);

  afterAll(async () => {
    await handle?.close();
  });

  it('follows inserts, updates and deletes of reviews and time-zone changes of listings', async () => {
    expect(await derived()).toEqual({ first: false, second: false, localDate: null });

    // 03:00 UTC is still the evening before in New York.
    await db
      .insertInto('reviews')
      .values({
        id: reviewId,
        account_id: accountId,
        listing_id: listingId,
        reservation_id: firstStay,
        channel: 'airbnb',
        overall_rating: 5,
        submitted_at: '2026-03-05T03:00:00Z',
      })
      .execute();
    expect(await derived()).toEqual({ first: true, second: false, localDate: '2026-03-04' });

    await db.updateTable('reviews').set({ reservation_id: secondStay }).where('id', '=', reviewId).execute();
    expect(await derived()).toEqual({ first: false, second: true, localDate: '2026-03-04' });

    await db
      .updateTable('reviews')
      .set({ submitted_at: new Date('2026-03-06T12:00:00Z') })
      .where('id', '=', reviewId)
      .execute();
    expect(await derived()).toEqual({ first: false, second: true, localDate: '2026-03-06' });

    // 12:00 UTC on 6 March is already 7 March in Kiritimati (UTC+14).
    await db
      .updateTable('listings')
      .set({ time_zone: 'Pacific/Kiritimati' })
      .where('id', '=', listingId)
      .execute();
    expect(await derived()).toEqual({ first: false, second: true, localDate: '2026-03-07' });

    await db.deleteFrom('reviews').where('id', '=', reviewId).execute();
    expect(await derived()).toEqual({ first: false, second: false, localDate: null });
    expect(await staleRows()).toBe(0);
  });
});
