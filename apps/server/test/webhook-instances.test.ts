import { authMigrations, generateSigningKey } from '@innkeep/auth';
import { domainMigrations } from '@innkeep/storage';
import { openTestDatabase, type TestDatabase } from '@innkeep/storage/testing';
import { verifyWebhookSignature } from '@innkeep/webhook-delivery';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedOwner } from './support/seed-owner.ts';
import { type ServerProcess, startServerProcess } from './support/server-process.ts';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

// The delivery queue's leases are unit-tested in @innkeep/storage; here real server processes (src/main.ts)
// work one PostgreSQL queue together, and one is killed between two attempts of a schedule, to show what the
// leases promise end to end: each attempt is made by one instance, and a schedule survives its instance.

/** Writes made through /api in the two-instance test, half through each instance. */
const writes = 200;
/** Writes in flight at once. */
const concurrency = 8;
const owner = {
  email: 'webhooks@example.test',
  password: 'correct horse battery',
  accountName: 'Webhook Stays',
  listingIdPrefix: 'lst_webhook_',
} as const;

/** The environment of every server process here: loopback receivers, and no rate limit in the way. */
const serverEnv = {
  WEBHOOK_ALLOW_PRIVATE: 'true',
  REST_RATE_LIMIT: '100000',
  // Instances of one database share their keys, as a deployment's do (SECRET_KEYS is shared already).
  OIDC_SIGNING_KEY: JSON.stringify(generateSigningKey()),
};

describe('webhook delivery by two server instances on one PostgreSQL database', () => {
  let database: TestDatabase;
  let receiver: WebhookReceiver;
  const servers: ServerProcess[] = [];
  const spawnedPids: number[] = [];
  const rememberPid = (child: { pid?: number | undefined }) => {
    if (child.pid !== undefined) spawnedPids.push(child.pid);
  };
  let authToken: string;
  let listingIds: string[];

  beforeAll(async () => {
    database = await openTestDatabase('postgres', { ...domainMigrations, ...authMigrations });
    ({ authToken, listingIds } = await seedOwner(database, owner, 4));
    receiver = await startWebhookReceiver({
      status: () => 204,
      // A short random wait, so attempts overlap and the instances' ticks interleave.
      delayMs: () => Math.random() * 30,
      // Known from the spawn on: a process may deliver before the test hears it is ready.
      senderPids: () => spawnedPids,
    });
    servers.push(await startServerProcess(database.url ?? '', serverEnv, rememberPid));
    servers.push(await startServerProcess(database.url ?? '', serverEnv, rememberPid));
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.kill()));
    await receiver?.close();
    await database?.close();
  });

  it('delivers every event exactly once, in one attempt, with both instances sending', async () => {
    const [first, second] = servers as [ServerProcess, ServerProcess];
    const { secret } = await subscribe(first, authToken, receiver.url);

    let next = 0;
    const worker = async () => {
      while (next < writes) {
        const n = next;
        next += 1;
        await write(n % 2 === 0 ? first : second, authToken, listingIds, n);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));

    await vi.waitFor(
      async () => {
        const { rows } = await sql<{ undelivered: number }>`
          select count(*) as undelivered from webhook_events e
          where not exists (
            select 1 from webhook_deliveries d where d.event_id = e.id and d.status = 'delivered')`.execute(
          database.db,
        );
        expect(rows[0]?.undelivered).toBe(0);
      },
      { timeout: 45_000, interval: 250 },
    );

    const { rows: events } = await sql<{ id: string }>`select id from webhook_events order by id`.execute(
      database.db,
    );
    // Every write announced at least one change; otherwise fewer events than this would prove little.
    expect(events.length).toBeGreaterThanOrEqual(writes);
    // Each event arrived once: an attempt two instances both made would arrive twice (the receiver says 204
    // to everything), and a lost one not at all.
    const arrived = receiver.received.map((request) => request.webhookId).sort();
    expect(arrived).toEqual(events.map((event) => event.id));
    for (const request of receiver.received) {
      expect(JSON.parse(request.body).id).toBe(request.webhookId);
      expect(verifyWebhookSignature(secret, request.signature, request.body)).toBe(true);
    }

    const { rows: deliveries } = await sql<{ status: string; attempts: number; count: number }>`
      select status, attempts, count(*) as count from webhook_deliveries
      group by status, attempts`.execute(database.db);
    expect(deliveries).toEqual([{ status: 'delivered', attempts: 1, count: events.length }]);

    // Both instances worked the queue, and at the same time: each request's sender is known, both sent some,
    // and attempts were in flight together.
    const sentBy = new Map<number | undefined, number>();
    for (const request of receiver.received) {
      sentBy.set(request.senderPid, (sentBy.get(request.senderPid) ?? 0) + 1);
    }
    expect([...sentBy.keys()].sort()).toEqual([first.child.pid, second.child.pid].sort());
    expect(receiver.mostAtOnce()).toBeGreaterThan(1);

    for (const server of servers) {
      expect(server.child.exitCode, server.output()).toBeNull();
      expect(server.output()).not.toMatch(/Delivering webhooks failed/);
    }
  });
});

describe('a webhook schedule whose server is killed between two attempts', () => {
  let database: TestDatabase;
  let receiver: WebhookReceiver;
  const servers: ServerProcess[] = [];
  const spawnedPids: number[] = [];
  const rememberPid = (child: { pid?: number | undefined }) => {
    if (child.pid !== undefined) spawnedPids.push(child.pid);
  };
  let authToken: string;
  let listingIds: string[];

  beforeAll(async () => {
    database = await openTestDatabase('postgres', { ...domainMigrations, ...authMigrations });
    ({ authToken, listingIds } = await seedOwner(database, owner, 1));
    receiver = await startWebhookReceiver({
      // The first attempt at each event fails, the next ones succeed.
      status: (webhookId, earlier) =>
        earlier.some((request) => request.webhookId === webhookId) ? 204 : 500,
      // Known from the spawn on: a process may deliver before the test hears it is ready.
      senderPids: () => spawnedPids,
    });
    servers.push(await startServerProcess(database.url ?? '', serverEnv, rememberPid));
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.kill()));
    await receiver?.close();
    await database?.close();
  });

  it('resumes after a restart: the retry arrives once, signed, and the delivery ends delivered', async () => {
    const [killed] = servers as [ServerProcess];
    const { secret } = await subscribe(killed, authToken, receiver.url);
    // Write 2 is a new base price: one event, so one delivery.
    await write(killed, authToken, listingIds, 2);

    // The first attempt failed and the retry is scheduled 5–10 s later.
    const scheduled = await vi.waitFor(
      async () => {
        const row = await deliveryRow(database);
        expect(row).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 500 });
        expect(row?.next_attempt_at?.getTime()).toBeGreaterThan(Date.now());
        return row as DeliveryRow & { next_attempt_at: Date };
      },
      { timeout: 15_000, interval: 50 },
    );
    await killed.kill();
    expect(killed.child.signalCode).toBe('SIGKILL');
    // Nothing of the schedule lived only in the killed process: it is all in the row, and no lease holds it.
    expect(await deliveryRow(database)).toEqual(scheduled);
    expect(scheduled.lease_until).toBeNull();

    const restarted = await startServerProcess(database.url ?? '', serverEnv, rememberPid);
    servers.push(restarted);
    const delivered = await vi.waitFor(
      async () => {
        const row = await deliveryRow(database);
        expect(row?.status).toBe('delivered');
        return row as DeliveryRow & { delivered_at: Date };
      },
      { timeout: 30_000, interval: 100 },
    );

    expect(delivered).toMatchObject({ attempts: 2, last_status_code: 204, next_attempt_at: null });
    // The retry kept its schedule rather than starting a new one.
    expect(delivered.delivered_at.getTime()).toBeGreaterThanOrEqual(scheduled.next_attempt_at.getTime());
    const [failedAttempt, retry] = receiver.received;
    expect(receiver.received).toHaveLength(2);
    expect(failedAttempt).toMatchObject({ webhookId: scheduled.event_id, status: 500 });
    expect(failedAttempt?.senderPid).toBe(killed.child.pid);
    expect(retry).toMatchObject({ webhookId: scheduled.event_id, status: 204, body: failedAttempt?.body });
    expect(retry?.senderPid).toBe(restarted.child.pid);
    expect(verifyWebhookSignature(secret, retry?.signature ?? '', retry?.body ?? '')).toBe(true);
    expect(restarted.output()).not.toMatch(/Delivering webhooks failed/);
  });
});

/** The one delivery of the database, as the queue keeps it. */
interface DeliveryRow {
  readonly event_id: string;
  readonly status: string;
  readonly attempts: number;
  readonly next_attempt_at: Date | null;
  readonly lease_until: Date | null;
  readonly last_status_code: number | null;
  readonly delivered_at: Date | null;
}

async function deliveryRow(database: TestDatabase): Promise<DeliveryRow | undefined> {
  const { rows } = await sql<DeliveryRow>`
    select event_id, status, attempts, next_attempt_at, lease_until, last_status_code, delivered_at
    from webhook_deliveries`.execute(database.db);
  expect(rows.length).toBeLessThanOrEqual(1);
  return rows[0];
}

/** Subscribes `url` to every event through `server`'s /api; answers the secret deliveries are signed with. */
async function subscribe(server: ServerProcess, authToken: string, url: string): Promise<{ secret: string }> {
  const response = await api(server, authToken, '/api/createWebhookSubscription', { url });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as { secret: string };
}

/**
 * Write `n` through `server`'s /api: a reservation (its own dates, so none clash) or a new base price (its own
 * amount, so each one is a change), alternating in pairs so both kinds go through both instances.
 */
async function write(
  server: ServerProcess,
  authToken: string,
  listingIds: readonly string[],
  n: number,
): Promise<void> {
  const listingId = listingIds[n % listingIds.length] ?? '';
  const startDate = addDays('2031-01-01', 3 * n);
  const response =
    Math.floor(n / 2) % 2 === 0
      ? await api(server, authToken, '/api/createReservation', {
          listingID: listingId,
          startDate,
          endDate: addDays(startDate, 2),
          firstName: 'Webhook',
          lastName: `Guest${n}`,
          guests: { adults: 1 },
        })
      : await api(server, authToken, `/api/updateListing/${listingId}`, { basePrice: 100 + n });
  expect(response.status, await response.text()).toBe(200);
}

function api(server: ServerProcess, authToken: string, path: string, body: unknown): Promise<Response> {
  return fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: { authToken, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
}

/** `date` plus `days`, both `YYYY-MM-DD`. */
function addDays(date: string, days: number): string {
  const moved = new Date(`${date}T00:00:00Z`);
  moved.setUTCDate(moved.getUTCDate() + days);
  return moved.toISOString().slice(0, 10);
}
