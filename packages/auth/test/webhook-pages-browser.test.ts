import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Actor, webhookSignatureHeader, webhookSignatureHeaderName } from '@innkeep/domain';
import { createWebhookDeliveryStore } from '@innkeep/storage';
import { testDatabaseKinds } from '@innkeep/storage/testing';
import type { FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildPagesApp,
  createHost,
  openPagesWorld,
  type PagesWorld,
  type TestHost,
} from './support/account-pages-harness.ts';
import { launchChromium, watchForProblems } from './support/chromium.ts';

/** A POST the loopback receiver took. */
interface ReceivedPost {
  readonly path: string;
  readonly signature: string;
  readonly body: string;
}

/** A receiver on 127.0.0.1 that answers 200 to every POST and keeps what it got. */
async function startReceiver(): Promise<{ server: Server; url: string; received: ReceivedPost[] }> {
  const received: ReceivedPost[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        signature: String(request.headers[webhookSignatureHeaderName.toLowerCase()] ?? ''),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/innkeep-events`, received };
}

/** True when `header` carries a v1 signature of `body` made with `secret`. */
function signedWith(header: string, body: string, secret: string): boolean {
  const parts = header.split(',');
  const timestamp = parts.find((part) => part.startsWith('t='))?.slice(2) ?? '';
  const expected = `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
  return parts.includes(expected);
}

// The whole webhooks page in a real browser: its forms under the strict CSP (no script at all), the 303s
// after each post, and a test event that reaches a real receiver signed with the secret the page showed.
describe.each(testDatabaseKinds)('webhooks page in Chromium on %s', (kind) => {
  let world: PagesWorld;
  let app: FastifyInstance;
  let browser: Browser;
  let origin: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    world = await openPagesWorld(kind);
    app = await buildPagesApp(world, { secureCookies: false, webhooks: true });
    origin = await app.listen({ host: '127.0.0.1', port: 0 });
    receiver = await startReceiver();
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => receiver?.server.close(resolve));
    await app?.close();
    await world?.close();
  });

  /**
   * What the delivery job does, reduced to one pass: claim what is due, POST it signed to its URL, and record
   * the outcome. The job itself lives in a package this one may not import.
   */
  async function sendDueDeliveries(): Promise<void> {
    const queue = createWebhookDeliveryStore({ db: world.db, clock: world.clock });
    for (const due of await queue.claimDue(world.clock.now(), 50, 60_000)) {
      const body = JSON.stringify({ id: due.eventId, event: due.event, data: due.data });
      const started = performance.now();
      const response = await fetch(due.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [webhookSignatureHeaderName]: webhookSignatureHeader(due.secrets, body, world.clock.now()),
        },
        body,
      });
      const latencyMs = performance.now() - started;
      const outcome = response.ok
        ? ({ ok: true, statusCode: response.status, latencyMs } as const)
        : ({ ok: false, statusCode: response.status, error: `HTTP ${response.status}`, latencyMs } as const);
      await queue.recordAttempt(due.deliveryId, outcome, world.clock.now(), 0.5);
    }
  }

  function ownerOf(host: TestHost): Actor {
    return { accountId: host.accountId, userId: host.userId, role: 'owner', via: 'web', clientId: null };
  }

  it('adds, changes, pauses, re-keys, tests and deletes a webhook without a script or a CSP violation', async () => {
    const host = await createHost(world);
    const page = await browser.newPage();
    const problems = watchForProblems(page);
    // Any console error too, but the favicon probe's 404, which the browser makes on its own.
    page.on('console', (message) => {
      const favicon = message.location().url.endsWith('/favicon.ico');
      if (message.type() === 'error' && !favicon) problems.push(`console error: ${message.text()}`);
    });
    try {
      await page.goto(`${origin}/settings/webhooks`);
      expect(new URL(page.url()).pathname).toBe('/login');
      await page.fill('#email', host.email);
      await page.fill('#password', host.password);
      await page.click('button:has-text("Sign in")');
      expect(page.url()).toBe(`${origin}/settings/webhooks`);
      expect(await page.textContent('main')).toContain('No webhooks yet.');

      // Add: a loopback receiver, for two of the events.
      await page.fill('#url', receiver.url);
      for (const box of await page.$$('input[name="events"]')) await box.uncheck();
      await page.check('input[name="events"][value="reservation.created"]');
      await page.check('input[name="events"][value="listing.updated"]');
      await page.click('button:has-text("Add webhook")');
      expect(await page.textContent('.notice')).toContain('The webhook is added.');
      const secret = (await page.textContent('.token pre code')) ?? '';
      expect(secret).toMatch(/^whsec_/);
      const [created] = (await world.domain.webhooks.list(ownerOf(host), {})).items;
      expect(created).toMatchObject({
        url: receiver.url,
        events: ['reservation.created', 'listing.updated'],
      });
      const webhookPage = `${origin}/settings/webhooks/${created?.id}`;

      // The list links to it; its page no longer shows the secret.
      await page.click('a:has-text("All webhooks")');
      await page.click(`a:has-text("${receiver.url}")`);
      expect(page.url()).toBe(webhookPage);
      expect(await page.content()).not.toContain(secret);

      // Change the events.
      await page.uncheck('input[name="events"][value="reservation.created"]');
      await page.check('input[name="events"][value="review.created"]');
      await page.click('button:has-text("Save changes")');
      expect(page.url()).toBe(`${webhookPage}?done=saved`);
      expect(await page.textContent('.notice')).toBe('Your changes are saved.');
      expect((await world.domain.webhooks.list(ownerOf(host), {})).items[0]?.events).toEqual([
        'review.created',
        'listing.updated',
      ]);

      // Off, with the reason, and on again.
      await page.click('button:has-text("Turn deliveries off")');
      expect(await page.textContent('#deliveries-switch dd')).toContain('Off — Turned off by a user');
      expect((await world.domain.webhooks.list(ownerOf(host), {})).items[0]?.active).toBe(false);
      await page.click('button:has-text("Turn deliveries on")');
      expect(await page.textContent('.notice')).toBe(
        'Deliveries are on again, and the failure count is reset.',
      );
      expect((await world.domain.webhooks.list(ownerOf(host), {})).items[0]?.active).toBe(true);

      // A new secret, the old one signing for another hour.
      await page.selectOption('#overlap_hours', '1');
      await page.click('button:has-text("Replace the secret")');
      const replacement = (await page.textContent('.token pre code')) ?? '';
      expect(replacement).toMatch(/^whsec_/);
      expect(replacement).not.toBe(secret);
      expect(await page.textContent('.token')).toContain('keeps signing deliveries beside this one until');

      // A test: pending in the log, then delivered to the receiver, signed with both secrets.
      await page.goto(webhookPage);
      await page.click('button:has-text("Send a test event")');
      expect(await page.textContent('.notice')).toContain('A webhook.test event is on its way');
      expect(await page.textContent('#log tbody tr')).toContain('webhook.test');
      expect(await page.textContent('#log tbody tr')).toContain('Pending');
      await sendDueDeliveries();
      const test = receiver.received.find((post) => JSON.parse(post.body).event === 'webhook.test');
      expect(test?.path).toBe('/innkeep-events');
      expect(signedWith(test?.signature ?? '', test?.body ?? '', replacement)).toBe(true);
      expect(signedWith(test?.signature ?? '', test?.body ?? '', secret)).toBe(true);

      await page.reload();
      const row = (await page.textContent('#log tbody tr')) ?? '';
      expect(row).toContain('Delivered');
      expect(row).toContain('200');
      expect(row).toMatch(/\d+ ms/);
      await page.click('#log button:has-text("Redeliver")');
      expect(await page.textContent('.notice')).toBe(
        'The delivery is pending again and is sent within seconds.',
      );
      expect(await page.textContent('#log tbody tr')).toContain('Pending');

      // Delete, through the confirmation step.
      await page.click('a:has-text("Delete this webhook")');
      expect(await page.textContent('h1')).toBe(`Delete the webhook to ${receiver.url}?`);
      await page.click('button:has-text("Delete webhook")');
      expect(page.url()).toBe(`${origin}/settings/webhooks?done=deleted`);
      expect(await page.textContent('.notice')).toBe('The webhook is deleted.');
      expect(await page.textContent('main')).toContain('No webhooks yet.');
      expect((await world.domain.webhooks.list(ownerOf(host), {})).items).toEqual([]);

      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
