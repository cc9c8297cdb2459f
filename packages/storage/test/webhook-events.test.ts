import type { Clock, WebhookEvent } from '@innkeep/domain';
import { webhookEventDataSchemas } from '@innkeep/domain';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCalendarUseCases } from '../src/calendar/calendar.store.ts';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { createListingUseCases } from '../src/listings/listings.store.ts';
import { createMessageRuleRunner } from '../src/messages/message-rule-runner.ts';
import { createMessageRuleUseCases } from '../src/messages/message-rules.store.ts';
import { createMessageUseCases } from '../src/messages/messages.store.ts';
import { createReservationUseCases } from '../src/reservations/reservations.store.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { createTestAccount, createTestListing, type TestAccount } from './support/fixtures.ts';

// 12:00 UTC on 1 April 2026 is 08:00 in New York, the test listings' zone: May and June are in the future.
const clock: Clock = { now: () => new Date('2026-04-01T12:00:00.000Z') };

const guest = { firstName: 'Ada', lastName: 'Lovelace' };

describe.each(testDatabaseKinds)('webhook events recorded by writes on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let account: TestAccount;
  let other: TestAccount;
  let listingId: string;
  let otherListingId: string;
  const deps = () => ({ db, clock });

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    account = await createTestAccount(db);
    other = await createTestAccount(db);
  }, 180_000);

  // A fresh listing per case and an empty outbox, so each case sees only the events of its own writes.
  beforeEach(async () => {
    await db.deleteFrom('webhook_events').execute();
    listingId = await createTestListing(db, account.accountId);
    otherListingId = await createTestListing(db, other.accountId);
  });

  afterAll(async () => {
    await handle?.close();
  });

  /**
   * The account's events, oldest first, each checked against its event's schema: the data must parse and
   * carry nothing the schema does not name.
   */
  async function eventsOf(accountId: string): Promise<{ event: WebhookEvent; data: unknown }[]> {
    const rows = await db
      .selectFrom('webhook_events')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created')
      .orderBy('id')
      .execute();
    return rows.map((row) => {
      expect(row.id).toMatch(/^evt_[0-9a-z]{16}$/);
      expect(row.created).toBeInstanceOf(Date);
      expect(row.dispatched_at).toBeNull();
      const event = row.event as WebhookEvent;
      expect(webhookEventDataSchemas[event].parse(row.data)).toEqual(row.data);
      return { event, data: row.data };
    });
  }

  async function allEventCount(): Promise<number> {
    const { n } = await db
      .selectFrom('webhook_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  async function book(status: 'pending' | 'accepted' = 'accepted') {
    return createReservationUseCases(deps()).create(account.owner, {
      listingId,
      startDate: '2026-05-01',
      endDate: '2026-05-04',
      guest,
      adults: 2,
      guestPrice: 450,
      status,
    });
  }

  it('reservation.created: one event with the stay, under the booking account only', async () => {
    const created = await book();
    expect(await eventsOf(account.accountId)).toEqual([
      {
        event: 'reservation.created',
        data: {
          reservationId: created.id,
          listingId,
          channel: 'direct',
          status: 'accepted',
          startDate: '2026-05-01',
          endDate: '2026-05-04',
        },
      },
    ]);
    expect(await eventsOf(other.accountId)).toEqual([]);
  });

  it('reservation.updated: names each changed field with before and after, and nothing unchanged', async () => {
    const created = await book();
    await db.deleteFrom('webhook_events').execute();
    const reservations = createReservationUseCases(deps());
    await reservations.update(account.owner, {
      reservationId: created.id,
      startDate: '2026-05-02',
      endDate: '2026-05-05',
      adults: 3,
      guestPrice: 450,
      guest: { firstName: 'Ada' },
    });
    expect(await eventsOf(account.accountId)).toEqual([
      {
        event: 'reservation.updated',
        data: {
          reservationId: created.id,
          listingId,
          changes: {
            startDate: { from: '2026-05-01', to: '2026-05-02' },
            endDate: { from: '2026-05-04', to: '2026-05-05' },
            adults: { from: 2, to: 3 },
          },
        },
      },
    ]);

    // An update that changes nothing writes nothing, so it announces nothing.
    await reservations.update(account.owner, { reservationId: created.id, adults: 3 });
    expect(await eventsOf(account.accountId)).toHaveLength(1);
  });

  it('reservation.updated for a status change, reservation.cancelled for a cancellation', async () => {
    const created = await book('pending');
    await db.deleteFrom('webhook_events').execute();
    const reservations = createReservationUseCases(deps());
    await reservations.changeStatus(account.owner, { reservationId: created.id, status: 'accepted' });
    await reservations.cancel(account.owner, { reservationId: created.id, cancelledBy: 'guest' });
    expect(await eventsOf(account.accountId)).toEqual([
      {
        event: 'reservation.updated',
        data: {
          reservationId: created.id,
          listingId,
          changes: { status: { from: 'pending', to: 'accepted' } },
        },
      },
      {
        event: 'reservation.cancelled',
        data: { reservationId: created.id, listingId, previousStatus: 'accepted', cancelledBy: 'guest' },
      },
    ]);
  });

  it('records nothing for a refused write: an overlapping booking, a cancelled stay changed, a foreign listing', async () => {
    const created = await book();
    await db.deleteFrom('webhook_events').execute();
    const reservations = createReservationUseCases(deps());
    await expect(book()).rejects.toMatchObject({ code: 'conflict' });
    await reservations.cancel(account.owner, { reservationId: created.id });
    await db.deleteFrom('webhook_events').execute();
    await expect(
      reservations.update(account.owner, { reservationId: created.id, adults: 1 }),
    ).rejects.toMatchObject({ code: 'failed_precondition' });
    await expect(
      createListingUseCases(deps()).update(account.owner, { listingId: otherListingId, basePrice: 1 }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      createListingUseCases(deps()).update(account.owner, { listingId, minNights: 30, maxNights: 10 }),
    ).rejects.toMatchObject({ code: 'invalid_argument' });
    expect(await allEventCount()).toBe(0);
  });

  it('message.created for a host message', async () => {
    const created = await book();
    await db.deleteFrom('webhook_events').execute();
    const sent = await createMessageUseCases(deps()).send(account.owner, {
      reservationId: created.id,
      body: 'The key is under the mat.',
    });
    expect(await eventsOf(account.accountId)).toEqual([
      {
        event: 'message.created',
        data: { messageId: sent.id, reservationId: created.id, sender: 'host', messageRuleId: null },
      },
    ]);
  });

  it('message.created for each message a rule sends, once, and never for a run that rolls back', async () => {
    const created = await book();
    const rule = await createMessageRuleUseCases(deps()).create(account.owner, {
      name: 'Departure',
      trigger: 'check_out',
      body: 'Safe travels, {{guest_first_name}}.',
      listingIds: [listingId],
    });
    await db.deleteFrom('webhook_events').execute();
    // Check-out 2026-05-04 at the listing's 11:00 in New York (EDT, UTC-4) is 15:00 UTC.
    const now = new Date('2026-05-04T15:01:00Z');

    // The run writes its message, then its caller's transaction fails: neither the message nor its event stays.
    const failure = new Error('the caller failed after the run');
    await expect(
      db.transaction().execute(async (trx) => {
        const run = await createMessageRuleRunner({ db: trx, clock }).runDue({ now });
        expect(run.sent).toBe(1);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await allEventCount()).toBe(0);

    const runner = createMessageRuleRunner(deps());
    expect(await runner.runDue({ now })).toMatchObject({ sent: 1 });
    expect(await runner.runDue({ now })).toMatchObject({ sent: 0 });
    const message = await db
      .selectFrom('messages')
      .select('id')
      .where('reservation_id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(await eventsOf(account.accountId)).toEqual([
      {
        event: 'message.created',
        data: {
          messageId: message.id,
          reservationId: created.id,
          sender: 'automation',
          messageRuleId: rule.id,
        },
      },
    ]);
  });

  it('calendar.updated for prices with the range of the dates set, and for availability', async () => {
    const calendar = createCalendarUseCases(deps());
    await calendar.setPrices(account.owner, {
      listingId,
      prices: [
        { date: '2026-06-03', price: 150 },
        { date: '2026-06-01', minNights: 3 },
        { date: '2026-06-02', channel: 'airbnb', price: 170 },
      ],
    });
    await calendar.setAvailability(account.owner, {
      listingId,
      startDate: '2026-06-10',
      endDate: '2026-06-12',
      available: false,
    });
    await calendar.setAvailability(account.owner, {
      listingId,
      startDate: '2026-06-11',
      endDate: '2026-06-11',
      available: true,
    });
    expect(await eventsOf(account.accountId)).toEqual([
      {
        event: 'calendar.updated',
        data: { listingId, startDate: '2026-06-01', endDate: '2026-06-03', change: 'prices' },
      },
      {
        event: 'calendar.updated',
        data: { listingId, startDate: '2026-06-10', endDate: '2026-06-12', change: 'availability' },
      },
      {
        event: 'calendar.updated',
        data: { listingId, startDate: '2026-06-11', endDate: '2026-06-11', change: 'availability' },
      },
    ]);

    // Opening nights that were open already changes nothing.
    await calendar.setAvailability(account.owner, {
      listingId,
      startDate: '2026-07-01',
      endDate: '2026-07-05',
      available: true,
    });
    expect(await eventsOf(account.accountId)).toHaveLength(3);
  });

  it('listing.updated with the changed settings in API units, nothing for a no-op', async () => {
    const listings = createListingUseCases(deps());
    await listings.update(account.owner, { listingId, basePrice: 120, name: 'Harbor Loft', taxRate: 12.5 });
    await listings.update(account.owner, { listingId, basePrice: 120 });
    expect(await eventsOf(account.accountId)).toEqual([
      {
        event: 'listing.updated',
        data: {
          listingId,
          changes: { basePrice: { from: 100, to: 120 }, taxRate: { from: 0, to: 12.5 } },
        },
      },
    ]);
  });

  it("keeps each account's events to itself", async () => {
    await createListingUseCases(deps()).update(other.owner, { listingId: otherListingId, maxGuests: 6 });
    await createListingUseCases(deps()).update(account.owner, { listingId, maxGuests: 3 });
    expect(await eventsOf(other.accountId)).toEqual([
      {
        event: 'listing.updated',
        data: { listingId: otherListingId, changes: { maxGuests: { from: 4, to: 6 } } },
      },
    ]);
    expect(await eventsOf(account.accountId)).toEqual([
      { event: 'listing.updated', data: { listingId, changes: { maxGuests: { from: 4, to: 3 } } } },
    ]);
  });
});
