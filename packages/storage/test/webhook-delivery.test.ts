import type { Clock, DueWebhookDelivery, WebhookEvent, WebhookEventRecord } from '@innkeep/domain';
import { newId } from '@innkeep/domain';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { createListingUseCases } from '../src/listings/listings.store.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { recordEvent, recordEvents } from '../src/webhooks/record-event.ts';
import { createWebhookDeliveryStore } from '../src/webhooks/webhook-delivery.store.ts';
import { createWebhookUseCases } from '../src/webhooks/webhooks.store.ts';
import { createTestAccount, createTestListing, type TestAccount } from './support/fixtures.ts';

const second = 1000;
const hour = 3_600_000;
const leaseMs = 60 * second;
const start = new Date('2026-04-01T12:00:00.000Z').getTime();

/** A clock the test moves by hand; the store takes every time from it or from its arguments. */
let nowMs = start;
const clock: Clock = { now: () => new Date(nowMs) };
const at = (offsetMs: number) => new Date(start + offsetMs);

/** A small, valid event of the given kind for `accountId`. */
function eventOf(accountId: string, event: WebhookEvent): WebhookEventRecord {
  switch (event) {
    case 'calendar.updated':
      return {
        accountId,
        event,
        data: { listingId: 'lst_x', startDate: '2026-05-01', endDate: '2026-05-02', change: 'prices' },
      };
    case 'listing.updated':
      return { accountId, event, data: { listingId: 'lst_x', changes: { name: { from: 'a', to: 'b' } } } };
    case 'message.created':
      return {
        accountId,
        event,
        data: { messageId: 'msg_x', reservationId: 'res_x', sender: 'host', messageRuleId: null },
      };
    case 'reservation.created':
      return {
        accountId,
        event,
        data: {
          reservationId: 'res_x',
          listingId: 'lst_x',
          channel: 'direct',
          status: 'accepted',
          startDate: '2026-05-01',
          endDate: '2026-05-03',
        },
      };
    default:
      throw new Error(`no test event for ${event}`);
  }
}

describe.each(testDatabaseKinds)('the webhook delivery queue on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let account: TestAccount;
  let other: TestAccount;
  const queue = () => createWebhookDeliveryStore({ db, clock });
  const webhooks = () => createWebhookUseCases({ db, clock });

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    account = await createTestAccount(db);
    other = await createTestAccount(db);
  }, 180_000);

  // Every case starts with no subscriptions, events or deliveries, at the same time.
  beforeEach(async () => {
    await db.deleteFrom('webhook_deliveries').execute();
    await db.deleteFrom('webhook_events').execute();
    await db.deleteFrom('webhook_subscriptions').execute();
    nowMs = start;
  });

  afterAll(async () => {
    await handle?.close();
  });

  async function subscribe(owner: TestAccount, events?: WebhookEvent[]): Promise<string> {
    const created = await webhooks().create(owner.owner, { url: 'https://hooks.example.com/in', events });
    return created.id;
  }

  async function record(accountId: string, ...events: WebhookEvent[]): Promise<void> {
    await recordEvents(
      db,
      events.map((event) => eventOf(accountId, event)),
    );
  }

  /** Every delivery as (event kind, subscription) pairs, sorted, with its account checked against the event's. */
  async function fanOut(): Promise<string[]> {
    const rows = await db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .innerJoin('webhook_subscriptions as s', 's.id', 'd.subscription_id')
      .select([
        'e.event',
        'd.subscription_id',
        'd.account_id',
        'e.account_id as event_account',
        's.account_id as sub_account',
      ])
      .execute();
    for (const row of rows) {
      expect(row.account_id).toBe(row.event_account);
      expect(row.account_id).toBe(row.sub_account);
    }
    return rows.map((row) => `${row.event} → ${row.subscription_id}`).sort();
  }

  async function deliveryRow(id: string) {
    return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  async function subscriptionRow(id: string) {
    return db
      .selectFrom('webhook_subscriptions')
      .select(['active', 'disabled_reason', 'consecutive_failures'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  }

  /** One delivery of one subscription, dispatched and due now. */
  async function oneDelivery(
    event: WebhookEvent = 'listing.updated',
  ): Promise<{ deliveryId: string; subscriptionId: string }> {
    const subscriptionId = await subscribe(account);
    await record(account.accountId, event);
    await queue().dispatch(10);
    const { id } = await db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('subscription_id', '=', subscriptionId)
      .executeTakeFirstOrThrow();
    return { deliveryId: id, subscriptionId };
  }

  /** Claims the due deliveries at `now` and returns the one with `deliveryId`, failing if it is not among them. */
  async function claim(deliveryId: string, now: Date): Promise<DueWebhookDelivery> {
    const claimed = await queue().claimDue(now, 10, leaseMs);
    const found = claimed.find((due) => due.deliveryId === deliveryId);
    if (!found) throw new Error(`${deliveryId} was not due at ${now.toISOString()}`);
    return found;
  }

  const serverError = { ok: false, statusCode: 500, error: 'boom', latencyMs: 12.4 } as const;

  it('fans each event out to the active subscriptions of its account that want its kind, Host Tools only for its events', async () => {
    const everything = await subscribe(account);
    const calendarOnly = await subscribe(account, ['calendar.updated']);
    const turnedOff = await subscribe(account);
    await webhooks().update(account.owner, { webhookId: turnedOff, active: false });
    const hostTools = (await webhooks().setHostToolsUrl(account.owner, { url: 'https://ht.example.com/h' }))
      .id;
    // Listed on the row, but a Host Tools body cannot describe it: the row's list alone does not decide.
    await db
      .updateTable('webhook_subscriptions')
      .set({ events: ['reservation.created', 'calendar.updated'] })
      .where('id', '=', hostTools)
      .execute();
    const othersSubscription = await subscribe(other);

    await record(account.accountId, 'reservation.created', 'calendar.updated', 'listing.updated');
    await record(other.accountId, 'message.created');
    nowMs = start + 7 * second;
    expect(await queue().dispatch(100)).toEqual({ events: 4, deliveries: 6 });

    expect(await fanOut()).toEqual(
      [
        `reservation.created → ${everything}`,
        `reservation.created → ${hostTools}`,
        `calendar.updated → ${everything}`,
        `calendar.updated → ${calendarOnly}`,
        `listing.updated → ${everything}`,
        `message.created → ${othersSubscription}`,
      ].sort(),
    );
    const deliveries = await db.selectFrom('webhook_deliveries').selectAll().execute();
    for (const delivery of deliveries) {
      expect(delivery.id).toMatch(/^whd_[0-9a-z]{16}$/);
      expect(delivery).toMatchObject({
        status: 'pending',
        attempts: 0,
        lease_until: null,
        next_attempt_at: at(7 * second),
        created_at: at(7 * second),
      });
    }
    const events = await db.selectFrom('webhook_events').select('dispatched_at').execute();
    expect(events.map((event) => event.dispatched_at)).toEqual(events.map(() => at(7 * second)));

    // Dispatched once: nothing is left to take, and a turned-off subscription got nothing.
    expect(await queue().dispatch(100)).toEqual({ events: 0, deliveries: 0 });
    expect((await fanOut()).filter((pair) => pair.endsWith(turnedOff))).toEqual([]);
  });

  it('dispatches the oldest events first, at most `limit` at a time, and marks an event nobody wants dispatched', async () => {
    const subscriptionId = await subscribe(account, ['listing.updated']);
    // Stamped a minute apart by hand: the database stamps `created` itself, and PGlite's clock can give two
    // writes in a row the same time, which would leave their order to their random ids.
    for (const [minute, event] of [
      [1, 'listing.updated'],
      [2, 'calendar.updated'],
      [3, 'listing.updated'],
    ] as const) {
      await db
        .insertInto('webhook_events')
        .values({
          id: newId('webhookEvent'),
          account_id: account.accountId,
          event,
          created: at(minute * 60 * second),
          data: JSON.stringify(eventOf(account.accountId, event).data),
        })
        .execute();
    }
    expect(await queue().dispatch(2)).toEqual({ events: 2, deliveries: 1 });
    expect(await fanOut()).toEqual([`listing.updated → ${subscriptionId}`]);
    expect(await queue().dispatch(2)).toEqual({ events: 1, deliveries: 1 });
    await expect(queue().dispatch(0)).rejects.toMatchObject({ code: 'invalid_argument' });
  });

  it('dispatches each event once when dispatchers run at once', async () => {
    const first = await subscribe(account);
    const second = await subscribe(account, ['listing.updated']);
    for (let i = 0; i < 50; i += 1) await record(account.accountId, 'listing.updated');
    const runs = await Promise.all(Array.from({ length: 8 }, () => queue().dispatch(7)));
    // Eight runs of at most seven take 50 events at most once; a second round takes whatever is left.
    const rest = await queue().dispatch(100);
    const events = [...runs, rest].reduce((sum, run) => sum + run.events, 0);
    const deliveries = [...runs, rest].reduce((sum, run) => sum + run.deliveries, 0);
    expect({ events, deliveries }).toEqual({ events: 50, deliveries: 100 });
    const perEvent = await db
      .selectFrom('webhook_deliveries')
      .select(['event_id', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('event_id')
      .execute();
    expect(perEvent).toHaveLength(50);
    expect(new Set(perEvent.map((row) => Number(row.n)))).toEqual(new Set([2]));
    expect((await fanOut()).filter((pair) => pair.endsWith(first))).toHaveLength(50);
    expect((await fanOut()).filter((pair) => pair.endsWith(second))).toHaveLength(50);
  });

  it.runIf(kind === 'postgres')(
    'passes over events another dispatcher holds instead of waiting for them or taking them too',
    async () => {
      await subscribe(account);
      for (let i = 0; i < 10; i += 1) await record(account.accountId, 'listing.updated');
      let release: () => void = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let held: string[] = [];
      let holding: () => void = () => {};
      const isHolding = new Promise<void>((resolve) => {
        holding = resolve;
      });
      // A dispatcher in the middle of its transaction: the four oldest events locked, not yet marked.
      const holder = db.transaction().execute(async (trx) => {
        const rows = await trx
          .selectFrom('webhook_events')
          .select('id')
          .where('dispatched_at', 'is', null)
          .orderBy('created')
          .orderBy('id')
          .limit(4)
          .forUpdate()
          .execute();
        held = rows.map((row) => row.id);
        holding();
        await released;
      });
      await isHolding;
      expect(await queue().dispatch(100)).toEqual({ events: 6, deliveries: 6 });
      const dispatched = await db.selectFrom('webhook_deliveries').select('event_id').execute();
      expect(dispatched.map((row) => row.event_id).filter((id) => held.includes(id))).toEqual([]);
      release();
      await holder;
      expect(await queue().dispatch(100)).toEqual({ events: 4, deliveries: 4 });
    },
  );

  it('gives a sender what it needs, and two claimers at once never the same delivery', async () => {
    const subscriptionId = await subscribe(account);
    for (let i = 0; i < 30; i += 1) await record(account.accountId, 'listing.updated');
    await queue().dispatch(100);
    const now = at(second);
    const claims = await Promise.all([0, 1, 2, 3].map(() => queue().claimDue(now, 10, leaseMs)));
    const claimed = claims.flat().map((due) => due.deliveryId);
    expect(claimed).toHaveLength(30);
    expect(new Set(claimed).size).toBe(30);
    // All leased now: nobody else gets any of them before the lease runs out.
    expect(await queue().claimDue(at(leaseMs), 10, leaseMs)).toEqual([]);

    const secret = await db
      .selectFrom('webhook_subscriptions')
      .select(['secret', 'url'])
      .where('id', '=', subscriptionId)
      .executeTakeFirstOrThrow();
    const due = claims.flat()[0];
    const event = await db
      .selectFrom('webhook_events')
      .selectAll()
      .where('id', '=', due?.eventId ?? '')
      .executeTakeFirstOrThrow();
    expect(due).toEqual({
      deliveryId: expect.stringMatching(/^whd_/),
      accountId: event.account_id,
      attempt: 1,
      eventId: event.id,
      event: 'listing.updated',
      created: event.created,
      data: eventOf(account.accountId, 'listing.updated').data,
      url: secret.url,
      secrets: [secret.secret],
      format: 'innkeep',
    });
    expect((await deliveryRow(due?.deliveryId ?? '')).lease_until).toEqual(at(second + leaseMs));
  });

  it.runIf(kind === 'postgres')(
    'passes over a delivery another claimer holds instead of waiting for it',
    async () => {
      const { deliveryId } = await oneDelivery();
      await record(account.accountId, 'listing.updated');
      await queue().dispatch(10);
      let release: () => void = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let holding: () => void = () => {};
      const isHolding = new Promise<void>((resolve) => {
        holding = resolve;
      });
      const holder = db.transaction().execute(async (trx) => {
        await trx
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('id', '=', deliveryId)
          .forUpdate()
          .execute();
        holding();
        await released;
      });
      await isHolding;
      const claimed = await queue().claimDue(at(second), 10, leaseMs);
      expect(claimed.map((due) => due.deliveryId)).not.toContain(deliveryId);
      expect(claimed).toHaveLength(1);
      release();
      await holder;
    },
  );

  it('claims a delivery again once its lease has run out, as after a crash, with the same attempt number', async () => {
    const { deliveryId } = await oneDelivery();
    expect((await claim(deliveryId, at(0))).attempt).toBe(1);
    expect(await queue().claimDue(at(leaseMs - 1), 10, leaseMs)).toEqual([]);
    // The sender died without a word: at the end of its lease the attempt is anyone's again.
    expect((await claim(deliveryId, at(leaseMs))).attempt).toBe(1);
  });

  it('moves the next attempt by the retry schedule after each failure', async () => {
    const { deliveryId, subscriptionId } = await oneDelivery();
    await claim(deliveryId, at(0));
    expect(await queue().recordAttempt(deliveryId, serverError, at(second), 0)).toEqual({
      recorded: true,
      status: 'pending',
      nextAttemptAt: at(6 * second),
      subscriptionDisabled: false,
    });
    expect(await deliveryRow(deliveryId)).toMatchObject({
      status: 'pending',
      attempts: 1,
      first_attempt_at: at(second),
      last_attempt_at: at(second),
      next_attempt_at: at(6 * second),
      lease_until: null,
      last_status_code: 500,
      last_error: 'boom',
      last_latency_ms: 12,
    });
    expect(await queue().claimDue(at(6 * second - 1), 10, leaseMs)).toEqual([]);
    expect((await claim(deliveryId, at(6 * second))).attempt).toBe(2);
    // Second failure: the ceiling is 20 s, half fixed and half by the random 0.5: 15 s.
    const timeout = { ok: false, error: 'Timed out after 10 s', latencyMs: 10_000 } as const;
    expect(await queue().recordAttempt(deliveryId, timeout, at(16 * second), 0.5)).toMatchObject({
      nextAttemptAt: at(31 * second),
    });
    expect(await deliveryRow(deliveryId)).toMatchObject({
      attempts: 2,
      first_attempt_at: at(second),
      last_attempt_at: at(16 * second),
      last_status_code: null,
      last_error: 'Timed out after 10 s',
    });
    expect((await subscriptionRow(subscriptionId)).consecutive_failures).toBe(2);
  });

  it('fails a delivery that failed for 24 hours and disables its subscription with the reason', async () => {
    const { deliveryId, subscriptionId } = await oneDelivery();
    const bystander = await subscribe(other);
    let now = at(0);
    let attempts = 0;
    let result = await queue().recordAttempt(
      (await claim(deliveryId, now)).deliveryId,
      serverError,
      now,
      0.99,
    );
    attempts += 1;
    while (result.recorded && result.status === 'pending' && result.nextAttemptAt) {
      now = result.nextAttemptAt;
      await claim(deliveryId, now);
      result = await queue().recordAttempt(deliveryId, serverError, now, 0.99);
      attempts += 1;
    }
    expect(result).toEqual({
      recorded: true,
      status: 'failed',
      nextAttemptAt: null,
      subscriptionDisabled: true,
    });
    expect(now.getTime() - start).toBeGreaterThan(24 * hour);
    expect(await deliveryRow(deliveryId)).toMatchObject({
      status: 'failed',
      attempts,
      next_attempt_at: null,
    });
    expect(await subscriptionRow(subscriptionId)).toEqual({
      active: false,
      disabled_reason:
        'Every delivery failed for 24 hours; last: HTTP 500: boom. Set active to true to resume deliveries.',
      consecutive_failures: attempts,
    });
    expect((await subscriptionRow(bystander)).active).toBe(true);

    // A disabled subscription's deliveries wait: none is claimed, and new events make none.
    await record(account.accountId, 'listing.updated');
    expect(await queue().dispatch(10)).toEqual({ events: 1, deliveries: 0 });
    expect(await queue().claimDue(now, 10, leaseMs)).toEqual([]);
  });

  it('fails a delivery refused for 24 hours but keeps the subscription on when others got through', async () => {
    const { deliveryId, subscriptionId } = await oneDelivery();
    await claim(deliveryId, at(0));
    await queue().recordAttempt(deliveryId, serverError, at(0), 0);
    // Another event of the same subscription is delivered meanwhile.
    await record(account.accountId, 'calendar.updated');
    nowMs = start + hour;
    await queue().dispatch(10);
    const [accepted] = (await queue().claimDue(at(hour), 10, leaseMs)).filter(
      (due) => due.deliveryId !== deliveryId,
    );
    await queue().recordAttempt(
      accepted?.deliveryId ?? '',
      { ok: true, statusCode: 204, latencyMs: 3 },
      at(hour),
      0,
    );

    await claim(deliveryId, at(25 * hour));
    expect(await queue().recordAttempt(deliveryId, serverError, at(25 * hour), 0)).toEqual({
      recorded: true,
      status: 'failed',
      nextAttemptAt: null,
      subscriptionDisabled: false,
    });
    expect(await subscriptionRow(subscriptionId)).toEqual({
      active: true,
      disabled_reason: null,
      consecutive_failures: 1,
    });
  });

  it('a success delivers, resets the failure count, and later reports of the attempt change nothing', async () => {
    const { deliveryId, subscriptionId } = await oneDelivery();
    await claim(deliveryId, at(0));
    await queue().recordAttempt(deliveryId, serverError, at(0), 0);
    await claim(deliveryId, at(5 * second));
    await queue().recordAttempt(deliveryId, serverError, at(5 * second), 0);
    expect((await subscriptionRow(subscriptionId)).consecutive_failures).toBe(2);

    await claim(deliveryId, at(15 * second));
    const ok = { ok: true, statusCode: 200, latencyMs: 41 } as const;
    expect(await queue().recordAttempt(deliveryId, ok, at(16 * second), 0)).toEqual({
      recorded: true,
      status: 'delivered',
      nextAttemptAt: null,
      subscriptionDisabled: false,
    });
    expect(await deliveryRow(deliveryId)).toMatchObject({
      status: 'delivered',
      attempts: 3,
      delivered_at: at(16 * second),
      next_attempt_at: null,
      lease_until: null,
      last_status_code: 200,
      last_error: null,
      last_latency_ms: 41,
    });
    expect((await subscriptionRow(subscriptionId)).consecutive_failures).toBe(0);

    // A sender whose lease ran out reports late: the delivery stays delivered.
    expect(await queue().recordAttempt(deliveryId, serverError, at(17 * second), 0)).toEqual({
      recorded: false,
    });
    expect((await deliveryRow(deliveryId)).status).toBe('delivered');
    expect(await queue().claimDue(at(hour), 10, leaseMs)).toEqual([]);
  });

  it('records many successes in one go, as one by one, leaving deliveries no longer pending alone', async () => {
    const failing = await subscribe(account);
    const healthy = await subscribe(account);
    await record(account.accountId, 'listing.updated', 'calendar.updated');
    await queue().dispatch(10);
    const ids = await db
      .selectFrom('webhook_deliveries')
      .select(['id', 'subscription_id'])
      .orderBy('id')
      .execute();
    expect(ids).toHaveLength(4);
    const [first, second_, third, fourth] = ids.map((row) => row.id) as [string, string, string, string];
    await queue().claimDue(at(0), 10, leaseMs);
    // One of them failed once already (its subscription counts it), another was delivered meanwhile.
    await queue().recordAttempt(first, serverError, at(0), 0);
    await db
      .updateTable('webhook_deliveries')
      .set({ status: 'delivered', next_attempt_at: null, delivered_at: at(0) })
      .where('id', '=', fourth)
      .execute();
    const failedOnce = ids.find((row) => row.id === first)?.subscription_id;
    expect((await subscriptionRow(failedOnce ?? '')).consecutive_failures).toBe(1);
    await queue().claimDue(at(10 * second), 10, leaseMs);

    const recorded = await queue().recordDelivered(
      [first, second_, third, fourth].map((deliveryId, index) => ({
        deliveryId,
        statusCode: 200 + index,
        latencyMs: 10.6 + index,
      })),
      at(11 * second),
    );
    expect([...recorded].sort()).toEqual([first, second_, third].sort());
    expect(await deliveryRow(first)).toMatchObject({
      status: 'delivered',
      attempts: 2,
      first_attempt_at: at(0),
      last_attempt_at: at(11 * second),
      delivered_at: at(11 * second),
      next_attempt_at: null,
      lease_until: null,
      last_status_code: 200,
      last_error: null,
      last_latency_ms: 11,
    });
    expect(await deliveryRow(third)).toMatchObject({
      status: 'delivered',
      attempts: 1,
      first_attempt_at: at(11 * second),
      last_status_code: 202,
    });
    // Left as it was: no second attempt counted, its own delivery time kept.
    expect(await deliveryRow(fourth)).toMatchObject({
      status: 'delivered',
      attempts: 0,
      delivered_at: at(0),
    });
    expect((await subscriptionRow(failing)).consecutive_failures).toBe(0);
    expect((await subscriptionRow(healthy)).consecutive_failures).toBe(0);
    expect(await queue().recordDelivered([], at(12 * second))).toEqual([]);
  });

  it("does not reset a subscription's failures for a test's success", async () => {
    const { deliveryId, subscriptionId } = await oneDelivery();
    await claim(deliveryId, at(0));
    await queue().recordAttempt(deliveryId, serverError, at(0), 0);
    const test = await queue().sendTest(account.owner, { webhookId: subscriptionId });
    await claim(test.id, at(second));
    expect(
      await queue().recordDelivered([{ deliveryId: test.id, statusCode: 204, latencyMs: 3 }], at(second)),
    ).toEqual([test.id]);
    expect((await deliveryRow(test.id)).status).toBe('delivered');
    expect((await subscriptionRow(subscriptionId)).consecutive_failures).toBe(1);
  });

  it('dispatches nothing for a write that rolled back, and the event of one that committed', async () => {
    const subscriptionId = await subscribe(account);
    const failure = new Error('the write failed after recording its event');
    await expect(
      db.transaction().execute(async (trx) => {
        await recordEvent(trx, eventOf(account.accountId, 'listing.updated'));
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await queue().dispatch(10)).toEqual({ events: 0, deliveries: 0 });

    const listingId = await createTestListing(db, account.accountId);
    await createListingUseCases({ db, clock }).update(account.owner, { listingId, maxGuests: 6 });
    expect(await queue().dispatch(10)).toEqual({ events: 1, deliveries: 1 });
    expect(await fanOut()).toEqual([`listing.updated → ${subscriptionId}`]);
  });

  it('redelivers a delivered or failed delivery of the account with a new schedule, and audits it', async () => {
    const { deliveryId, subscriptionId } = await oneDelivery();
    await expect(queue().redeliver(account.owner, { deliveryId })).rejects.toMatchObject({
      code: 'failed_precondition',
    });
    await claim(deliveryId, at(0));
    await queue().recordAttempt(deliveryId, { ok: true, statusCode: 200, latencyMs: 5 }, at(0), 0);

    await expect(queue().redeliver(other.owner, { deliveryId })).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      queue().redeliver({ ...account.owner, role: 'viewer' }, { deliveryId }),
    ).rejects.toMatchObject({
      code: 'permission_denied',
    });
    expect((await deliveryRow(deliveryId)).status).toBe('delivered');

    nowMs = start + hour;
    expect(await queue().redeliver(account.owner, { deliveryId })).toMatchObject({
      id: deliveryId,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: at(hour).toISOString(),
      lastStatusCode: 200,
      deliveredAt: null,
    });
    expect(await deliveryRow(deliveryId)).toMatchObject({
      status: 'pending',
      attempts: 0,
      first_attempt_at: null,
      next_attempt_at: at(hour),
      delivered_at: null,
    });
    expect((await claim(deliveryId, at(hour))).attempt).toBe(1);
    const audit = await db
      .selectFrom('audit_log')
      .select(['action', 'target_id', 'details'])
      .where('action', '=', 'webhook.redeliver')
      .where('target_id', '=', subscriptionId)
      .execute();
    expect(audit).toEqual([
      {
        action: 'webhook.redeliver',
        target_id: subscriptionId,
        details: expect.objectContaining({ deliveryId, previousStatus: 'delivered' }),
      },
    ]);
  });

  it("lists a subscription's deliveries newest first, a page at a time, for its own account only", async () => {
    const subscriptionId = await subscribe(account);
    const quiet = await subscribe(account, ['review.created']);
    for (const minute of [0, 1, 2]) {
      nowMs = start + minute * 60 * second;
      await record(account.accountId, 'listing.updated');
      await queue().dispatch(10);
    }
    const [oldest] = await queue().claimDue(at(0), 1, leaseMs);
    await queue().recordAttempt(oldest?.deliveryId ?? '', serverError, at(2 * second), 0);

    const first = await queue().listDeliveries(account.owner, { webhookId: subscriptionId, limit: 2 });
    expect(first.items.map((item) => item.createdAt)).toEqual([
      at(120 * second).toISOString(),
      at(60 * second).toISOString(),
    ]);
    expect(first.hasMore).toBe(true);
    const rest = await queue().listDeliveries(account.owner, {
      webhookId: subscriptionId,
      limit: 2,
      cursor: first.nextCursor ?? '',
    });
    expect(rest).toMatchObject({ hasMore: false, nextCursor: null });
    expect(rest.items).toEqual([
      {
        id: oldest?.deliveryId,
        eventId: oldest?.eventId,
        event: 'listing.updated',
        status: 'pending',
        attempts: 1,
        nextAttemptAt: at(7 * second).toISOString(),
        lastAttemptAt: at(2 * second).toISOString(),
        lastStatusCode: 500,
        lastError: 'boom',
        lastLatencyMs: 12,
        deliveredAt: null,
        createdAt: at(0).toISOString(),
      },
    ]);
    expect(await queue().listDeliveries(account.owner, { webhookId: quiet })).toMatchObject({ items: [] });
    await expect(queue().listDeliveries(other.owner, { webhookId: subscriptionId })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(
      queue().listDeliveries(account.owner, { webhookId: subscriptionId, cursor: 'nonsense' }),
    ).rejects.toMatchObject({ code: 'invalid_argument' });
  });

  it('keeps the pending deliveries of a turned-off subscription waiting until it is turned on again', async () => {
    const { deliveryId, subscriptionId } = await oneDelivery();
    await webhooks().update(account.owner, { webhookId: subscriptionId, active: false });
    expect(await queue().claimDue(at(hour), 10, leaseMs)).toEqual([]);
    await webhooks().update(account.owner, { webhookId: subscriptionId, active: true });
    expect((await claim(deliveryId, at(hour))).attempt).toBe(1);
  });

  it('signs with the previous secret too while a rotation overlaps, then with the new one only', async () => {
    const { deliveryId, subscriptionId } = await oneDelivery();
    const { secret: oldSecret } = await db
      .selectFrom('webhook_subscriptions')
      .select('secret')
      .where('id', '=', subscriptionId)
      .executeTakeFirstOrThrow();
    const { secret: newSecret } = await webhooks().rotateSecret(account.owner, {
      webhookId: subscriptionId,
      overlapHours: 1,
    });
    expect((await claim(deliveryId, at(0))).secrets).toEqual([newSecret, oldSecret]);
    // The lease runs out and the attempt is claimed again, one moment before the overlap ends and at its end.
    expect((await claim(deliveryId, at(hour - 1))).secrets).toEqual([newSecret, oldSecret]);
    expect((await claim(deliveryId, at(2 * hour))).secrets).toEqual([newSecret]);

    const { secret: latest } = await webhooks().rotateSecret(account.owner, {
      webhookId: subscriptionId,
      overlapHours: 0,
    });
    expect((await claim(deliveryId, at(3 * hour))).secrets).toEqual([latest]);
  });

  it('sends a test to that subscription only, even turned off, and fails it after one attempt without counting it', async () => {
    const tested = await subscribe(account);
    const bystander = await subscribe(account);
    await webhooks().update(account.owner, { webhookId: tested, active: false });
    await db
      .updateTable('webhook_subscriptions')
      .set({ consecutive_failures: 3 })
      .where('id', '=', tested)
      .execute();
    const before = await subscriptionRow(tested);

    nowMs = start + second;
    const delivery = await queue().sendTest(account.owner, { webhookId: tested });
    expect(delivery).toEqual({
      id: expect.stringMatching(/^whd_/),
      eventId: expect.stringMatching(/^evt_/),
      event: 'webhook.test',
      status: 'pending',
      attempts: 0,
      nextAttemptAt: at(second).toISOString(),
      lastAttemptAt: null,
      lastStatusCode: null,
      lastError: null,
      lastLatencyMs: null,
      deliveredAt: null,
      createdAt: at(second).toISOString(),
    });
    expect((await queue().listDeliveries(account.owner, { webhookId: tested })).items).toEqual([delivery]);
    // Recorded already dispatched: dispatch finds nothing to fan out, and the bystander gets nothing.
    expect(await queue().dispatch(10)).toEqual({ events: 0, deliveries: 0 });
    expect(await fanOut()).toEqual([`webhook.test → ${tested}`]);
    expect((await queue().listDeliveries(account.owner, { webhookId: bystander })).items).toEqual([]);

    const due = await claim(delivery.id, at(2 * second));
    expect(due).toMatchObject({
      attempt: 1,
      eventId: delivery.eventId,
      event: 'webhook.test',
      created: at(second),
      data: { webhookId: tested },
    });
    expect(await queue().recordAttempt(delivery.id, serverError, at(3 * second), 0)).toEqual({
      recorded: true,
      status: 'failed',
      nextAttemptAt: null,
      subscriptionDisabled: false,
    });
    expect(await deliveryRow(delivery.id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      next_attempt_at: null,
      lease_until: null,
      last_status_code: 500,
      last_error: 'boom',
    });
    expect(await subscriptionRow(tested)).toEqual(before);
    expect(await queue().claimDue(at(hour), 10, leaseMs)).toEqual([]);

    const audit = await db
      .selectFrom('audit_log')
      .select(['action', 'target_id', 'details'])
      .where('action', '=', 'webhook.test')
      .where('target_id', '=', tested)
      .execute();
    expect(audit).toEqual([
      {
        action: 'webhook.test',
        target_id: tested,
        details: { deliveryId: delivery.id, eventId: delivery.eventId },
      },
    ]);
  });

  it('leaves the failure count of a subscription alone when a test succeeds, and redelivers a test once', async () => {
    const subscriptionId = await subscribe(account);
    await db
      .updateTable('webhook_subscriptions')
      .set({ consecutive_failures: 2 })
      .where('id', '=', subscriptionId)
      .execute();
    const delivery = await queue().sendTest(account.owner, { webhookId: subscriptionId });
    await claim(delivery.id, at(0));
    const ok = { ok: true, statusCode: 204, latencyMs: 7 } as const;
    expect(await queue().recordAttempt(delivery.id, ok, at(second), 0)).toEqual({
      recorded: true,
      status: 'delivered',
      nextAttemptAt: null,
      subscriptionDisabled: false,
    });
    expect(await subscriptionRow(subscriptionId)).toEqual({
      active: true,
      disabled_reason: null,
      consecutive_failures: 2,
    });

    nowMs = start + hour;
    expect(await queue().redeliver(account.owner, { deliveryId: delivery.id })).toMatchObject({
      id: delivery.id,
      event: 'webhook.test',
      status: 'pending',
      attempts: 0,
    });
    expect((await claim(delivery.id, at(hour))).attempt).toBe(1);
    expect(await queue().recordAttempt(delivery.id, serverError, at(hour), 0)).toMatchObject({
      status: 'failed',
      subscriptionDisabled: false,
    });
    expect(await deliveryRow(delivery.id)).toMatchObject({ status: 'failed', attempts: 1 });
    expect(await subscriptionRow(subscriptionId)).toEqual({
      active: true,
      disabled_reason: null,
      consecutive_failures: 2,
    });
  });

  it("refuses a test to another account's subscription and from a viewer, recording nothing", async () => {
    const subscriptionId = await subscribe(account);
    await expect(queue().sendTest(other.owner, { webhookId: subscriptionId })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(
      queue().sendTest({ ...account.owner, role: 'viewer' }, { webhookId: subscriptionId }),
    ).rejects.toMatchObject({ code: 'permission_denied' });
    await expect(queue().sendTest(account.owner, {} as never)).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    expect(await db.selectFrom('webhook_events').select('id').execute()).toEqual([]);
    expect(await db.selectFrom('webhook_deliveries').select('id').execute()).toEqual([]);
  });

  it('deletes the deliveries of a deleted subscription', async () => {
    const { deliveryId, subscriptionId } = await oneDelivery();
    await webhooks().delete(account.owner, { webhookId: subscriptionId });
    expect(
      await db.selectFrom('webhook_deliveries').select('id').where('id', '=', deliveryId).execute(),
    ).toEqual([]);
  });
});
