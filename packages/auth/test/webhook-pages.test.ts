import type { Actor, DueWebhookDelivery, WebhookDeliveryQueue } from '@innkeep/domain';
import { createWebhookDeliveryStore, recordEvents } from '@innkeep/storage';
import { testDatabaseKinds } from '@innkeep/storage/testing';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browse,
  buildPagesApp,
  CookieJar,
  createHost,
  csrfFrom,
  openPagesWorld,
  type PagesWorld,
  signIn,
  type TestHost,
} from './support/account-pages-harness.ts';

const secretInPage = /<pre><code>(whsec_[^<]+)<\/code><\/pre>/;
const hourMs = 3_600_000;

function ownerOf(host: TestHost): Actor {
  return { accountId: host.accountId, userId: host.userId, role: 'owner', via: 'web', clientId: null };
}

describe.each(testDatabaseKinds)('webhooks page on %s', (kind) => {
  let world: PagesWorld;
  let app: FastifyInstance;
  let queue: WebhookDeliveryQueue;

  beforeAll(async () => {
    world = await openPagesWorld(kind);
    app = await buildPagesApp(world, { webhooks: true });
    queue = createWebhookDeliveryStore({ db: world.db, clock: world.clock });
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await world?.close();
  });

  async function signedInJar(credentials: { email: string; password: string }): Promise<CookieJar> {
    const jar = new CookieJar();
    const response = await signIn(app, jar, credentials);
    expect(response.statusCode).toBe(303);
    return jar;
  }

  /** Opens `url` and posts `form` with the page's CSRF token, as a person filling it in would. */
  async function submit(
    jar: CookieJar,
    pageUrl: string,
    action: string,
    form: Record<string, string | readonly string[]> = {},
  ): Promise<LightMyRequestResponse> {
    const page = await browse(app, jar, { url: pageUrl });
    expect(page.statusCode).toBe(200);
    return post(jar, action, { ...form, csrf: csrfFrom(page.body) });
  }

  /** Posts a form whose fields may repeat (event checkboxes), sending the jar's cookies. */
  async function post(
    jar: CookieJar,
    url: string,
    form: Record<string, string | readonly string[]>,
  ): Promise<LightMyRequestResponse> {
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(form)) {
      for (const one of typeof value === 'string' ? [value] : value) body.append(name, one);
    }
    const response = await app.inject({
      method: 'POST',
      url,
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: body.toString(),
    });
    jar.take(response);
    return response;
  }

  async function createThroughPage(
    jar: CookieJar,
    url: string,
    events: readonly string[] = ['listing.updated'],
  ): Promise<{ webhookId: string; secret: string; response: LightMyRequestResponse }> {
    const response = await submit(jar, '/settings/webhooks', '/settings/webhooks', { url, events });
    expect(response.statusCode).toBe(200);
    const secret = secretInPage.exec(response.body)?.[1] ?? '';
    const webhookId =
      /action="\/settings\/webhooks\/(whk_[A-Za-z0-9_-]+)\/test"/.exec(response.body)?.[1] ?? '';
    expect(secret).toMatch(/^whsec_/);
    expect(webhookId).toMatch(/^whk_/);
    return { webhookId, secret, response };
  }

  /** Records `count` listing updates of the host's account, a second apart, and fans each out. */
  async function recordListingUpdates(host: TestHost, count: number): Promise<void> {
    for (let index = 0; index < count; index += 1) {
      await recordEvents(world.db, [
        {
          accountId: host.accountId,
          event: 'listing.updated',
          data: {
            listingId: 'lst_page_test',
            changes: { nickname: { from: 'Before', to: `After ${index}` } },
          },
        },
      ]);
      await queue.dispatch(100);
      world.clock.advance(1000);
    }
  }

  /**
   * Claims the due deliveries to the host's subscriptions. The queue is the whole database's, so others'
   * due deliveries are claimed too; their one-millisecond lease has run out by the next claim.
   */
  async function claimDueTo(host: TestHost): Promise<DueWebhookDelivery[]> {
    world.clock.advance(1);
    const urls = new Set(
      (await world.domain.webhooks.list(ownerOf(host), {})).items.map((webhook) => webhook.url),
    );
    const claimed = await queue.claimDue(world.clock.now(), 500, 1);
    return claimed.filter((due) => urls.has(due.url));
  }

  it('sends people who are not signed in to sign-in, coming back afterwards', async () => {
    const list = await browse(app, new CookieJar(), { url: '/settings/webhooks' });
    expect(list.statusCode).toBe(303);
    expect(list.headers.location).toBe('/login?next=%2Fsettings%2Fwebhooks');
    const one = await browse(app, new CookieJar(), { url: '/settings/webhooks/whk_x?cursor=abc' });
    expect(one.headers.location).toBe(
      `/login?next=${encodeURIComponent('/settings/webhooks/whk_x?cursor=abc')}`,
    );
  });

  it('links settings to the webhooks page only when the server serves it', async () => {
    const host = await createHost(world);
    const jar = await signedInJar(host);
    const settings = (await browse(app, jar, { url: '/settings' })).body;
    expect(settings).toContain('<a href="/settings/webhooks">Manage webhooks</a>');

    const without = await buildPagesApp(world);
    try {
      const otherJar = new CookieJar();
      await signIn(without, otherJar, host);
      expect((await browse(without, otherJar, { url: '/settings' })).body).not.toContain(
        '/settings/webhooks',
      );
      expect((await browse(without, otherJar, { url: '/settings/webhooks' })).statusCode).toBe(404);
    } finally {
      await without.close();
    }
  });

  it('adds a webhook, shows its signing secret once, and never again', async () => {
    const host = await createHost(world);
    const jar = await signedInJar(host);
    const empty = await browse(app, jar, { url: '/settings/webhooks' });
    expect(empty.body).toContain('No webhooks yet.');
    // Every event is offered, and checked, on a new form.
    expect(empty.body.match(/type="checkbox" name="events" value="[a-z.]+" checked>/g)).toHaveLength(7);

    const { webhookId, secret, response } = await createThroughPage(
      jar,
      'https://hooks.example.com/innkeep',
      ['reservation.created', 'listing.updated'],
    );
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers.location).toBeUndefined();
    expect(response.body).toContain('The webhook is added.');
    expect(response.body).toContain('it is shown only this once');

    const { items } = await world.domain.webhooks.list(ownerOf(host), {});
    expect(items).toEqual([
      expect.objectContaining({
        id: webhookId,
        url: 'https://hooks.example.com/innkeep',
        events: ['reservation.created', 'listing.updated'],
        active: true,
      }),
    ]);
    // The secret on the page is the one that signs: the queue hands it to the sender.
    await recordListingUpdates(host, 1);
    const [due] = await claimDueTo(host);
    expect(due?.secrets).toEqual([secret]);
    await queue.recordAttempt(
      due?.deliveryId ?? '',
      { ok: true, statusCode: 204, latencyMs: 5 },
      world.clock.now(),
      0,
    );

    for (const url of [
      '/settings/webhooks',
      `/settings/webhooks/${webhookId}`,
      `/settings/webhooks/${webhookId}/delete`,
    ]) {
      const later = await browse(app, jar, { url });
      expect(later.statusCode).toBe(200);
      expect(later.body).not.toContain(secret);
      expect(later.body).not.toMatch(/whsec_/);
    }
    const list = (await browse(app, jar, { url: '/settings/webhooks' })).body;
    expect(list).toContain(`<a href="/settings/webhooks/${webhookId}">https://hooks.example.com/innkeep</a>`);
    expect(list).toContain('<code>reservation.created</code> <code>listing.updated</code>');
  });

  it('keeps what was typed and shows why when the URL or the events are refused', async () => {
    const host = await createHost(world);
    const jar = await signedInJar(host);
    const plain = await submit(jar, '/settings/webhooks', '/settings/webhooks', {
      url: 'http://hooks.example.com/plain',
      events: ['message.created', 'review.created'],
    });
    expect(plain.statusCode).toBe(400);
    const form = plain.body.slice(plain.body.indexOf('id="new-webhook"'));
    expect(form).toContain('Must be an https:// URL (http:// is allowed only for localhost and 127.0.0.1).');
    expect(form).toContain('value="http://hooks.example.com/plain"');
    expect(form).toContain('value="message.created" checked>');
    expect(form).toContain('value="review.created" checked>');
    expect(form).toContain('value="listing.updated">');

    const none = await submit(jar, '/settings/webhooks', '/settings/webhooks', {
      url: 'https://hooks.example.com/none',
    });
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain('Choose at least one event.');
    expect(none.body).toContain('value="https://hooks.example.com/none"');

    expect((await world.domain.webhooks.list(ownerOf(host), {})).items).toEqual([]);
  });

  it('escapes a URL full of markup wherever it is shown', async () => {
    const host = await createHost(world);
    const jar = await signedInJar(host);
    const url = 'https://hooks.example.com/?q="><b>bold</b>';
    const { webhookId, response } = await createThroughPage(jar, url);
    expect(response.body).not.toContain('<b>bold</b>');
    for (const page of [
      '/settings/webhooks',
      `/settings/webhooks/${webhookId}`,
      `/settings/webhooks/${webhookId}/delete`,
    ]) {
      const body = (await browse(app, jar, { url: page })).body;
      expect(body).toContain('https://hooks.example.com/?q=&quot;&gt;&lt;b&gt;bold&lt;/b&gt;');
      expect(body).not.toContain('<b>bold</b>');
    }
  });

  it('changes the URL and events, saves nothing for an untouched form, and refuses a bad URL keeping it', async () => {
    const host = await createHost(world);
    const jar = await signedInJar(host);
    const { webhookId } = await createThroughPage(jar, 'https://hooks.example.com/before');
    const page = `/settings/webhooks/${webhookId}`;

    const saved = await submit(jar, page, page, {
      url: 'https://hooks.example.com/after',
      events: ['reservation.cancelled', 'calendar.updated'],
    });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe(`${page}?done=saved`);
    expect((await browse(app, jar, { url: `${page}?done=saved` })).body).toContain('Your changes are saved.');
    const [changed] = (await world.domain.webhooks.list(ownerOf(host), {})).items;
    expect(changed).toMatchObject({
      url: 'https://hooks.example.com/after',
      events: ['reservation.cancelled', 'calendar.updated'],
    });

    const auditedBefore = await auditCount(host);
    const untouched = await submit(jar, page, page, {
      url: 'https://hooks.example.com/after',
      events: ['calendar.updated', 'reservation.cancelled'],
    });
    expect(untouched.headers.location).toBe(`${page}?done=unchanged`);
    expect(await auditCount(host)).toBe(auditedBefore);

    const refused = await submit(jar, page, page, {
      url: 'ftp://hooks.example.com/nope',
      events: ['review.created'],
    });
    expect(refused.statusCode).toBe(400);
    const settings = refused.body.slice(refused.body.indexOf('id="settings"'));
    expect(settings).toContain('Must be an https:// URL');
    expect(settings).toContain('value="ftp://hooks.example.com/nope"');
    expect(settings).toContain('value="review.created" checked>');
    expect(settings).toContain('value="calendar.updated">');
    expect((await world.domain.webhooks.list(ownerOf(host), {})).items[0]).toEqual(changed);

    const noEvents = await submit(jar, page, page, { url: 'https://hooks.example.com/after' });
    expect(noEvents.statusCode).toBe(400);
    expect(noEvents.body).toContain('Choose at least one event.');
  });

  async function auditCount(host: TestHost): Promise<number> {
    const { items } = await world.domain.audit.list(ownerOf(host), { limit: 500 });
    return items.length;
  }

  it('turns deliveries off with the reason shown, and on again with the failures reset', async () => {
    const host = await createHost(world);
    const jar = await signedInJar(host);
    const { webhookId } = await createThroughPage(jar, 'https://hooks.example.com/switch');
    const page = `/settings/webhooks/${webhookId}`;
    // Two failed attempts count as failures in a row.
    await recordListingUpdates(host, 2);
    for (const due of await claimDueTo(host)) {
      await queue.recordAttempt(
        due.deliveryId,
        { ok: false, statusCode: 503, error: 'HTTP 503', latencyMs: 30 },
        world.clock.now(),
        0,
      );
    }
    expect((await world.domain.webhooks.list(ownerOf(host), {})).items[0]?.consecutiveFailures).toBe(2);

    const off = await submit(jar, page, `${page}/active`, { active: 'false' });
    expect(off.statusCode).toBe(303);
    expect(off.headers.location).toBe(`${page}?done=turned_off`);
    expect((await world.domain.webhooks.list(ownerOf(host), {})).items[0]).toMatchObject({
      active: false,
      disabledReason: expect.stringContaining('Turned off by a user'),
    });
    const offPage = (await browse(app, jar, { url: off.headers.location ?? '' })).body;
    expect(offPage).toContain('Deliveries are off.');
    expect(offPage).toContain(
      '<span class="status-bad">Off</span> <span class="hint">— Turned off by a user',
    );
    expect(offPage).toContain('Turn deliveries on');

    const on = await submit(jar, page, `${page}/active`, { active: 'true' });
    expect(on.headers.location).toBe(`${page}?done=turned_on`);
    expect((await world.domain.webhooks.list(ownerOf(host), {})).items[0]).toMatchObject({
      active: true,
      disabledReason: null,
      consecutiveFailures: 0,
    });
    const onPage = (await browse(app, jar, { url: on.headers.location ?? '' })).body;
    expect(onPage).toContain('Deliveries are on again, and the failure count is reset.');
    expect(onPage).toContain('<dt>Failures in a row</dt><dd>0</dd>');
  });

  it('shows the delivery log newest first, a page at a time, with each last attempt', async () => {
    const host = await createHost(world);
    const jar = await signedInJar(host);
    const { webhookId } = await createThroughPage(jar, 'https://hooks.example.com/log');
    const page = `/settings/webhooks/${webhookId}`;
    expect((await browse(app, jar, { url: page })).body).toContain('Nothing has been sent here yet.');

    await recordListingUpdates(host, 24);
    const newest = (
      await world.domain.webhookDeliveries.listDeliveries(ownerOf(host), { webhookId, limit: 1 })
    ).items[0];
    await queue.recordAttempt(
      newest?.id ?? '',
      { ok: true, statusCode: 200, latencyMs: 42 },
      world.clock.now(),
      0,
    );

    const first = (await browse(app, jar, { url: page })).body;
    const all = (
      await world.domain.webhookDeliveries.listDeliveries(ownerOf(host), { webhookId, limit: 100 })
    ).items;
    expect(all).toHaveLength(24);
    expect(first.match(/<tr>\n<td><time/g)).toHaveLength(20);
    // The newest delivery leads, with its answer, latency and attempts, and the only Redeliver button.
    const firstRow = first.slice(first.indexOf('<tbody>', first.indexOf('id="log"')));
    expect(firstRow).toMatch(
      /<td><time datetime="[^"]+">2027-03-01 12:00:\d\d<\/time><\/td>\n<td><code>listing.updated<\/code><\/td>\n<td>Delivered<\/td>\n<td>200<br><span class="hint">42 ms<\/span><\/td>\n<td>1<\/td>\n<td>—<\/td>/,
    );
    expect(first.match(/>Redeliver</g)).toHaveLength(1);
    expect(first).toContain(`/deliveries/${newest?.id}/redeliver`);
    // Pending ones show their next attempt.
    expect(first).toContain('<td>Pending</td>\n<td>—</td>\n<td>0</td>\n<td><time');
    const createdOrder = [...first.matchAll(/<tr>\n<td><time datetime="([^"]+)"/g)].map((match) => match[1]);
    expect(createdOrder).toEqual(all.slice(0, 20).map((delivery) => delivery.createdAt));
    expect(first).not.toContain('Newest deliveries');

    const older = /href="([^"]+\?cursor=[^"#]+)#log">Older deliveries/.exec(first)?.[1] ?? '';
    expect(older).not.toBe('');
    const second = (await browse(app, jar, { url: older.replaceAll('&amp;', '&') })).body;
    expect([...second.matchAll(/<tr>\n<td><time datetime="([^"]+)"/g)].map((match) => match[1])).toEqual(
      all.slice(20).map((delivery) => delivery.createdAt),
    );
    expect(second).toContain(`href="${page}#log">Newest deliveries`);
    expect(second).not.toContain('Older deliveries');

    const badCursor = await browse(app, jar, { url: `${page}?cursor=not-a-cursor` });
    expect(badCursor.statusCode).toBe(400);
    expect(badCursor.body).toContain('The cursor is not one this list produced');
  });

  it('redelivers a delivered or failed delivery, and says why a pending one is not', async () => {
    const host = await createHost(world);
    const jar = await signedInJar(host);
    const { webhookId } = await createThroughPage(jar, 'https://hooks.example.com/redeliver');
    const page = `/settings/webhooks/${webhookId}`;
    await recordListingUpdates(host, 2);
    const [failing, pending] = await claimDueTo(host);
    const failure = { ok: false, statusCode: 500, error: 'HTTP 500', latencyMs: 17 } as const;
    await queue.recordAttempt(failing?.deliveryId ?? '', failure, world.clock.now(), 0);
    // Still failing a day later: given up.
    await queue.recordAttempt(
      failing?.deliveryId ?? '',
      failure,
      new Date(world.clock.now().getTime() + 25 * hourMs),
      0,
    );
    const log = (await browse(app, jar, { url: page })).body;
    expect(log).toContain(
      '<td>Failed<br><span class="hint">HTTP 500</span></td>\n<td>500<br><span class="hint">17 ms</span></td>\n<td>2</td>',
    );

    const redelivered = await submit(jar, page, `${page}/deliveries/${failing?.deliveryId}/redeliver`);
    expect(redelivered.statusCode).toBe(303);
    expect(redelivered.headers.location).toBe(`${page}?done=redelivered#log`);
    const after = await world.domain.webhookDeliveries.listDeliveries(ownerOf(host), { webhookId });
    expect(after.items.find((delivery) => delivery.id === failing?.deliveryId)).toMatchObject({
      status: 'pending',
      attempts: 0,
    });

    const refused = await submit(jar, page, `${page}/deliveries/${pending?.deliveryId}/redeliver`);
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('This delivery is still pending');
  });

  it('sends a test event that shows in the log', async () => {
    const host = await createHost(world);
    const jar = await signedInJar(host);
    const { webhookId } = await createThroughPage(jar, 'https://hooks.example.com/test');
    const page = `/settings/webhooks/${webhookId}`;
    const sent = await submit(jar, page, `${page}/test`);
    expect(sent.statusCode).toBe(303);
    expect(sent.headers.location).toBe(`${page}?done=test_sent#log`);
    const [test] = (await world.domain.webhookDeliveries.listDeliveries(ownerOf(host), { webhookId })).items;
    expect(test).toMatchObject({ event: 'webhook.test', status: 'pending' });
    const body = (await browse(app, jar, { url: `${page}?done=test_sent` })).body;
    expect(body).toContain('A webhook.test event is on its way');
    expect(body).toContain('<td><code>webhook.test</code></td>\n<td>Pending</td>');
  });

  it('replaces the signing secret, shows the new one once, and says how long the old one signs', async () => {
    const host = await createHost(world);
    const jar = await signedInJar(host);
    const { webhookId, secret: original } = await createThroughPage(jar, 'https://hooks.example.com/rotate');
    const page = `/settings/webhooks/${webhookId}`;

    const rotated = await submit(jar, page, `${page}/rotate-secret`, { overlap_hours: '24' });
    expect(rotated.statusCode).toBe(200);
    expect(rotated.headers['cache-control']).toBe('no-store');
    const replacement = secretInPage.exec(rotated.body)?.[1] ?? '';
    expect(replacement).toMatch(/^whsec_/);
    expect(replacement).not.toBe(original);
    expect(rotated.body).toContain('Your new signing secret');
    const until = new Date(world.clock.now().getTime() + 24 * hourMs).toISOString();
    expect(rotated.body).toContain(
      `keeps signing deliveries beside this one until <time datetime="${until}">`,
    );

    await recordListingUpdates(host, 1);
    const [due] = await claimDueTo(host);
    expect(due?.secrets).toEqual([replacement, original]);
    await queue.recordAttempt(
      due?.deliveryId ?? '',
      { ok: true, statusCode: 200, latencyMs: 3 },
      world.clock.now(),
      0,
    );

    const later = (await browse(app, jar, { url: page })).body;
    expect(later).not.toContain(replacement);
    expect(later).toContain(`still signs deliveries beside the current one until <time datetime="${until}">`);

    const atOnce = await submit(jar, page, `${page}/rotate-secret`, { overlap_hours: '0' });
    const third = secretInPage.exec(atOnce.body)?.[1] ?? '';
    expect(atOnce.body).toContain('The previous secret no longer signs deliveries.');
    await recordListingUpdates(host, 1);
    const [next] = await claimDueTo(host);
    expect(next?.secrets).toEqual([third]);

    const tooLong = await submit(jar, page, `${page}/rotate-secret`, { overlap_hours: '1000' });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.body).toContain('overlapHours');
    expect(tooLong.body).not.toMatch(secretInPage);
  });

  it('deletes a webhook only after the confirmation step', async () => {
    const host = await createHost(world);
    const jar = await signedInJar(host);
    const { webhookId } = await createThroughPage(jar, 'https://hooks.example.com/delete');
    const page = `/settings/webhooks/${webhookId}`;
    expect((await browse(app, jar, { url: page })).body).toContain(
      `<a href="${page}/delete">Delete this webhook…</a>`,
    );

    const confirm = await browse(app, jar, { url: `${page}/delete` });
    expect(confirm.body).toContain('Delete the webhook to https://hooks.example.com/delete?');
    expect(confirm.body).toContain(`<form method="post" action="${page}/delete">`);
    expect((await world.domain.webhooks.list(ownerOf(host), {})).items).toHaveLength(1);

    const deleted = await post(jar, `${page}/delete`, { csrf: csrfFrom(confirm.body) });
    expect(deleted.statusCode).toBe(303);
    expect(deleted.headers.location).toBe('/settings/webhooks?done=deleted');
    expect((await browse(app, jar, { url: '/settings/webhooks?done=deleted' })).body).toContain(
      'The webhook is deleted.',
    );
    expect((await world.domain.webhooks.list(ownerOf(host), {})).items).toEqual([]);
    expect((await browse(app, jar, { url: page })).statusCode).toBe(404);
  });

  describe('refusals', () => {
    let host: TestHost;
    let jar: CookieJar;
    let webhookId: string;
    let deliveryId: string;

    beforeAll(async () => {
      host = await createHost(world);
      jar = await signedInJar(host);
      ({ webhookId } = await createThroughPage(jar, 'https://hooks.example.com/refusals'));
      await recordListingUpdates(host, 1);
      const [due] = await claimDueTo(host);
      deliveryId = due?.deliveryId ?? '';
      await queue.recordAttempt(
        deliveryId,
        { ok: true, statusCode: 200, latencyMs: 9 },
        world.clock.now(),
        0,
      );
    });

    const writes = (id: string, delivery: string) =>
      [
        ['/settings/webhooks', { url: 'https://hooks.example.com/new', events: ['listing.updated'] }],
        [
          `/settings/webhooks/${id}`,
          { url: 'https://hooks.example.com/changed', events: ['review.created'] },
        ],
        [`/settings/webhooks/${id}/active`, { active: 'false' }],
        [`/settings/webhooks/${id}/test`, {}],
        [`/settings/webhooks/${id}/rotate-secret`, { overlap_hours: '24' }],
        [`/settings/webhooks/${id}/deliveries/${delivery}/redeliver`, {}],
        [`/settings/webhooks/${id}/delete`, {}],
      ] as const;

    async function state() {
      return {
        webhooks: (await world.domain.webhooks.list(ownerOf(host), {})).items,
        deliveries: (await world.domain.webhookDeliveries.listDeliveries(ownerOf(host), { webhookId })).items,
      };
    }

    it('refuses every post without a valid CSRF token or from another site, changing nothing', async () => {
      const before = await state();
      const csrf = csrfFrom((await browse(app, jar, { url: '/settings/webhooks' })).body);
      for (const [url, form] of writes(webhookId, deliveryId)) {
        const forged = await post(jar, url, { ...form, csrf: 'forged' });
        expect(forged.statusCode, url).toBe(403);
        expect(forged.body).toContain('This form has expired or was sent from another site');
        const crossSite = await app.inject({
          method: 'POST',
          url,
          headers: {
            cookie: jar.header(),
            'content-type': 'application/x-www-form-urlencoded',
            origin: 'https://evil.example',
          },
          payload: new URLSearchParams({ ...(form as Record<string, string>), csrf }).toString(),
        });
        expect(crossSite.statusCode, url).toBe(403);
      }
      expect(await state()).toEqual(before);
    });

    it('shows a viewer the webhooks but refuses their every change on the page, changing nothing', async () => {
      const email = `webhook.viewer.${kind}.${process.pid}@example.test`;
      await world.operator.addSubUser({
        accountId: host.accountId,
        email,
        firstName: 'Vera',
        lastName: 'Viewer',
        role: 'viewer',
        password: 'viewer password 1',
      });
      const viewerJar = await signedInJar({ email, password: 'viewer password 1' });
      expect((await browse(app, viewerJar, { url: '/settings/webhooks' })).body).toContain(
        'https://hooks.example.com/refusals',
      );
      expect((await browse(app, viewerJar, { url: `/settings/webhooks/${webhookId}` })).statusCode).toBe(200);
      const before = await state();
      for (const [url, form] of writes(webhookId, deliveryId)) {
        const refused = await submit(viewerJar, `/settings/webhooks/${webhookId}`, url, form);
        expect(refused.statusCode, url).toBe(403);
        expect(refused.body, url).toContain('Viewers can read this account but not change it.');
        expect(refused.body).toContain('role="alert"');
        expect(refused.body).not.toMatch(secretInPage);
      }
      expect(await state()).toEqual(before);
    });

    it('answers 404 for another account’s ids and for ids that could not exist, changing nothing', async () => {
      const stranger = await createHost(world);
      const strangerJar = await signedInJar(stranger);
      const before = await state();
      for (const url of [`/settings/webhooks/${webhookId}`, `/settings/webhooks/${webhookId}/delete`]) {
        const response = await browse(app, strangerJar, { url });
        expect(response.statusCode, url).toBe(404);
        expect(response.body).toContain(`No webhook with id ${webhookId}`);
        expect(response.body).not.toContain('hooks.example.com/refusals');
      }
      const { webhookId: theirs } = await createThroughPage(
        strangerJar,
        'https://hooks.example.com/stranger',
      );
      for (const [url, form] of writes(webhookId, deliveryId).slice(1)) {
        const refused = await submit(strangerJar, '/settings/webhooks', url, form);
        expect(refused.statusCode, url).toBe(404);
        expect(refused.body).toContain('Back to webhooks');
      }
      // Their own subscription in the path does not reach our delivery.
      const crossed = await submit(
        strangerJar,
        '/settings/webhooks',
        `/settings/webhooks/${theirs}/deliveries/${deliveryId}/redeliver`,
      );
      expect(crossed.statusCode).toBe(404);
      for (const url of ['/settings/webhooks/not%20an%20id', `/settings/webhooks/${'w'.repeat(65)}`]) {
        expect((await browse(app, jar, { url })).statusCode, url).toBe(404);
        expect((await submit(jar, '/settings/webhooks', `${url}/delete`)).statusCode, url).toBe(404);
      }
      expect(await state()).toEqual(before);
    });
  });
});
