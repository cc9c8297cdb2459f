import type { Actor, Clock, MessageUseCases } from '@innkeep/domain';
import { newId } from '@innkeep/domain';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { createMessageUseCases } from '../src/messages/messages.store.ts';
import { createReservationUseCases } from '../src/reservations/reservations.store.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { createTestAccount, createTestListing, type TestAccount } from './support/fixtures.ts';

const now = new Date('2026-04-01T12:00:00.000Z');
const clock: Clock = { now: () => now };

describe.each(testDatabaseKinds)('message threads on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let account: TestAccount;
  let other: TestAccount;
  let messages: MessageUseCases;
  let listingId: string;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    account = await createTestAccount(db);
    other = await createTestAccount(db);
    // Email delivery on, and a direct guest with an address (below): a host message is queued to be emailed.
    messages = createMessageUseCases({ db, clock, emailDelivery: true });
    listingId = await createTestListing(db, account.accountId, { name: 'Harbor Loft' });
  }, 180_000);

  afterAll(async () => {
    await handle?.close();
  });

  async function book(startDate: string, endDate: string) {
    return createReservationUseCases({ db, clock }).create(account.owner, {
      listingId,
      startDate,
      endDate,
      guest: { firstName: 'Grace', lastName: 'Guest', email: 'grace@example.test' },
      adults: 2,
      guestPrice: 300,
    });
  }

  /** Inserts a message as a channel sync or a rule would, at a given instant (microseconds allowed). */
  async function insertMessage(reservationId: string, sender: string, body: string, sentAt: string) {
    const id = newId('message');
    await db
      .insertInto('messages')
      .values({
        id,
        account_id: account.accountId,
        reservation_id: reservationId,
        sender,
        body,
        sent_at: sql<Date>`${sentAt}::timestamptz`,
        message_rule_id: null,
        author_user_id: null,
        delivery_status: sender === 'guest' ? 'received' : 'sent',
      })
      .execute();
    return id;
  }

  async function auditCount() {
    const row = await db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', account.accountId)
      .executeTakeFirstOrThrow();
    return row.n;
  }

  it('returns the thread oldest first with the reservation and whether the guest awaits a reply', async () => {
    const reservation = await book('2026-05-01', '2026-05-04');
    await insertMessage(reservation.id, 'guest', 'Is parking included?', '2026-03-30T09:00:00Z');
    await insertMessage(reservation.id, 'host', 'Yes, one spot.', '2026-03-30T10:00:00Z');
    await insertMessage(reservation.id, 'guest', 'Great, and early check-in?', '2026-03-31T08:00:00Z');
    await insertMessage(reservation.id, 'automation', 'Your check-in details…', '2026-03-31T09:00:00Z');

    const thread = await messages.getThread(account.owner, { reservationId: reservation.id });
    expect(thread.reservation).toEqual({
      id: reservation.id,
      listingId,
      listingName: 'Harbor Loft',
      guestName: 'Grace Guest',
      startDate: '2026-05-01',
      endDate: '2026-05-04',
      status: 'accepted',
      channel: 'direct',
      confirmationCode: reservation.confirmationCode,
    });
    expect(thread.messages.items.map((message) => [message.sender, message.body])).toEqual([
      ['guest', 'Is parking included?'],
      ['host', 'Yes, one spot.'],
      ['guest', 'Great, and early check-in?'],
      ['automation', 'Your check-in details…'],
    ]);
    expect(thread.messages.hasMore).toBe(false);
    // The automated message answers nothing: the guest's question still waits for the host.
    expect(thread.needsReply).toBe(true);
    expect(thread.lastGuestMessageAt).toBe('2026-03-31T08:00:00.000Z');

    const sent = await messages.send(account.owner, {
      reservationId: reservation.id,
      body: '  Early check-in at 1 pm works.  ',
    });
    expect(sent).toMatchObject({
      sender: 'host',
      body: 'Early check-in at 1 pm works.',
      sentAt: now.toISOString(),
      deliveryStatus: 'queued',
      deliveryError: null,
      authorUserId: account.ownerId,
      messageRuleId: null,
    });
    const after = await messages.getThread(account.owner, { reservationId: reservation.id });
    expect(after.needsReply).toBe(false);
    expect(after.messages.items.at(-1)?.id).toBe(sent.id);
    const audit = await db.selectFrom('audit_log').selectAll().where('target_id', '=', sent.id).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'message.send',
      target_type: 'message',
      user_id: account.ownerId,
    });
  });

  it('says no reply is needed for an empty thread', async () => {
    const reservation = await book('2026-06-01', '2026-06-04');
    const thread = await messages.getThread(account.owner, { reservationId: reservation.id });
    expect(thread).toMatchObject({ needsReply: false, lastGuestMessageAt: null });
    expect(thread.messages).toEqual({ items: [], nextCursor: null, hasMore: false });
  });

  it('pages without skipping messages that share a millisecond', async () => {
    const reservation = await book('2026-07-01', '2026-07-04');
    const ids = [
      await insertMessage(reservation.id, 'guest', 'one', '2026-03-01T10:00:00.123456Z'),
      await insertMessage(reservation.id, 'guest', 'two', '2026-03-01T10:00:00.123789Z'),
      await insertMessage(reservation.id, 'guest', 'three', '2026-03-01T10:00:00.124Z'),
      await insertMessage(reservation.id, 'host', 'four', '2026-03-02T10:00:00Z'),
      await insertMessage(reservation.id, 'host', 'five', '2026-03-02T10:00:00Z'),
    ];
    const bodies: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page += 1) {
      const thread = await messages.getThread(account.owner, {
        reservationId: reservation.id,
        limit: 1,
        ...(cursor ? { cursor } : {}),
      });
      bodies.push(...thread.messages.items.map((message) => message.body));
      if (!thread.messages.hasMore) break;
      cursor = thread.messages.nextCursor ?? undefined;
    }
    // Equal timestamps fall back to id order.
    const sameInstant = [ids[3] ?? '', ids[4] ?? ''].sort();
    const expectedLast = sameInstant.map((id) => (id === ids[3] ? 'four' : 'five'));
    expect(bodies).toEqual(['one', 'two', 'three', ...expectedLast]);
  });

  it('refuses empty or oversized messages, viewers and other accounts, and writes nothing', async () => {
    const reservation = await book('2026-08-01', '2026-08-04');
    const before = await auditCount();
    const viewer: Actor = { ...account.owner, role: 'viewer' };
    await expect(
      messages.send(account.owner, { reservationId: reservation.id, body: '   ' }),
    ).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    await expect(
      messages.send(account.owner, { reservationId: reservation.id, body: 'x'.repeat(5001) }),
    ).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(messages.send(viewer, { reservationId: reservation.id, body: 'Hi' })).rejects.toMatchObject({
      code: 'permission_denied',
    });
    await expect(
      messages.send(other.owner, { reservationId: reservation.id, body: 'Hi' }),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(messages.getThread(other.owner, { reservationId: reservation.id })).rejects.toMatchObject({
      code: 'not_found',
    });
    const stored = await db
      .selectFrom('messages')
      .select('id')
      .where('reservation_id', '=', reservation.id)
      .execute();
    expect(stored).toEqual([]);
    expect(await auditCount()).toBe(before);
    // Exactly 5000 characters is allowed.
    await expect(
      messages.send(account.owner, { reservationId: reservation.id, body: 'y'.repeat(5000) }),
    ).resolves.toMatchObject({ deliveryStatus: 'queued' });
  });
});
