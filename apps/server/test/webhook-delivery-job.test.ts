import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Actor, systemClock } from '@innkeep/domain';
import {
  createOperatorUseCases,
  createPostgresDomain,
  type DatabaseHandle,
  openDatabase,
} from '@innkeep/storage';
import { verifyWebhookSignature } from '@innkeep/webhook-delivery';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { startWebhookDeliveryJob, type WebhookDeliveryJob } from '../src/webhook-delivery-job.ts';
import { openOwnerDatabase, testAuthDeps, testOwner } from './support/app-deps.ts';
import { freePort } from './support/processes.ts';

interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

describe('the webhook delivery job', () => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let job: WebhookDeliveryJob | undefined;
  let baseUrl: string;
  let authToken: string;
  let owner: Actor;
  const received: Received[] = [];
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(204).end();
    });
  });
  const failures: unknown[] = [];

  beforeAll(async () => {
    database = await openOwnerDatabase();
    const user = await database.db
      .selectFrom('users')
      .select(['id', 'account_id'])
      .where('email', '=', testOwner.email)
      .executeTakeFirstOrThrow();
    owner = { accountId: user.account_id, userId: user.id, role: 'owner', via: 'rest', clientId: null };
    authToken = (
      await createOperatorUseCases({ db: database.db, clock: systemClock }).issueAuthToken({
        email: testOwner.email,
      })
    ).authToken;
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    app = buildApp({ ...testAuthDeps, baseUrl, database, clock: systemClock, logLevel: 'silent' });
    await app.listen({ port, host: '127.0.0.1' });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  }, 180_000);

  afterAll(async () => {
    await job?.stop();
    await app?.close();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await database?.close();
  });

  it('delivers a reservation written through /api to a loopback receiver, signed', async () => {
    const listingId = 'lst_webhook_job';
    await database.db
      .insertInto('listings')
      .values({
        id: listingId,
        account_id: owner.accountId,
        name: 'Alfama Flat',
        property_type: 'apartment',
        address: 'Rua 1',
        city: 'Lisbon',
        country_code: 'PT',
        time_zone: 'Europe/Lisbon',
        currency: 'EUR',
        bedrooms: 1,
        bathrooms: 1,
        max_guests: 2,
        base_price_minor: 9_000,
        min_price_minor: null,
        enabled: true,
      })
      .execute();
    const { port } = receiver.address() as AddressInfo;
    const { secret } = await createPostgresDomain({ db: database.db, clock: systemClock }).webhooks.create(
      owner,
      { url: `http://127.0.0.1:${port}/hooks`, events: ['reservation.created'] },
    );
    job = startWebhookDeliveryJob({
      db: database.db,
      clock: systemClock,
      log: { info: () => {}, error: (details) => failures.push(details) },
      allowPrivate: true,
      intervalMs: 50,
    });

    const created = await fetch(`${baseUrl}/api/createReservation`, {
      method: 'POST',
      headers: { authToken, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        listingID: listingId,
        startDate: '2030-06-01',
        endDate: '2030-06-04',
        firstName: 'Ada',
        lastName: 'Lovelace',
        guests: { adults: 2 },
      }),
    });
    expect(created.status).toBe(200);
    const { reservationID } = (await created.json()) as { reservationID: string };

    const deadline = Date.now() + 15_000;
    while (received.length === 0 && Date.now() < deadline) await new Promise((wait) => setTimeout(wait, 25));
    expect(received).toHaveLength(1);
    const [delivery] = received;
    expect(JSON.parse(delivery?.body ?? '')).toMatchObject({
      event: 'reservation.created',
      data: { reservationId: reservationID, listingId, startDate: '2030-06-01', endDate: '2030-06-04' },
    });
    expect(
      verifyWebhookSignature(secret, String(delivery?.headers['webhook-signature']), delivery?.body ?? ''),
    ).toBe(true);
    expect(failures).toEqual([]);
  });

  it('logs a failed tick and keeps ticking instead of throwing, until stopped', async () => {
    // A database without the webhook tables: every tick fails.
    const empty = await openDatabase({ kind: 'pglite' });
    const errors: string[] = [];
    const failing = startWebhookDeliveryJob({
      db: empty.db,
      clock: systemClock,
      log: { info: () => {}, error: (_details, message) => errors.push(message) },
      allowPrivate: false,
      intervalMs: 10,
    });
    try {
      const deadline = Date.now() + 10_000;
      while (errors.length < 2 && Date.now() < deadline) await new Promise((wait) => setTimeout(wait, 10));
      expect(errors.slice(0, 2)).toEqual([
        'Delivering webhooks failed; retrying at the next tick',
        'Delivering webhooks failed; retrying at the next tick',
      ]);
    } finally {
      await failing.stop();
      await empty.close();
    }
    const afterStop = errors.length;
    await new Promise((wait) => setTimeout(wait, 50));
    expect(errors).toHaveLength(afterStop);
  });
});
