import {
  type Channel,
  type Clock,
  type CreateMessageRuleInput,
  channelReservationReason,
  messageEmailRetryDelaysMs,
  newId,
  notDeliveredReasons,
} from '@innkeep/domain';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { createMessageDeliveryQueue } from '../src/messages/message-delivery.store.ts';
import { createMessageRuleRunner } from '../src/messages/message-rule-runner.ts';
import { createMessageRuleUseCases } from '../src/messages/message-rules.store.ts';
import { createMessageUseCases } from '../src/messages/messages.store.ts';
import { domainMigrations } from '../src/migrations/index.ts';
import { createReservationUseCases } from '../src/reservations/reservations.store.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { createTestAccount, createTestListing, type TestAccount } from './support/fixtures.ts';

const start = new Date('2026-04-01T12:00:00.000Z').getTime();
const minute = 60_000;
const leaseMs = 5 * minute;

/** The time the stores see; cases move it by hand. */
let nowMs = start;
const clock: Clock = { now: () => new Date(nowMs) };

describe.each(testDatabaseKinds)('message delivery on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let account: TestAccount;
  let listingId: string;
  const queue = () => createMessageDeliveryQueue({ db, clock });
  const emailing = () => createMessageUseCases({ db, clock, emailDelivery: true });

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    account = await createTestAccount(db);
    listingId = await createTestListing(db, account.accountId, { name: 'Harbor Loft' });
  }, 180_000);

  beforeEach(async () => {
    nowMs = start;
    // Every case starts with nothing queued, so one case's messages are never claimed by another.
    await db.deleteFrom('messages').execute();
  });

  afterAll(async () => {
    await handle?.close();
  });

  /** A stay booked in Innkeep (direct), then moved to `channel` and given `email` as the guest's address. */
  let stays = 0;
  async function book(options: { channel?: Channel; email?: string | null } = {}) {
    // Each stay in its own nights: the listing takes one booking a night.
    const day = (offset: number) =>
      new Date(Date.UTC(2026, 4, 1 + 4 * stays + offset)).toISOString().slice(0, 10);
    const [startDate, endDate] = [day(0), day(3)];
    stays += 1;
    const reservation = await createReservationUseCases({ db, clock }).create(account.owner, {
      listingId,
      startDate,
      endDate,
      guest: { firstName: 'Grace', lastName: 'Guest' },
      adults: 2,
      guestPrice: 300,
    });
    await db
      .updateTable('reservations')
      .set({
        channel: options.channel ?? 'direct',
        guest_email: options.email === undefined ? 'grace@example.test' : options.email,
      })
      .where('id', '=', reservation.id)
      .execute();
    return reservation.id;
  }

  async function stored(messageId: string) {
    return db
      .selectFrom('messages')
      .select([
        'delivery_status',
        'delivery_error',
        'delivery_attempts',
        'next_delivery_at',
        'delivery_lease_until',
      ])
      .where('id', '=', messageId)
      .executeTakeFirstOrThrow();
  }

  async function insertGuestMessage(reservationId: string, sentAt: Date) {
    await db
      .insertInto('messages')
      .values({
        id: newId('message'),
        account_id: account.accountId,
        reservation_id: reservationId,
        sender: 'guest',
        body: 'Is parking included?',
        sent_at: sentAt,
        message_rule_id: null,
        author_user_id: null,
        delivery_status: 'received',
      })
      .execute();
  }

  /** The response time of each wait of the thread, in seconds; null while unanswered. */
  async function waits(reservationId: string) {
    const rows = await db
      .selectFrom('guest_waits')
      .select('response_seconds')
      .where('reservation_id', '=', reservationId)
      .orderBy('guest_message_at')
      .execute();
    return rows.map((row) => row.response_seconds);
  }

  describe('the status a message is written with', () => {
    it('queues a message to a direct guest with an address, on a server that emails', async () => {
      const reservationId = await book();
      const message = await emailing().send(account.owner, { reservationId, body: ' Hello! ' });
      expect(message).toMatchObject({ body: 'Hello!', deliveryStatus: 'queued', deliveryError: null });
      expect(await stored(message.id)).toMatchObject({
        delivery_status: 'queued',
        next_delivery_at: new Date(start),
        delivery_attempts: 0,
      });
    });

    it('stores not_delivered, with the reason, whatever cannot be emailed', async () => {
      const cases: [Parameters<typeof book>[0], boolean, string][] = [
        [{}, false, notDeliveredReasons.emailNotConfigured],
        [{ channel: 'airbnb' }, true, channelReservationReason('airbnb')],
        [{ channel: 'airbnb' }, false, channelReservationReason('airbnb')],
        [{ email: null }, true, notDeliveredReasons.guestHasNoEmail],
      ];
      for (const [stay, emailDelivery, reason] of cases) {
        const reservationId = await book(stay);
        const messages = createMessageUseCases({ db, clock, emailDelivery });
        const message = await messages.send(account.owner, { reservationId, body: 'Hello' });
        expect(message).toMatchObject({ deliveryStatus: 'not_delivered', deliveryError: reason });
        expect(await stored(message.id)).toMatchObject({
          delivery_status: 'not_delivered',
          next_delivery_at: null,
        });
        const thread = await messages.getThread(account.owner, { reservationId });
        expect(thread.messages.items.at(-1)).toMatchObject({
          deliveryStatus: 'not_delivered',
          deliveryError: reason,
        });
      }
      expect(channelReservationReason('airbnb')).toBe(
        "Airbnb reservations need a channel connector, which this build does not have: send it from the channel's inbox",
      );
    });

    it('decides automated messages by the same rule', async () => {
      const direct = await book();
      const airbnb = await book({ channel: 'airbnb' });
      const rule: CreateMessageRuleInput = {
        name: 'Booked',
        trigger: 'booking_confirmed',
        body: 'Thanks for booking!',
        listingIds: [listingId],
      };
      await createMessageRuleUseCases({ db, clock }).create(account.owner, rule);
      // The stays above were confirmed at `start`: due now, inside the runner's lookback.
      nowMs = start + minute;
      await createMessageRuleRunner({ db, clock, emailDelivery: true }).runDue();
      const written = await db
        .selectFrom('messages')
        .select(['reservation_id', 'delivery_status', 'delivery_error'])
        .where('sender', '=', 'automation')
        .where('reservation_id', 'in', [direct, airbnb])
        .execute();
      expect(written).toEqual(
        expect.arrayContaining([
          { reservation_id: direct, delivery_status: 'queued', delivery_error: null },
          {
            reservation_id: airbnb,
            delivery_status: 'not_delivered',
            delivery_error: channelReservationReason('airbnb'),
          },
        ]),
      );
      expect(written).toHaveLength(2);
    });
  });

  describe('the queue', () => {
    it('gives a due message to one claimer at a time, and again once its lease ran out', async () => {
      const reservationId = await book();
      const message = await emailing().send(account.owner, { reservationId, body: 'Hello' });
      const [first, second] = await Promise.all([
        queue().claimDue(clock.now(), 10, leaseMs),
        queue().claimDue(clock.now(), 10, leaseMs),
      ]);
      expect([...(first ?? []), ...(second ?? [])]).toEqual([
        {
          messageId: message.id,
          attempt: 1,
          guestEmail: 'grace@example.test',
          guestName: 'Grace Guest',
          listingName: 'Harbor Loft',
          startDate: expect.stringMatching(/^2026-\d\d-\d\d$/),
          endDate: expect.stringMatching(/^2026-\d\d-\d\d$/),
          confirmationCode: expect.any(String),
          body: 'Hello',
        },
      ]);
      nowMs = start + leaseMs - 1;
      expect(await queue().claimDue(clock.now(), 10, leaseMs)).toEqual([]);
      nowMs = start + leaseMs;
      expect(await queue().claimDue(clock.now(), 10, leaseMs)).toHaveLength(1);
    });

    it('records a message sent', async () => {
      const reservationId = await book();
      const message = await emailing().send(account.owner, { reservationId, body: 'Hello' });
      await queue().claimDue(clock.now(), 10, leaseMs);
      await expect(queue().recordAttempt(message.id, { kind: 'sent' }, clock.now(), 0.5)).resolves.toEqual({
        recorded: true,
        deliveryStatus: 'sent',
        nextAttemptAt: null,
      });
      expect(await stored(message.id)).toEqual({
        delivery_status: 'sent',
        delivery_error: null,
        delivery_attempts: 1,
        next_delivery_at: null,
        delivery_lease_until: null,
      });
      // Recorded once: a late sender whose lease ran out changes nothing.
      await expect(queue().recordAttempt(message.id, { kind: 'sent' }, clock.now(), 0.5)).resolves.toEqual({
        recorded: false,
      });
      expect(await queue().claimDue(new Date(start + 2 * leaseMs), 10, leaseMs)).toEqual([]);
    });

    it('retries on its schedule, then gives up as failed', async () => {
      const reservationId = await book();
      const message = await emailing().send(account.owner, { reservationId, body: 'Hello' });
      const failure = { kind: 'retry', error: '451 4.3.0 Try again later' } as const;
      for (const [index, delayMs] of messageEmailRetryDelaysMs.entries()) {
        const [claimed] = await queue().claimDue(clock.now(), 10, leaseMs);
        expect(claimed?.attempt).toBe(index + 1);
        const recorded = await queue().recordAttempt(message.id, failure, clock.now(), 0.5);
        // random 0.5 is the schedule's own delay.
        expect(recorded).toEqual({
          recorded: true,
          deliveryStatus: 'queued',
          nextAttemptAt: new Date(nowMs + delayMs),
        });
        expect(await stored(message.id)).toMatchObject({
          delivery_status: 'queued',
          delivery_error: failure.error,
        });
        expect(await queue().claimDue(new Date(nowMs + delayMs - 1), 10, leaseMs)).toEqual([]);
        nowMs += delayMs;
      }
      await queue().claimDue(clock.now(), 10, leaseMs);
      await expect(queue().recordAttempt(message.id, failure, clock.now(), 0.5)).resolves.toEqual({
        recorded: true,
        deliveryStatus: 'failed',
        nextAttemptAt: null,
      });
      const attempts = messageEmailRetryDelaysMs.length + 1;
      expect(await stored(message.id)).toEqual({
        delivery_status: 'failed',
        delivery_error: `451 4.3.0 Try again later (gave up after ${attempts} attempts)`,
        delivery_attempts: attempts,
        next_delivery_at: null,
        delivery_lease_until: null,
      });
      // About a day from the first attempt to the last.
      expect(nowMs - start).toBeGreaterThan(20 * 3_600_000);
      expect(nowMs - start).toBeLessThan(28 * 3_600_000);
    });

    it('fails a message refused for good at once, with the reason', async () => {
      const reservationId = await book();
      const message = await emailing().send(account.owner, { reservationId, body: 'Hello' });
      await queue().claimDue(clock.now(), 10, leaseMs);
      const refused = { kind: 'failed', error: '550 5.1.1 No such user' } as const;
      await queue().recordAttempt(message.id, refused, clock.now(), 0.5);
      expect(await stored(message.id)).toMatchObject({
        delivery_status: 'failed',
        delivery_error: '550 5.1.1 No such user',
        delivery_attempts: 1,
      });
    });
  });

  describe('response times', () => {
    it('count only replies that reached the guest, and move when a delivery fails', async () => {
      const reservationId = await book();
      await insertGuestMessage(reservationId, new Date(start - 60 * minute));
      // A reply on its way answers the guest…
      const reply = await emailing().send(account.owner, { reservationId, body: 'Yes, one spot.' });
      expect(await waits(reservationId)).toEqual([3600]);
      // …until its delivery fails: the guest is waiting again.
      await queue().claimDue(clock.now(), 10, leaseMs);
      await queue().recordAttempt(reply.id, { kind: 'failed', error: '550 No such user' }, clock.now(), 0.5);
      expect(await waits(reservationId)).toEqual([null]);
      const bucket = await db
        .selectFrom('guest_wait_buckets')
        .select((eb) => [
          eb.fn.sum<number>('answered').as('answered'),
          eb.fn.sum<number>('waits').as('waits'),
        ])
        .where('account_id', '=', account.accountId)
        .where('replies', '=', 'host')
        .where('dimension', '=', 'overall')
        .executeTakeFirstOrThrow();
      expect({ answered: Number(bucket.answered), waits: Number(bucket.waits) }).toEqual({
        answered: 0,
        waits: 1,
      });
      // A reply that was never delivered answers nothing either, in the thread as in the analytics.
      nowMs += minute;
      const withoutEmail = createMessageUseCases({ db, clock });
      await withoutEmail.send(account.owner, { reservationId, body: 'Yes!' });
      expect(await waits(reservationId)).toEqual([null]);
      expect(await withoutEmail.getThread(account.owner, { reservationId })).toMatchObject({
        needsReply: true,
      });
      // One that is delivered does.
      nowMs += minute;
      await emailing().send(account.owner, { reservationId, body: 'Yes, really.' });
      expect(await waits(reservationId)).toEqual([3720]);
      expect(await emailing().getThread(account.owner, { reservationId })).toMatchObject({
        needsReply: false,
      });
    });
  });

  it('migrates: queued messages become not_delivered, and stop answering their guests', async () => {
    const reservationId = await book();
    const migration = domainMigrations['2026_11_28_0033_message_delivery'];
    if (migration?.down === undefined) throw new Error('The migration is registered, with a down.');
    await insertGuestMessage(reservationId, new Date(start - 60 * minute));
    await migration.down(db);
    // What the old write path stored: queued, counted as the answer.
    const hostMessageId = newId('message');
    await sql`
      insert into messages (id, account_id, reservation_id, sender, body, sent_at, delivery_status)
      values (${hostMessageId}, ${account.accountId}, ${reservationId}, 'host', 'On it', ${new Date(start)}, 'queued')`.execute(
      db,
    );
    await sql`
      insert into guest_waits
        (guest_message_id, reservation_id, account_id, listing_id, channel, stage, guest_message_at, local_date,
         local_hour, local_weekday, response_seconds, automated_seconds)
      select m.id, m.reservation_id, m.account_id, ${listingId}, 'direct', 'booked', m.sent_at, '2026-04-01', 7, 3,
        3600, null
      from messages m where m.reservation_id = ${reservationId} and m.sender = 'guest'`.execute(db);
    await migration.up(db);
    expect(await stored(hostMessageId)).toMatchObject({
      delivery_status: 'not_delivered',
      delivery_error: expect.stringContaining('Written before Innkeep delivered messages'),
      next_delivery_at: null,
    });
    expect(await waits(reservationId)).toEqual([null]);
    // The new check holds: a queued message without a schedule is refused.
    await expect(
      sql`update messages set delivery_status = 'queued' where id = ${hostMessageId}`.execute(db),
    ).rejects.toThrow();
  });
});
