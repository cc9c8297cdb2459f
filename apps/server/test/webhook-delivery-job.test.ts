import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Actor, systemClock, type WebhookEventRecord } from '@innkeep/domain';
import {
  createOperatorUseCases,
  createPostgresDomain,
  type DatabaseHandle,
  openDatabase,
  recordEvents,
} from '@innkeep/storage';
import { verifyWebhookSignature } from '@innkeep/webhook-delivery';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { hostToolsWebhookDocuments } from '../src/host-tools-webhook-documents.ts';
import {
  startWebhookDeliveryJob,
  type WebhookDeliveryJob,
  type WebhookDeliveryJobRun,
} from '../src/webhook-delivery-job.ts';
import { openOwnerDatabase, testAuthDeps, testOwner } from './support/app-deps.ts';
import { freePort } from './support/processes.ts';

interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** Waits until `done` holds, checking every 25 ms, for at most 15 seconds. */
async function waitUntil(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!done() && Date.now() < deadline) await new Promise((wait) => setTimeout(wait, 25));
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
      received.push({
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(204).end();
    });
  });
  const failures: unknown[] = [];
  const listingId = 'lst_webhook_job';
  /** The requests the receiver got at `path`, in order. */
  const receivedAt = (path: string) => received.filter((request) => request.path === path);
  const receiverUrl = (path: string) => `http://127.0.0.1:${(receiver.address() as AddressInfo).port}${path}`;
  const api = (method: 'GET' | 'POST', path: string, body?: unknown) =>
    fetch(`${baseUrl}/api${path}`, {
      method,
      headers: {
        authToken,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  /** Books a stay of two guests through /api and returns its id. */
  const createReservation = async (startDate: string, endDate: string) => {
    const created = await api('POST', '/createReservation', {
      listingID: listingId,
      startDate,
      endDate,
      firstName: 'Ada',
      lastName: 'Lovelace',
      guests: { adults: 2 },
    });
    expect(created.status).toBe(200);
    return ((await created.json()) as { reservationID: string }).reservationID;
  };

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
    job = startWebhookDeliveryJob({
      db: database.db,
      clock: systemClock,
      log: { info: () => {}, error: (details) => failures.push(details) },
      hostToolsBody: hostToolsWebhookDocuments({
        domain: createPostgresDomain({ db: database.db, clock: systemClock }),
        clock: systemClock,
      }),
      allowPrivate: true,
      intervalMs: 50,
    });
  });

  afterAll(async () => {
    await job?.stop();
    await app?.close();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await database?.close();
  });

  it('delivers a reservation written through /api to a loopback receiver, signed', async () => {
    const { secret } = await createPostgresDomain({ db: database.db, clock: systemClock }).webhooks.create(
      owner,
      { url: receiverUrl('/hooks'), events: ['reservation.created'] },
    );

    const reservationID = await createReservation('2030-06-01', '2030-06-04');

    await waitUntil(() => receivedAt('/hooks').length > 0);
    expect(receivedAt('/hooks')).toHaveLength(1);
    const [delivery] = receivedAt('/hooks');
    expect(JSON.parse(delivery?.body ?? '')).toMatchObject({
      event: 'reservation.created',
      data: { reservationId: reservationID, listingId, startDate: '2030-06-01', endDate: '2030-06-04' },
    });
    expect(
      verifyWebhookSignature(secret, String(delivery?.headers['webhook-signature']), delivery?.body ?? ''),
    ).toBe(true);
    expect(failures).toEqual([]);
  });

  it('sends the Host Tools URL set with /api/setWebhook {type, document} as /api/getReservation answers it, signed, beside the envelope', async () => {
    const set = await api('POST', '/setWebhook', { webhookURL: receiverUrl('/hosttools') });
    expect(set.status).toBe(200);
    const { secret } = await database.db
      .selectFrom('webhook_subscriptions')
      .select('secret')
      .where('account_id', '=', owner.accountId)
      .where('format', '=', 'hosttools')
      .executeTakeFirstOrThrow();
    const hostTools = () => receivedAt('/hosttools');
    const envelopesBefore = receivedAt('/hooks').length;
    /** What GET /api/getReservation answers for `reservationId` now. */
    const getReservation = async (reservationId: string) => {
      const answer = await api('GET', `/getReservation/${reservationId}`);
      expect(answer.status).toBe(200);
      return (await answer.json()) as { status: string; posts: { _id: string; message: string }[] };
    };
    const expectSigned = (request: Received | undefined) =>
      expect(
        verifyWebhookSignature(secret, String(request?.headers['webhook-signature']), request?.body ?? ''),
      ).toBe(true);

    // Booked: the reservation as getReservation answers it, read when the attempt was made.
    const reservationID = await createReservation('2030-07-01', '2030-07-05');
    await waitUntil(() => hostTools().length === 1 && receivedAt('/hooks').length > envelopesBefore);
    const [booked] = hostTools();
    expect(JSON.parse(booked?.body ?? '')).toEqual({
      type: 'reservation',
      document: await getReservation(reservationID),
    });
    expectSigned(booked);
    expect(booked?.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Innkeep-Webhooks/1',
    });
    // The innkeep subscription got the same event, under the same id, as the envelope.
    const envelope = receivedAt('/hooks').at(-1);
    expect(JSON.parse(envelope?.body ?? '')).toMatchObject({
      id: booked?.headers['webhook-id'],
      event: 'reservation.created',
      data: { reservationId: reservationID },
    });
    expect(envelope?.headers['webhook-id']).toBe(booked?.headers['webhook-id']);

    // A message: the new post as getReservation's posts show it, with its reservation id.
    const sent = await api('POST', `/sendMessage/${reservationID}`, {
      message: 'Welcome! The key is in the box.',
    });
    expect(sent.status).toBe(200);
    await waitUntil(() => hostTools().length === 2);
    const message = hostTools()[1];
    const { posts } = await getReservation(reservationID);
    expect(posts).toHaveLength(1);
    expect(JSON.parse(message?.body ?? '')).toEqual({
      type: 'message',
      document: { ...posts[0], reservationID },
    });
    expect(posts[0]?.message).toBe('Welcome! The key is in the box.');
    expectSigned(message);
    expect(message?.headers['webhook-id']).not.toBe(booked?.headers['webhook-id']);

    // Cancelled: the reservation as it is now, its status telling what happened.
    const cancelled = await api('POST', `/cancelReservation/${reservationID}`, {});
    expect(cancelled.status).toBe(200);
    await waitUntil(() => hostTools().length === 3);
    const cancellation = hostTools()[2];
    const now = await getReservation(reservationID);
    expect(now.status).toBe('cancelled');
    expect(JSON.parse(cancellation?.body ?? '')).toEqual({ type: 'reservation', document: now });
    expectSigned(cancellation);
    expect(failures).toEqual([]);
  });

  it('fails an attempt whose Host Tools document cannot be read: a missing record by name, any other failure only in the server log', async () => {
    // An account of its own, so the job of the other cases does not claim these deliveries.
    const other = await openOwnerDatabase();
    const logged: { details: object; message: string }[] = [];
    const read = hostToolsWebhookDocuments({
      domain: createPostgresDomain({ db: other.db, clock: systemClock }),
      clock: systemClock,
    });
    const failing = startWebhookDeliveryJob({
      db: other.db,
      clock: systemClock,
      log: { info: () => {}, error: (details, message) => logged.push({ details, message }) },
      // A read that breaks for one reservation, as a lost connection would; the real reader for the other.
      hostToolsBody: (delivery) =>
        (delivery.data as { reservationId: string }).reservationId === 'res_broken'
          ? Promise.reject(new Error('connect ECONNREFUSED 10.0.0.5:5432'))
          : read(delivery),
      allowPrivate: true,
      intervalMs: 50,
    });
    try {
      const user = await other.db.selectFrom('users').select(['id', 'account_id']).executeTakeFirstOrThrow();
      const otherOwner: Actor = {
        accountId: user.account_id,
        userId: user.id,
        role: 'owner',
        via: 'rest',
        clientId: null,
      };
      await createPostgresDomain({ db: other.db, clock: systemClock }).webhooks.setHostToolsUrl(otherOwner, {
        url: receiverUrl('/unreadable'),
      });
      const booked = (reservationId: string): WebhookEventRecord => ({
        accountId: otherOwner.accountId,
        event: 'reservation.created',
        data: {
          reservationId,
          listingId,
          channel: 'direct',
          status: 'accepted',
          startDate: '2030-08-01',
          endDate: '2030-08-03',
        },
      });
      await recordEvents(other.db, [booked('res_gone'), booked('res_broken')]);
      const attempted = () =>
        other.db
          .selectFrom('webhook_deliveries')
          .innerJoin('webhook_events', 'webhook_events.id', 'webhook_deliveries.event_id')
          .select([
            'webhook_events.data',
            'webhook_deliveries.status',
            'webhook_deliveries.attempts',
            'webhook_deliveries.last_error',
          ])
          .where('webhook_deliveries.attempts', '>', 0)
          .execute();
      const deadline = Date.now() + 15_000;
      while ((await attempted()).length < 2 && Date.now() < deadline)
        await new Promise((wait) => setTimeout(wait, 25));

      const byReservation = Object.fromEntries(
        (await attempted()).map((row) => [(row.data as { reservationId: string }).reservationId, row]),
      );
      expect(byReservation).toEqual({
        res_gone: expect.objectContaining({
          status: 'pending',
          attempts: 1,
          last_error:
            'The Host Tools body could not be built: No reservation with id res_gone in this account.',
        }),
        res_broken: expect.objectContaining({
          status: 'pending',
          attempts: 1,
          last_error: 'The Host Tools body could not be built: reading its document failed.',
        }),
      });
      expect(logged).toEqual([
        {
          details: expect.objectContaining({ err: new Error('connect ECONNREFUSED 10.0.0.5:5432') }),
          message: 'Reading a Host Tools webhook document failed; the attempt is retried on its schedule',
        },
      ]);
      expect(receivedAt('/unreadable')).toEqual([]);
    } finally {
      await failing.stop();
      await other.close();
    }
  });

  it('when idle, looks again every quarter of a second by default, without spinning', async () => {
    // Everything recorded so far has been delivered by the job of the other cases: this one finds nothing.
    const idle: WebhookDeliveryJobRun[] = [];
    const watched = startWebhookDeliveryJob({
      db: database.db,
      clock: systemClock,
      log: { info: () => {}, error: (details) => failures.push(details) },
      hostToolsBody: () => Promise.reject(new Error('Nothing is delivered in this case.')),
      allowPrivate: true,
      onRun: (run) => idle.push(run),
    });
    try {
      await new Promise((wait) => setTimeout(wait, 1_500));
    } finally {
      await watched.stop();
    }
    // 250 ms apart: about 6 ticks in 1.5 s (the old 2 s made it one), and never back to back.
    expect(idle.length).toBeGreaterThanOrEqual(3);
    expect(idle.length).toBeLessThanOrEqual(8);
    expect(idle.every((run) => run.outcome === 'success')).toBe(true);
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
      hostToolsBody: () => Promise.reject(new Error('No delivery is ever claimed here.')),
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
