import {
  type Actor,
  type Clock,
  type WebhookEventRecord,
  webhookGiveUpAfterMs,
  webhookRetryDelayMs,
} from '@innkeep/domain';
import {
  createPostgresDomain,
  createWebhookDeliveryStore,
  type DatabaseHandle,
  openDatabase,
  recordEvents,
} from '@innkeep/storage';
import { openTestDatabase, type TestDatabase, testDatabaseKinds } from '@innkeep/storage/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunWebhookDeliveriesOptions, runWebhookDeliveries } from '../src/run-webhook-deliveries.ts';
import { verifyWebhookSignature } from '../src/sign-webhook.ts';
import { createOwner } from './support/accounts.ts';
import { type Receiver, refusingUrl, startReceiver } from './support/receiver.ts';

const leaseMs = 60_000;
const start = new Date('2026-04-01T12:00:00.000Z').getTime();

/** The time the queue and the runner see; the test moves it by hand. */
let nowMs = start;
const clock: Clock = { now: () => new Date(nowMs) };

/** A listing change of `accountId`: the event every case records. */
function listingUpdated(accountId: string, listingId = 'lst_x'): WebhookEventRecord {
  return {
    accountId,
    event: 'listing.updated',
    data: { listingId, changes: { name: { from: 'a', to: 'b' } } },
  };
}

describe.each(testDatabaseKinds)('the webhook sender on %s', (kind) => {
  let handle: TestDatabase;
  let owner: Actor;
  let receiver: Receiver;
  const queue = (db: DatabaseHandle['db'] = handle.db) => createWebhookDeliveryStore({ db, clock });
  const runOptions: RunWebhookDeliveriesOptions = {
    allowPrivate: true,
    timeoutMs: 300,
    leaseMs,
    now: clock.now,
    random: () => 0.5,
  };

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    owner = await createOwner(handle.db);
    receiver = await startReceiver();
  }, 180_000);

  beforeEach(async () => {
    await handle.db.deleteFrom('webhook_deliveries').execute();
    await handle.db.deleteFrom('webhook_events').execute();
    await handle.db.deleteFrom('webhook_subscriptions').execute();
    receiver.received.length = 0;
    receiver.answerWith((response) => response.writeHead(204).end());
    nowMs = start;
  });

  afterAll(async () => {
    await receiver?.close();
    await handle?.close();
  });

  async function subscribe(url: string): Promise<{ id: string; secret: string }> {
    return createPostgresDomain({ db: handle.db, clock }).webhooks.create(owner, {
      url,
      events: ['listing.updated'],
    });
  }

  async function deliveryRows() {
    return handle.db
      .selectFrom('webhook_deliveries')
      .select(['status', 'attempts', 'next_attempt_at', 'last_status_code', 'last_error'])
      .execute();
  }

  it('delivers a recorded event, signed with the subscription secret', async () => {
    const { secret } = await subscribe(receiver.url());
    await recordEvents(handle.db, [listingUpdated(owner.accountId)]);

    expect(await runWebhookDeliveries(queue(), runOptions)).toEqual({
      dispatchedEvents: 1,
      createdDeliveries: 1,
      claimed: 1,
      delivered: 1,
      retried: 0,
      failed: 0,
      disabledSubscriptions: 0,
    });
    const [request] = receiver.received;
    const signature = String(request?.headers['webhook-signature']);
    expect(verifyWebhookSignature(secret, signature, request?.body ?? '', { nowSeconds: start / 1000 })).toBe(
      true,
    );
    expect(JSON.parse(request?.body ?? '')).toMatchObject({
      event: 'listing.updated',
      id: request?.headers['webhook-id'],
    });
    expect(await deliveryRows()).toMatchObject([{ status: 'delivered', attempts: 1, last_status_code: 204 }]);
  });

  const failures = {
    'a 500': async () => {
      receiver.answerWith((response) => response.writeHead(500).end());
      return receiver.url();
    },
    'a timeout': async () => {
      receiver.answerWith(() => {});
      return receiver.url();
    },
    'a refused connection': refusingUrl,
  };

  it.each(Object.keys(failures) as (keyof typeof failures)[])(
    'retries after %s when the schedule says, not before',
    async (failure) => {
      await subscribe(await failures[failure]());
      await recordEvents(handle.db, [listingUpdated(owner.accountId)]);

      expect(await runWebhookDeliveries(queue(), runOptions)).toMatchObject({ claimed: 1, retried: 1 });
      const firstRetry = start + webhookRetryDelayMs(1, 0.5);
      expect(await deliveryRows()).toMatchObject([
        { status: 'pending', attempts: 1, next_attempt_at: new Date(firstRetry) },
      ]);

      nowMs = firstRetry - 1;
      expect(await runWebhookDeliveries(queue(), runOptions)).toMatchObject({ claimed: 0 });
      nowMs = firstRetry;
      expect(await runWebhookDeliveries(queue(), runOptions)).toMatchObject({ claimed: 1, retried: 1 });
      expect(await deliveryRows()).toMatchObject([
        {
          status: 'pending',
          attempts: 2,
          next_attempt_at: new Date(firstRetry + webhookRetryDelayMs(2, 0.5)),
        },
      ]);

      // The receiver comes back: the next attempt, at its time, delivers.
      const { id } = await handle.db
        .selectFrom('webhook_subscriptions')
        .select('id')
        .executeTakeFirstOrThrow();
      await handle.db
        .updateTable('webhook_subscriptions')
        .set({ url: receiver.url() })
        .where('id', '=', id)
        .execute();
      receiver.answerWith((response) => response.writeHead(200).end('ok'));
      nowMs = firstRetry + webhookRetryDelayMs(2, 0.5);
      expect(await runWebhookDeliveries(queue(), runOptions)).toMatchObject({ claimed: 1, delivered: 1 });
      expect(await deliveryRows()).toMatchObject([
        { status: 'delivered', attempts: 3, last_status_code: 200 },
      ]);
    },
  );

  it('gives up after a day of failures and disables the subscription, saying why', async () => {
    receiver.answerWith((response) => response.writeHead(503).end('maintenance'));
    const { id } = await subscribe(receiver.url());
    await recordEvents(handle.db, [listingUpdated(owner.accountId)]);

    let attempts = 0;
    let tick = await runWebhookDeliveries(queue(), runOptions);
    while (tick.retried === 1) {
      attempts += 1;
      const [row] = await deliveryRows();
      nowMs = row?.next_attempt_at?.getTime() ?? Number.NaN;
      tick = await runWebhookDeliveries(queue(), runOptions);
    }
    expect(tick).toMatchObject({ claimed: 1, failed: 1, disabledSubscriptions: 1 });
    expect(nowMs - start).toBeGreaterThan(webhookGiveUpAfterMs);
    expect(receiver.received).toHaveLength(attempts + 1);
    expect(await deliveryRows()).toMatchObject([{ status: 'failed', next_attempt_at: null }]);
    const subscription = await handle.db
      .selectFrom('webhook_subscriptions')
      .select(['active', 'disabled_reason'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(subscription.active).toBe(false);
    expect(subscription.disabled_reason).toContain('HTTP 503: The receiver did not answer 2xx: maintenance');
  });

  it('does not send to the Host Tools URL yet: its deliveries are not even claimed, and stay pending', async () => {
    await createPostgresDomain({ db: handle.db, clock }).webhooks.setHostToolsUrl(owner, {
      url: receiver.url('/hosttools'),
    });
    await recordEvents(handle.db, [
      {
        accountId: owner.accountId,
        event: 'reservation.created',
        data: {
          reservationId: 'res_x',
          listingId: 'lst_x',
          channel: 'direct',
          status: 'accepted',
          startDate: '2026-05-01',
          endDate: '2026-05-03',
        },
      },
    ]);

    expect(await runWebhookDeliveries(queue(), runOptions)).toMatchObject({
      createdDeliveries: 1,
      claimed: 0,
      delivered: 0,
      retried: 0,
    });
    expect(receiver.received).toEqual([]);
    expect(await deliveryRows()).toMatchObject([{ status: 'pending', attempts: 0, last_error: null }]);
  });

  it('makes the attempt of a sender that died after claiming once its lease has run out', async () => {
    await subscribe(receiver.url());
    await recordEvents(handle.db, [listingUpdated(owner.accountId)]);
    await queue().dispatch(10);
    // The dead sender: claimed, never sent, never recorded.
    expect(await queue().claimDue(clock.now(), 10, leaseMs)).toHaveLength(1);

    nowMs = start + leaseMs - 1;
    expect(await runWebhookDeliveries(queue(), runOptions)).toMatchObject({ claimed: 0 });
    expect(receiver.received).toEqual([]);
    nowMs = start + leaseMs;
    expect(await runWebhookDeliveries(queue(), runOptions)).toMatchObject({ claimed: 1, delivered: 1 });
    expect(receiver.received).toHaveLength(1);
    expect(await deliveryRows()).toMatchObject([{ status: 'delivered', attempts: 1 }]);
  });

  it.runIf(kind === 'postgres')(
    'with two senders on their own connections, makes each attempt once',
    async () => {
      const other = await openDatabase({ kind: 'postgres', url: handle.url ?? '', poolSize: 10 });
      try {
        await subscribe(receiver.url());
        const events = 60;
        await recordEvents(
          handle.db,
          Array.from({ length: events }, (_, index) => listingUpdated(owner.accountId, `lst_${index}`)),
        );
        // Small batches, so both senders keep coming back to the same rows while the other holds some.
        const options = { ...runOptions, dispatchLimit: 7, claimLimit: 5, concurrency: 4 };
        const sender = async (db: DatabaseHandle['db']) => {
          let claimed = 0;
          for (let round = 0; round < 40; round += 1) {
            const tick = await runWebhookDeliveries(queue(db), options);
            claimed += tick.claimed;
          }
          return claimed;
        };
        const [first, second] = await Promise.all([sender(handle.db), sender(other.db)]);

        expect(first + second).toBe(events);
        expect(first).toBeGreaterThan(0);
        expect(second).toBeGreaterThan(0);
        const ids = receiver.received.map((request) => String(request.headers['webhook-id']));
        expect(ids).toHaveLength(events);
        expect(new Set(ids).size).toBe(events);
        expect((await deliveryRows()).every((row) => row.status === 'delivered' && row.attempts === 1)).toBe(
          true,
        );
      } finally {
        await other.close();
      }
    },
    60_000,
  );
});
