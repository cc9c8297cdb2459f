import type { Actor, Clock } from '@innkeep/domain';
import { newId } from '@innkeep/domain';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { createReviewUseCases } from '../src/reviews/reviews.store.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { createTestAccount, createTestListing, type TestAccount } from './support/fixtures.ts';

const fixedClock: Clock = { now: () => new Date('2026-04-02T09:30:00.000Z') };

describe.each(testDatabaseKinds)('reviews on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let account: TestAccount;
  let other: TestAccount;
  let cabin: string;
  let loft: string;
  /** Review ids by a short name. */
  const ids: Record<string, string> = {};

  const reviews = () => createReviewUseCases({ db, clock: fixedClock });

  async function insertReservation(accountId: string, listingId: string, guest: [string, string]) {
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
        guest_first_name: guest[0],
        guest_last_name: guest[1],
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

  async function insertReview(
    name: string,
    values: {
      accountId: string;
      listingId: string;
      reservationId?: string;
      rating: number;
      submittedAt: string;
      text?: string;
      hostResponse?: string;
    },
  ) {
    const id = newId('review');
    ids[name] = id;
    await db
      .insertInto('reviews')
      .values({
        id,
        account_id: values.accountId,
        listing_id: values.listingId,
        reservation_id: values.reservationId ?? null,
        channel: 'airbnb',
        overall_rating: values.rating,
        cleanliness_rating: values.rating,
        communication_rating: 5,
        public_text: values.text ?? `Review ${name}`,
        private_feedback: null,
        host_response: values.hostResponse ?? null,
        responded_at: values.hostResponse === undefined ? null : new Date(values.submittedAt),
        submitted_at: values.submittedAt,
      })
      .execute();
  }

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    account = await createTestAccount(db);
    other = await createTestAccount(db);
    cabin = await createTestListing(db, account.accountId, { name: 'Cabin' });
    loft = await createTestListing(db, account.accountId, { name: 'Loft' });
    const foreignListing = await createTestListing(db, other.accountId);
    const stay = await insertReservation(account.accountId, cabin, ['Grace', 'Hopper']);
    const a = account.accountId;
    await insertReview('jan', {
      accountId: a,
      listingId: cabin,
      rating: 5,
      submittedAt: '2026-01-10T12:00:00Z',
    });
    await insertReview('feb', {
      accountId: a,
      listingId: loft,
      rating: 2,
      submittedAt: '2026-02-10T12:00:00Z',
      hostResponse: 'Sorry about the heating.',
    });
    // Two reviews 300 microseconds apart: paging must not lose either of them.
    await insertReview('mar1', {
      accountId: a,
      listingId: cabin,
      reservationId: stay,
      rating: 4,
      submittedAt: '2026-03-05T08:00:00.000100Z',
    });
    await insertReview('mar2', {
      accountId: a,
      listingId: loft,
      rating: 3,
      submittedAt: '2026-03-05T08:00:00.000400Z',
    });
    await insertReview('foreign', {
      accountId: other.accountId,
      listingId: foreignListing,
      rating: 1,
      submittedAt: '2026-03-06T08:00:00Z',
    });
  }, 180_000);

  afterAll(async () => {
    await handle?.close();
  });

  it('lists newest first with ratings, text, guest and response, in pages that lose nothing', async () => {
    const all = await reviews().list(account.owner, {});
    expect(all.items.map((r) => r.id)).toEqual([ids.mar2, ids.mar1, ids.feb, ids.jan]);
    expect(all.items[1]).toEqual({
      id: ids.mar1,
      listingId: cabin,
      reservationId: expect.stringMatching(/^res_/),
      guestName: 'Grace Hopper',
      channel: 'airbnb',
      rating: 4,
      categoryRatings: {
        cleanliness: 4,
        accuracy: null,
        checkIn: null,
        communication: 5,
        location: null,
        value: null,
      },
      text: 'Review mar1',
      privateFeedback: null,
      hostResponse: null,
      respondedAt: null,
      submittedAt: '2026-03-05T08:00:00.000Z',
    });
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await reviews().list(account.owner, { limit: 1, ...(cursor ? { cursor } : {}) });
      seen.push(...page.items.map((r) => r.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([ids.mar2, ids.mar1, ids.feb, ids.jan]);
  });

  it('filters by listing, date, rating range and answered state', async () => {
    const list = async (filters: Record<string, unknown>) =>
      (await reviews().list(account.owner, filters)).items.map((r) => r.id);
    expect(await list({ listingId: loft })).toEqual([ids.mar2, ids.feb]);
    expect(await list({ since: '2026-02-10' })).toEqual([ids.mar2, ids.mar1, ids.feb]);
    expect(await list({ since: '2026-02-10T13:00:00+01:00' })).toEqual([ids.mar2, ids.mar1, ids.feb]);
    expect(await list({ since: '2026-02-10T12:00:01Z' })).toEqual([ids.mar2, ids.mar1]);
    expect(await list({ minRating: 3, maxRating: 4 })).toEqual([ids.mar2, ids.mar1]);
    expect(await list({ unanswered: false })).toEqual([ids.feb]);
    expect(await list({ unanswered: true, listingId: cabin })).toEqual([ids.mar1, ids.jan]);
    await expect(list({ minRating: 5, maxRating: 1 })).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(list({ minRating: 6 })).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(list({ since: 'last week' })).rejects.toMatchObject({ code: 'invalid_argument' });
  });

  it('records a response once, audited, and refuses a second one', async () => {
    const id = ids.jan ?? '';
    const answered = await reviews().respond(account.owner, {
      reviewId: id,
      response: '  Thank you, Ada — come back soon!  ',
    });
    expect(answered).toMatchObject({
      hostResponse: 'Thank you, Ada — come back soon!',
      respondedAt: '2026-04-02T09:30:00.000Z',
    });
    const audit = await db.selectFrom('audit_log').selectAll().where('target_id', '=', id).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'review.respond', user_id: account.ownerId });

    await expect(
      reviews().respond(account.owner, { reviewId: id, response: 'Edited' }),
    ).rejects.toMatchObject({
      code: 'failed_precondition',
    });
    expect((await reviews().get(account.owner, id)).hostResponse).toBe('Thank you, Ada — come back soon!');
    expect(await db.selectFrom('audit_log').select('id').where('target_id', '=', id).execute()).toHaveLength(
      1,
    );
  });

  it('refuses empty or over-long responses without writing', async () => {
    const id = ids.mar1 ?? '';
    for (const response of ['   ', 'x'.repeat(2001)]) {
      await expect(reviews().respond(account.owner, { reviewId: id, response })).rejects.toMatchObject({
        code: 'invalid_argument',
      });
    }
    const accepted = await reviews().respond(account.owner, { reviewId: id, response: 'y'.repeat(2000) });
    expect(accepted.hostResponse).toHaveLength(2000);
    expect((await reviews().get(account.owner, ids.mar2 ?? '')).hostResponse).toBeNull();
  });

  it('keeps other accounts’ reviews and viewers out', async () => {
    const foreign = ids.foreign ?? '';
    await expect(reviews().get(account.owner, foreign)).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      reviews().respond(account.owner, { reviewId: foreign, response: 'Hi' }),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
    expect((await reviews().list(other.owner, {})).items.map((r) => r.id)).toEqual([foreign]);
    const viewer: Actor = { ...account.owner, role: 'viewer' };
    await expect(
      reviews().respond(viewer, { reviewId: ids.mar2 ?? '', response: 'Hi' }),
    ).rejects.toMatchObject({ code: 'permission_denied' });
    expect((await reviews().get(account.owner, ids.mar2 ?? '')).hostResponse).toBeNull();
  });
});
