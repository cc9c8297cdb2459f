import type { DueWebhookDelivery } from '@innkeep/domain';
import { isSpecialUseAddress } from '@innkeep/domain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { maxWebhookAnswerBytes, type SendWebhookOptions, sendWebhook } from '../src/send-webhook.ts';
import { verifyWebhookSignature } from '../src/sign-webhook.ts';
import { webhookBody } from '../src/webhook-body.ts';
import { type Receiver, refusingUrl, startReceiver } from './support/receiver.ts';

const sentAt = new Date('2026-04-01T12:00:00.000Z');

function delivery(url: string): DueWebhookDelivery {
  return {
    deliveryId: 'whd_1',
    accountId: 'acc_1',
    attempt: 1,
    eventId: 'evt_0123456789abcdef',
    event: 'listing.updated',
    created: new Date('2026-04-01T11:59:58.000Z'),
    data: { listingId: 'lst_x', changes: { name: { from: 'a', to: 'b' } } },
    url,
    secrets: ['whsec_test_secret'],
    format: 'innkeep',
  };
}

/** Sends `due` with the envelope an `innkeep` subscription gets. */
function sendEnvelope(due: DueWebhookDelivery, options?: SendWebhookOptions) {
  return sendWebhook(due, webhookBody(due), options);
}

describe('sending one webhook', () => {
  let receiver: Receiver;
  const allowed = { allowPrivate: true, now: () => sentAt };

  beforeAll(async () => {
    receiver = await startReceiver();
  });
  beforeEach(() => {
    receiver.received.length = 0;
    receiver.answerWith((response) => response.writeHead(204).end());
  });
  afterAll(async () => {
    await receiver.close();
  });

  it('POSTs the signed envelope with its headers, and a 2xx is a success', async () => {
    const outcome = await sendEnvelope(delivery(receiver.url()), allowed);
    expect(outcome).toMatchObject({ ok: true, statusCode: 204 });
    expect(outcome.latencyMs).toBeGreaterThan(0);
    const [request] = receiver.received;
    expect(request?.method).toBe('POST');
    expect(JSON.parse(request?.body ?? '')).toEqual({
      id: 'evt_0123456789abcdef',
      event: 'listing.updated',
      created: '2026-04-01T11:59:58.000Z',
      data: { listingId: 'lst_x', changes: { name: { from: 'a', to: 'b' } } },
    });
    expect(request?.headers).toMatchObject({
      'content-type': 'application/json',
      'webhook-id': 'evt_0123456789abcdef',
      'user-agent': 'Innkeep-Webhooks/1',
    });
    const signature = String(request?.headers['webhook-signature']);
    expect(signature).toMatch(/^t=1775044800,v1=[0-9a-f]{64}$/);
    expect(
      verifyWebhookSignature('whsec_test_secret', signature, request?.body ?? '', {
        nowSeconds: sentAt.getTime() / 1000,
      }),
    ).toBe(true);
  });

  it('sends the body it is given, byte for byte, with the same headers and a signature over that body', async () => {
    const due = { ...delivery(receiver.url('/hosttools')), format: 'hosttools' as const };
    const body = JSON.stringify({ type: 'reservation', document: { _id: 'res_x', firstName: 'Zoë' } });
    expect(await sendWebhook(due, body, allowed)).toMatchObject({ ok: true, statusCode: 204 });
    const [request] = receiver.received;
    expect(request?.body).toBe(body);
    expect(request?.headers).toMatchObject({
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'webhook-id': 'evt_0123456789abcdef',
      'user-agent': 'Innkeep-Webhooks/1',
    });
    expect(
      verifyWebhookSignature('whsec_test_secret', String(request?.headers['webhook-signature']), body, {
        nowSeconds: sentAt.getTime() / 1000,
      }),
    ).toBe(true);
  });

  it('reports a non-2xx answer with its status and the start of its body', async () => {
    receiver.answerWith((response) => response.writeHead(500).end('database down'));
    expect(await sendEnvelope(delivery(receiver.url()), allowed)).toMatchObject({
      ok: false,
      statusCode: 500,
      error: 'The receiver did not answer 2xx: database down',
    });
  });

  it('does not follow a redirect: a 3xx is a failure and its target is never asked', async () => {
    receiver.answerWith((response, request) => {
      if (request.path === '/hooks') response.writeHead(302, { Location: receiver.url('/moved') }).end();
      else response.writeHead(204).end();
    });
    expect(await sendEnvelope(delivery(receiver.url()), allowed)).toMatchObject({
      ok: false,
      statusCode: 302,
      error: 'The receiver answered with a redirect, which is not followed.',
    });
    expect(receiver.received.map((request) => request.path)).toEqual(['/hooks']);
  });

  it('reads at most 64 KB of the answer and does not wait for the rest', async () => {
    let written = 0;
    let closedEarly: Promise<boolean> = Promise.resolve(false);
    receiver.answerWith((response) => {
      response.writeHead(500);
      closedEarly = new Promise((resolve) => response.on('close', () => resolve(!response.writableEnded)));
      // An answer that never ends: only cutting it off lets the attempt finish before the timeout.
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const pump = () => {
        while (!response.destroyed && response.write(chunk)) written += chunk.length;
        if (!response.destroyed) response.once('drain', pump);
      };
      pump();
    });
    const outcome = await sendEnvelope(delivery(receiver.url()), { ...allowed, timeoutMs: 5_000 });
    expect(outcome).toMatchObject({ ok: false, statusCode: 500 });
    expect(outcome.ok === false && outcome.error).toBe(
      `The receiver did not answer 2xx: ${'x'.repeat(199)}…`,
    );
    expect(outcome.latencyMs).toBeLessThan(5_000);
    expect(await closedEarly).toBe(true);
    expect(written).toBeGreaterThanOrEqual(maxWebhookAnswerBytes);
  });

  it('sends the next attempt to the same receiver on the connection the last one left open', async () => {
    const before = receiver.connections();
    expect(await sendEnvelope(delivery(receiver.url()), allowed)).toMatchObject({ ok: true });
    receiver.answerWith((response) => response.writeHead(500).end('try later'));
    expect(await sendEnvelope(delivery(receiver.url('/other')), allowed)).toMatchObject({
      ok: false,
      statusCode: 500,
    });
    receiver.answerWith((response) => response.writeHead(200).end('ok'));
    expect(await sendEnvelope(delivery(receiver.url()), allowed)).toMatchObject({ ok: true });

    // An answer read whole, 2xx or not, leaves its connection for the next attempt.
    expect(receiver.connections() - before).toBe(1);
    const [first, ...others] = receiver.received.map((request) => request.remotePort);
    expect(others).toEqual([first, first]);
  });

  it('closes a connection whose answer was cut short, and the next attempt gets a clean one', async () => {
    let closedBySender: Promise<boolean> = Promise.resolve(false);
    receiver.answerWith((response) => {
      response.writeHead(500);
      closedBySender = new Promise((resolve) => response.on('close', () => resolve(!response.writableEnded)));
      // Never ends: were the connection reused, this would be read as the start of the next answer.
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const pump = () => {
        while (!response.destroyed && response.write(chunk)) {}
        if (!response.destroyed) response.once('drain', pump);
      };
      pump();
    });
    expect(await sendEnvelope(delivery(receiver.url()), { ...allowed, timeoutMs: 5_000 })).toMatchObject({
      ok: false,
      statusCode: 500,
    });
    expect(await closedBySender).toBe(true);
    const afterCutShort = receiver.connections();

    receiver.answerWith((response) => response.writeHead(204).end());
    expect(await sendEnvelope(delivery(receiver.url()), allowed)).toEqual({
      ok: true,
      statusCode: 204,
      latencyMs: expect.any(Number),
    });
    expect(receiver.connections()).toBe(afterCutShort + 1);
    const [cutShort, next] = receiver.received;
    expect(next?.remotePort).not.toBe(cutShort?.remotePort);
    expect(JSON.parse(next?.body ?? '')).toMatchObject({ id: 'evt_0123456789abcdef' });
  });

  it('sends again once when the receiver closed the kept connection just as it was reused', async () => {
    expect(await sendEnvelope(delivery(receiver.url()), allowed)).toMatchObject({ ok: true });
    // The receiver drops the next request's connection without answering, as a server closing an idle
    // connection at that moment does; the retry goes out on a new connection and is answered.
    let dropped = false;
    receiver.answerWith((response, request) => {
      if (!dropped) {
        dropped = true;
        response.socket?.destroy();
        return;
      }
      expect(request.path).toBe('/hooks');
      response.writeHead(204).end();
    });
    expect(await sendEnvelope(delivery(receiver.url()), allowed)).toMatchObject({
      ok: true,
      statusCode: 204,
    });
    expect(receiver.received).toHaveLength(3);
  });

  it('gives up on a receiver that never answers after the timeout', async () => {
    // A receiver of its own: on a loaded machine the request may reach it after the sender gave up, and it
    // must not then show up among another test's requests.
    const silent = await startReceiver();
    silent.answerWith(() => {});
    try {
      const outcome = await sendEnvelope(delivery(silent.url()), { ...allowed, timeoutMs: 200 });
      expect(outcome).toEqual({
        ok: false,
        error: 'The receiver did not answer within 200 ms.',
        latencyMs: expect.any(Number),
      });
      expect(outcome.latencyMs).toBeGreaterThanOrEqual(199);
    } finally {
      await silent.close();
    }
  });

  it('sends nothing more after the timeout, even on a kept connection whose closing looks like a stale one', async () => {
    const slow = await startReceiver();
    try {
      expect(await sendEnvelope(delivery(slow.url()), allowed)).toMatchObject({ ok: true });
      slow.answerWith(() => {});
      // The second attempt goes out on the connection the first left open; giving up closes it, which the
      // request reports as a reset, the same error a receiver closing a kept connection gives.
      const outcome = await sendEnvelope(delivery(slow.url()), { ...allowed, timeoutMs: 200 });
      expect(outcome).toMatchObject({ ok: false, error: 'The receiver did not answer within 200 ms.' });
      await new Promise((wait) => setTimeout(wait, 300));
      expect(slow.received).toHaveLength(2);
    } finally {
      await slow.close();
    }
  });

  it('reports a refused connection', async () => {
    const outcome = await sendEnvelope(delivery(await refusingUrl()), allowed);
    expect(outcome).toMatchObject({ ok: false, error: expect.stringContaining('ECONNREFUSED') });
    expect(outcome).not.toHaveProperty('statusCode');
  });

  it('without allowPrivate, refuses loopback by address and by name, and http anywhere, sending nothing', async () => {
    const port = new URL(receiver.url()).port;
    expect(await sendEnvelope(delivery(`https://127.0.0.1:${port}/hooks`))).toMatchObject({
      ok: false,
      error:
        '127.0.0.1 is a loopback, private or otherwise special-use address; webhooks are delivered to public addresses only.',
    });
    // A name is checked once resolved, when the connection is made.
    expect(await sendEnvelope(delivery(`https://localhost:${port}/hooks`))).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^localhost resolves to (127\.0\.0\.1|::1), which is a loopback/),
    });
    expect(await sendEnvelope(delivery(`https://[::ffff:10.0.0.1]:${port}/hooks`))).toMatchObject({
      ok: false,
      error: expect.stringContaining('special-use address'),
    });
    expect(await sendEnvelope(delivery('http://example.com/hooks'))).toMatchObject({
      ok: false,
      error: 'Webhooks are delivered over https only, not http:.',
    });
    expect(await sendEnvelope(delivery(receiver.url()))).toMatchObject({ ok: false });
    expect(receiver.received).toEqual([]);
  });

  it('knows the special-use addresses from the public ones', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '169.254.169.254',
      '192.168.1.1',
      '::1',
      'fe80::1',
      'fd00::1',
    ]) {
      expect(isSpecialUseAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.215.14', '8.8.8.8', '2606:4700::1111']) {
      expect(isSpecialUseAddress(address), address).toBe(false);
    }
  });
});
