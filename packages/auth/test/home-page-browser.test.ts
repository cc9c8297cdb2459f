import type { Actor } from '@innkeep/domain';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountPages } from '../src/web/account-pages.ts';
import {
  createHost,
  openPagesWorld,
  type PagesWorld,
  type TestHost,
  testBaseUrl,
  testSecretKeys,
} from './support/account-pages-harness.ts';
import { launchChromium, watchForProblems } from './support/chromium.ts';
import { keyboardWalk, overflows, viewports } from './support/page-checks.ts';

// Long unbroken words are what push a phone's page sideways: a client named with no spaces, long ids.
const longClientId = `client_${'x'.repeat(90)}`;
const longClientName = `Assistant${'WithAVeryLongNameAndNoSpaces'.repeat(4)}`;

// One database kind: what differs between kinds is covered by home-page.test.ts; this is the browser's view.
describe('home page in Chromium', () => {
  let world: PagesWorld;
  let app: FastifyInstance;
  let browser: Browser;
  let origin: string;
  let host: TestHost;

  beforeAll(async () => {
    world = await openPagesWorld('postgres');
    app = Fastify({ logger: false });
    await app.register(accountPages, {
      db: world.db,
      identity: world.identity,
      clock: world.clock,
      baseUrl: testBaseUrl,
      secretKeys: testSecretKeys,
      secureCookies: false,
      webhooks: { subscriptions: world.domain.webhooks, deliveries: world.domain.webhookDeliveries },
      home: { audit: world.domain.audit },
    });
    origin = await app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchChromium();

    host = await createHost(world, { subscriptionStatus: 'active' });
    await world.db
      .insertInto('oidc_model')
      .values([
        {
          model: 'Client',
          id: longClientId,
          payload: JSON.stringify({ client_id: longClientId, client_name: longClientName }),
          uid: null,
          user_code: null,
          grant_id: null,
          account_id: null,
          client_id: null,
          expires_at: null,
          consumed_at: null,
          last_used_at: null,
        },
        {
          model: 'Grant',
          id: 'grant_browser_home',
          payload: JSON.stringify({ kind: 'Grant', accountId: host.userId, clientId: longClientId }),
          uid: null,
          user_code: null,
          grant_id: null,
          account_id: host.userId,
          client_id: longClientId,
          expires_at: null,
          consumed_at: null,
          last_used_at: null,
        },
      ])
      .execute();
    const actor: Actor = {
      accountId: host.accountId,
      userId: host.userId,
      role: 'owner',
      via: 'mcp',
      clientId: longClientId,
    };
    await world.identity.updateProfile(actor, { lastName: 'Hostwithaverylonglastnamethatdoesnotbreak' });
    await world.domain.webhooks.create(actor, {
      url: `https://hooks.example.com/${'deep/'.repeat(30)}innkeep`,
      events: ['reservation.created'],
    });
    // An unknown client, shown by its long id.
    await world.identity.updateProfile(
      { ...actor, via: 'rest', clientId: `${longClientId}_gone` },
      {
        firstName: 'Hannah',
      },
    );
    for (let count = 0; count < 30; count += 1) {
      await world.identity.updateProfile(
        { ...actor, via: 'web', clientId: null },
        { firstName: `H${count}` },
      );
    }
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await world?.close();
  });

  for (const viewport of viewports) {
    it(`welcomes someone signed out at ${viewport.width}x${viewport.height}`, async () => {
      const page = await browser.newPage({ viewport });
      const problems = watchForProblems(page);
      try {
        await page.goto(`${origin}/`);
        expect(await page.textContent('h1')).toBe('Innkeep');
        expect(await page.textContent('.copyable code')).toBe(`${testBaseUrl}/mcp`);
        expect(await overflows(page)).toBe(false);
        const walk = await keyboardWalk(page);
        expect(walk.first).toBe('Skip to content');
        expect(walk.unreached).toEqual([]);
        expect(await page.getAttribute('nav[aria-label="Site"] [aria-current="page"]', 'href')).toBe('/');

        await page.click('nav a:has-text("Sign in")');
        await page.fill('#email', host.email);
        await page.fill('#password', host.password);
        await page.click('button:has-text("Sign in")');
        expect(page.url()).toBe(`${origin}/`);
        expect(await page.textContent('h1')).toContain('Seaside Stays');
        expect(problems).toEqual([]);
      } finally {
        await page.close();
      }
    });

    it(`shows the dashboard, filtered and paged, by keyboard at ${viewport.width}x${viewport.height}`, async () => {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      const problems = watchForProblems(page);
      try {
        await page.goto(`${origin}/login?next=%2F`);
        await page.fill('#email', host.email);
        await page.fill('#password', host.password);
        await page.click('button:has-text("Sign in")');
        expect(page.url()).toBe(`${origin}/`);
        expect(await page.getAttribute('nav[aria-label="Site"] [aria-current="page"]', 'href')).toBe('/');
        expect(await page.textContent('#apps')).toContain(longClientName);
        expect(await page.locator('ol.activity > li').count()).toBe(25);
        expect(await overflows(page)).toBe(false);
        const walk = await keyboardWalk(page);
        expect(walk.first).toBe('Skip to content');
        expect(walk.unreached).toEqual([]);

        // The skip link lands on the content.
        await page.goto(`${origin}/`);
        await page.keyboard.press('Tab');
        await page.keyboard.press('Enter');
        expect(await page.evaluate('document.activeElement.id')).toBe('main');

        // Filter by the assistant, from the keyboard: its two entries, named.
        await page.focus('#app');
        await page.selectOption('#app', longClientId);
        await page.focus('#kind');
        await page.keyboard.press('Tab');
        await page.keyboard.press('Enter');
        await page.waitForURL(/app=/);
        const entries = page.locator('ol.activity > li');
        expect(await entries.count()).toBe(2);
        expect(await entries.nth(0).textContent()).toContain(`through ${longClientName}, an assistant (MCP)`);
        expect(await overflows(page)).toBe(false);

        // The webhook entry opens the webhook's page.
        await page.click('ol.activity a[href^="/settings/webhooks/"]');
        expect(new URL(page.url()).pathname).toMatch(/^\/settings\/webhooks\/whk_/);

        // Older entries, unfiltered.
        await page.goto(`${origin}/`);
        await page.click('a:has-text("Older entries")');
        expect(await page.locator('ol.activity > li').count()).toBeGreaterThan(0);
        expect(await page.isVisible('a:has-text("Newest entries")')).toBe(true);
        expect(await overflows(page)).toBe(false);
        expect((await keyboardWalk(page)).unreached).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
