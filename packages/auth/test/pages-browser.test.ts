import type { Actor } from '@innkeep/domain';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Browser, BrowserContext, Page } from 'playwright-core';
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
import { checkSitePage, overflows, type SitePage, viewports } from './support/page-checks.ts';

// Long unbroken words are what push a phone's page sideways: an app named with no spaces, long ids and URLs.
const appName = `Assistant${'WithAVeryLongNameAndNoSpaces'.repeat(3)}`;
const webClientId = `client_web_${'x'.repeat(60)}`;
const desktopClientId = `client_desktop_${'y'.repeat(60)}`;

/** Inserts a registered client and one grant of it, as oidc-provider stores them. */
async function connect(world: PagesWorld, host: TestHost, client: { id: string; redirectUri: string }) {
  const row = { uid: null, user_code: null, grant_id: null, consumed_at: null, last_used_at: null };
  await world.db
    .insertInto('oidc_model')
    .values([
      {
        ...row,
        model: 'Client',
        id: client.id,
        payload: JSON.stringify({
          client_id: client.id,
          client_name: appName,
          redirect_uris: [client.redirectUri],
        }),
        account_id: null,
        client_id: null,
        expires_at: null,
      },
      {
        ...row,
        model: 'Grant',
        id: `grant_${client.id.slice(0, 20)}`,
        payload: JSON.stringify({
          kind: 'Grant',
          accountId: host.userId,
          clientId: client.id,
          resources: { [`${testBaseUrl}/mcp`]: 'listings:read reservations:read messages:write' },
        }),
        account_id: host.userId,
        client_id: client.id,
        expires_at: null,
      },
    ])
    .execute();
}

// Every page a host sees, at a laptop's and a phone's width: nothing scrolls sideways, every control is
// reached by Tab after the skip link, the navigation marks where one is, and axe finds nothing serious.
// One browser and one database for the file; each width reuses one page for every page of the site.
describe('every page in Chromium', () => {
  let world: PagesWorld;
  let app: FastifyInstance;
  let browser: Browser;
  let origin: string;
  let host: TestHost;
  let webhookId: string;

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
    // The same app connected twice: from a web app and from a desktop, each with its own registration.
    await connect(world, host, {
      id: webClientId,
      redirectUri: `https://assistant.example/${'oauth/'.repeat(12)}callback`,
    });
    await connect(world, host, { id: desktopClientId, redirectUri: 'http://127.0.0.1:33418/callback' });
    const actor: Actor = {
      accountId: host.accountId,
      userId: host.userId,
      role: 'owner',
      via: 'mcp',
      clientId: webClientId,
    };
    await world.identity.updateProfile(actor, { lastName: 'Hostwithaverylonglastnamethatdoesnotbreak' });
    const webhook = await world.domain.webhooks.create(actor, {
      url: `https://hooks.example.com/${'deep/'.repeat(30)}innkeep`,
      events: ['reservation.created'],
    });
    webhookId = webhook.id;
    await world.domain.webhookDeliveries.sendTest(actor, { webhookId });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await world?.close();
  });

  const goto = (path: string) => (page: Page) => page.goto(`${origin}${path}`);

  /** Generates a first token from settings, or replaces the current one through its confirmation. */
  async function issueToken(page: Page): Promise<void> {
    await page.goto(`${origin}/settings/auth-token/replace`);
    const button =
      new URL(page.url()).pathname === '/settings' ? 'Generate auth token' : 'Replace auth token';
    await page.click(`button:has-text("${button}")`);
  }

  const signedInPages: readonly SitePage[] = [
    { name: 'dashboard', current: '/', open: goto('/') },
    { name: 'settings', current: '/settings', open: goto('/settings') },
    { name: 'settings with a new auth token', current: '/settings', open: issueToken },
    { name: 'replace auth token', current: '/settings', open: goto('/settings/auth-token/replace') },
    { name: 'connected assistants', current: '/settings/apps', open: goto('/settings/apps') },
    { name: 'webhooks', current: '/settings/webhooks', open: goto('/settings/webhooks') },
    {
      name: 'one webhook',
      current: '/settings/webhooks',
      open: (page) => goto(`/settings/webhooks/${webhookId}`)(page),
    },
    {
      name: 'delete a webhook',
      current: '/settings/webhooks',
      open: (page) => goto(`/settings/webhooks/${webhookId}/delete`)(page),
    },
    { name: 'not found', current: null, open: goto('/settings/webhooks/whk_gone') },
  ];

  // One describe a width, its steps in order (vitest runs a file's tests one after another): each page is a
  // test of its own, so a slow machine spends its time budget a page at a time, not on the whole site.
  for (const viewport of viewports) {
    describe(`at ${viewport.width}x${viewport.height}`, () => {
      let context: BrowserContext;
      let page: Page;
      let axeContext: BrowserContext;
      let axePage: Page;
      let problems: string[];

      beforeAll(async () => {
        context = await browser.newContext({ viewport, permissions: ['clipboard-read', 'clipboard-write'] });
        page = await context.newPage();
        axeContext = await browser.newContext({ viewport, bypassCSP: true });
        axePage = await axeContext.newPage();
        // The not-found page answers 404 on purpose.
        problems = watchForProblems(page, ({ url }) => url.pathname.endsWith('/whk_gone'));
      });

      afterAll(async () => {
        await axeContext?.close();
        await context?.close();
      });

      const signedOutPages: readonly SitePage[] = [
        { name: 'welcome', current: '/', open: goto('/') },
        { name: 'sign in', current: '/login?next=%2F', open: goto('/login') },
      ];
      for (const site of signedOutPages) {
        it(`${site.name} (signed out) fits, is reached by keyboard and passes axe`, async () => {
          await checkSitePage(site, page, axePage);
        });
      }

      it('signs in', async () => {
        for (const signingIn of [page, axePage]) {
          await signingIn.goto(`${origin}/login?next=%2F`);
          await signingIn.fill('#email', host.email);
          await signingIn.fill('#password', host.password);
          await signingIn.click('button:has-text("Sign in")');
          expect(signingIn.url()).toBe(`${origin}/`);
        }
      });

      for (const site of signedInPages) {
        it(`${site.name} fits, is reached by keyboard and passes axe`, async () => {
          await checkSitePage(site, page, axePage);
        });
      }

      it('tells two grants of one app apart', async () => {
        await page.goto(`${origin}/settings/apps`);
        const grants = page.locator('ul.grants > li');
        expect(await grants.count()).toBe(2);
        expect(await grants.nth(0).textContent()).toContain('http://127.0.0.1:33418/callback');
        expect(await grants.nth(1).textContent()).toContain('https://assistant.example/oauth/');
        expect(await page.isVisible('ul.grants > li:nth-child(2) button:has-text("Disconnect")')).toBe(true);
      });

      it('copies the token with the button our own script shows under the CSP', async () => {
        await issueToken(page);
        const token = ((await page.textContent('#new-auth-token')) ?? '').trim();
        await page.click('button:has-text("Copy auth token")');
        // The button writes to the clipboard asynchronously, then says so.
        await expect
          .poll(() => page.textContent('#new-auth-token + p.copy .copy-status'), { timeout: 10_000 })
          .toBe('Copied.');
        expect(await page.evaluate('navigator.clipboard.readText()')).toBe(token);
        expect((await world.identity.authenticateAuthToken(token))?.userId).toBe(host.userId);
      });

      it('saw no CSP violation, page error or unexpected error response', () => {
        expect(problems).toEqual([]);
      });
    });
  }

  it('shows the new token without scripts, with no copy button that cannot work', async () => {
    const context = await browser.newContext({ viewport: viewports[1], javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${origin}/login`);
      await page.fill('#email', host.email);
      await page.fill('#password', host.password);
      await page.click('button:has-text("Sign in")');
      await issueToken(page);
      expect(await page.textContent('#new-auth-token')).toMatch(/^ik_at_/);
      expect(await page.isVisible('button:has-text("Copy auth token")')).toBe(false);
      expect(await overflows(page)).toBe(false);
    } finally {
      await context.close();
    }
  });
});
