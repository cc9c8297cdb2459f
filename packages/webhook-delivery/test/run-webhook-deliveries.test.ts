import {
  type Actor,
  type Clock,
  notFound,
  type WebhookDeliveryQueue,
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
import { sendWebhook } from '../src/send-webhook.ts';
import { verifyWebhookSignature } from '../src/sign-webhook.ts';
import type { HostToolsBodyReader } from '../src/webhook-body.ts';
import { createOwner } from './support/accounts.ts';
import { type Receiver, refusingUrl, startReceiver } from './support/receiver.ts';

const leaseMs = 60_000;
const start = new Date('2026-04-01T12:00:00.000Z').getTime();

/** The time the queue and the runner see; the test moves it by hand. */
let nowMs = start;
const clock: Clock = { now: () => new Date(nowMs) };

/** A new reservation of `accountId`, an event the Host Tools URL receives. */
function reservationCreated(accountId: string): WebhookEventRecord {
  return {
    accountId,
    event: 'reservation.created',
    data: {
      reservationId: 'res_x',
      listingId: 'lst_x',
      channel: 'direct',
      status: 'accepted',
      startDate: '2026-05-01',
      endDate: '2026-05-03',
    },
  };
}

/** A host message of `accountId`, an event the Host Tools URL receives. */
function messageCreated(accountId: string): WebhookEventRecord {
  return {
    accountId,
    event: 'message.created',
    data: { messageId: 'msg_x', reservationId: 'res_x', sender: 'host', messageRuleId: null },
  };
}

/** Orders Host Tools bodies by type, so tests need not depend on the order of concurrent attempts. */
function byType(a: { type: string }, b: { type: string }): number {
  return a.type.localeCompare(b.type);
}

/** A listing change of `accountId`: the event most cases record. */
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
  /** What the app would read for a Host Tools delivery; each case that sends one says what. */
  let readHostToolsBody: HostToolsBodyReader;
  const runOptions: RunWebhookDeliveriesOptions = {
    hostToolsBody: (delivery) => readHostToolsBody(delivery),
    allowPrivate: true,
    // Room for a loaded machine: an answer later than this is a failed attempt, and the case expecting a
    // delivery would fail with it. The case about a silent receiver gives up sooner.
    timeoutMs: 5_000,
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
    readHostToolsBody = () => Promise.reject(new Error('No Host Tools body was expected in this case.'));
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
      const failingOptions = { ...runOptions, timeoutMs: 300 };

      expect(await runWebhookDeliveries(queue(), failingOptions)).toMatchObject({ claimed: 1, retried: 1 });
      const firstRetry = start + webhookRetryDelayMs(1, 0.5);
      expect(await deliveryRows()).toMatchObject([
        { status: 'pending', attempts: 1, next_attempt_at: new Date(firstRetry) },
      ]);

      nowMs = firstRetry - 1;
      expect(await runWebhookDeliveries(queue(), failingOptions)).toMatchObject({ claimed: 0 });
      nowMs = firstRetry;
      expect(await runWebhookDeliveries(queue(), failingOptions)).toMatchObject({ claimed: 1, retried: 1 });
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

  /** Sets the owner's Host Tools URL and returns its subscription's id and signing secret. */
  async function setHostToolsUrl(url: string): Promise<{ id: string; secret: string }> {
    const { id } = await createPostgresDomain({ db: handle.db, clock }).webhooks.setHostToolsUrl(owner, {
      url,
    });
    const { secret } = await handle.db
      .selectFrom('webhook_subscriptions')
      .select('secret')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return { id, secret };
  }

  it('sends the Host Tools URL {type, document} as read for each delivery, with the same headers, while an innkeep subscription gets the envelope', async () => {
    const hostTools = await setHostToolsUrl(receiver.url('/hosttools'));
    const innkeep = await createPostgresDomain({ db: handle.db, clock }).webhooks.create(owner, {
      url: receiver.url('/innkeep'),
      events: ['reservation.created', 'message.created'],
    });
    const read: string[] = [];
    readHostToolsBody = async (delivery) => {
      read.push(`${delivery.event} ${delivery.format}`);
      return delivery.event === 'message.created'
        ? { type: 'message', document: { _id: 'msg_x', message: 'Hi', reservationID: 'res_x' } }
        : { type: 'reservation', document: { _id: 'res_x', status: 'accepted' } };
    };
    await recordEvents(handle.db, [reservationCreated(owner.accountId), messageCreated(owner.accountId)]);

    expect(await runWebhookDeliveries(queue(), runOptions)).toMatchObject({ claimed: 4, delivered: 4 });
    expect(read.sort()).toEqual(['message.created hosttools', 'reservation.created hosttools']);
    const atPath = (path: string) => receiver.received.filter((request) => request.path === path);
    expect(
      atPath('/hosttools')
        .map((request) => JSON.parse(request.body))
        .sort(byType),
    ).toEqual([
      { type: 'message', document: { _id: 'msg_x', message: 'Hi', reservationID: 'res_x' } },
      { type: 'reservation', document: { _id: 'res_x', status: 'accepted' } },
    ]);
    expect(
      atPath('/innkeep')
        .map((request) => JSON.parse(request.body).event)
        .sort(),
    ).toEqual(['message.created', 'reservation.created']);
    for (const [path, secret] of [
      ['/hosttools', hostTools.secret],
      ['/innkeep', innkeep.secret],
    ] as const) {
      for (const request of atPath(path)) {
        expect(request.headers).toMatchObject({
          'content-type': 'application/json',
          'user-agent': 'Innkeep-Webhooks/1',
          'webhook-id': expect.stringMatching(/^\S+$/),
        });
        const signature = String(request.headers['webhook-signature']);
        expect(verifyWebhookSignature(secret, signature, request.body, { nowSeconds: start / 1000 })).toBe(
          true,
        );
      }
    }
    // Both subscriptions got each event under the same id.
    expect(new Set(atPath('/hosttools').map((request) => request.headers['webhook-id']))).toEqual(
      new Set(atPath('/innkeep').map((request) => request.headers['webhook-id'])),
    );
  });

  it('sends a test to the Host Tools URL as {type: "test", document: data}, without reading a document', async () => {
    const { id } = await setHostToolsUrl(receiver.url('/hosttools'));
    await createPostgresDomain({ db: handle.db, clock }).webhookDeliveries.sendTest(owner, { webhookId: id });

    expect(await runWebhookDeliveries(queue(), runOptions)).toMatchObject({ claimed: 1, delivered: 1 });
    expect(receiver.received.map((request) => JSON.parse(request.body))).toEqual([
      { type: 'test', document: { webhookId: id } },
    ]);
  });

  const unreadable = {
    'the record is gone': {
      error: notFound('reservation', 'res_x'),
      logged: 'The Host Tools body could not be built: No reservation with id res_x in this account.',
    },
    'the read failed': {
      error: new Error('connect ECONNREFUSED 10.0.0.5:5432 (password=hunter2)'),
      logged: 'The Host Tools body could not be built: reading its document failed.',
    },
  };

  it.each(Object.keys(unreadable) as (keyof typeof unreadable)[])(
    'when %s, the attempt fails with the reason, sends nothing, and the retry delivers once it can be read',
    async (cause) => {
      await setHostToolsUrl(receiver.url('/hosttools'));
      readHostToolsBody = () => Promise.reject(unreadable[cause].error);
      await recordEvents(handle.db, [reservationCreated(owner.accountId)]);

      expect(await runWebhookDeliveries(queue(), runOptions)).toMatchObject({ claimed: 1, retried: 1 });
      expect(receiver.received).toEqual([]);
      const firstRetry = start + webhookRetryDelayMs(1, 0.5);
      expect(await deliveryRows()).toEqual([
        {
          status: 'pending',
          attempts: 1,
          next_attempt_at: new Date(firstRetry),
          last_status_code: null,
          last_error: unreadable[cause].logged,
        },
      ]);

      readHostToolsBody = async () => ({ type: 'reservation', document: { _id: 'res_x' } });
      nowMs = firstRetry;
      expect(await runWebhookDeliveries(queue(), runOptions)).toMatchObject({ claimed: 1, delivered: 1 });
      expect(receiver.received.map((request) => JSON.parse(request.body))).toEqual([
        { type: 'reservation', document: { _id: 'res_x' } },
      ]);
    },
  );

  it('claims again while the slowest attempt of a batch is still in flight, and ends the tick only after it', async () => {
    await subscribe(receiver.url());
    const events = 12;
    await recordEvents(
      handle.db,
      Array.from({ length: events }, (_, index) => listingUpdated(owner.accountId, `lst_${index}`)),
    );
    // The first attempt hangs until every other one has been made: were the next claim to wait for a whole
    // batch, the others (in later batches of 3) would never come and it would give up after 5 s instead.
    let others = 0;
    let allOthersMade: () => void = () => {};
    const othersMade = new Promise<void>((resolve) => {
      allOthersMade = resolve;
    });
    let slowStarted = false;
    let slowEndedAfter = -1;
    const send: RunWebhookDeliveriesOptions['send'] = async (delivery, body, options) => {
      if (!slowStarted) {
        slowStarted = true;
        await Promise.race([othersMade, new Promise((wait) => setTimeout(wait, 5_000))]);
        slowEndedAfter = others;
        return sendWebhook(delivery, body, options);
      }
      const outcome = await sendWebhook(delivery, body, options);
      others += 1;
      if (others === events - 1) allOthersMade();
      return outcome;
    };

    expect(
      await runWebhookDeliveries(queue(), { ...runOptions, send, claimLimit: 3, concurrency: 3 }),
    ).toMatchObject({ dispatchedEvents: events, claimed: events, delivered: events });
    expect(slowEndedAfter).toBe(events - 1);
    expect(receiver.received).toHaveLength(events);
  });

  it('claims at most maxClaimsPerTick times in one tick, leaving the rest to the next', async () => {
    await subscribe(receiver.url());
    await recordEvents(
      handle.db,
      Array.from({ length: 10 }, (_, index) => listingUpdated(owner.accountId, `lst_${index}`)),
    );
    const options = { ...runOptions, claimLimit: 2, maxClaimsPerTick: 3 };

    expect(await runWebhookDeliveries(queue(), options)).toMatchObject({ claimed: 6, delivered: 6 });
    expect(await runWebhookDeliveries(queue(), options)).toMatchObject({ claimed: 4, delivered: 4 });
    expect(await runWebhookDeliveries(queue(), options)).toMatchObject({ claimed: 0 });
  });

  /**
   * Runs one tick over 16 deliveries whose attempts all end at the same moment, so all 16 outcomes are ready
   * to be recorded at once, and says how the queue was asked to record them.
   */
  async function recordAllAtOnce(): Promise<{ mostFailuresAtOnce: number; successBatches: number[] }> {
    await subscribe(receiver.url());
    await recordEvents(
      handle.db,
      Array.from({ length: 16 }, (_, index) => listingUpdated(owner.accountId, `lst_${index}`)),
    );
    const store = queue();
    let recording = 0;
    let mostFailuresAtOnce = 0;
    const successBatches: number[] = [];
    const counted: WebhookDeliveryQueue = {
      ...store,
      async recordAttempt(...args) {
        recording += 1;
        mostFailuresAtOnce = Math.max(mostFailuresAtOnce, recording);
        try {
          return await store.recordAttempt(...args);
        } finally {
          recording -= 1;
        }
      },
      async recordDelivered(attempts, now) {
        successBatches.push(attempts.length);
        return store.recordDelivered(attempts, now);
      },
    };
    let answered = 0;
    let allAnswered: () => void = () => {};
    const together = new Promise<void>((resolve) => {
      allAnswered = resolve;
    });
    const send: RunWebhookDeliveriesOptions['send'] = async (delivery, body, options) => {
      const outcome = await sendWebhook(delivery, body, options);
      answered += 1;
      if (answered === 16) allAnswered();
      await together;
      return outcome;
    };
    await runWebhookDeliveries(counted, { ...runOptions, send, concurrency: 16, databaseConcurrency: 2 });
    return { mostFailuresAtOnce, successBatches };
  }

  it('records at most databaseConcurrency failures at once, however many attempts are in flight', async () => {
    receiver.answerWith((response) => response.writeHead(500).end());
    const { mostFailuresAtOnce, successBatches } = await recordAllAtOnce();
    expect(mostFailuresAtOnce).toBe(2);
    expect(successBatches).toEqual([]);
    const pending = await handle.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('status', '=', 'pending')
      .where('attempts', '=', 1)
      .execute();
    expect(pending).toHaveLength(16);
  });

  it('records successes that end together in one statement, none of them alone', async () => {
    const { mostFailuresAtOnce, successBatches } = await recordAllAtOnce();
    expect(mostFailuresAtOnce).toBe(0);
    expect(successBatches).toEqual([16]);
    const delivered = await handle.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('status', '=', 'delivered')
      .where('attempts', '=', 1)
      .execute();
    expect(delivered).toHaveLength(16);
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
