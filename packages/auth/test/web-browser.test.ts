import { testDatabaseKinds } from '@innkeep/storage/testing';
import type { FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildPagesApp,
  createHost,
  openPagesWorld,
  type PagesWorld,
} from './support/account-pages-harness.ts';
import { launchChromium, watchForProblems } from './support/chromium.ts';

// A real browser sends what inject() does not: under Referrer-Policy no-referrer its form posts carry
// `Origin: null`, it enforces the CSP on our own stylesheet and forms, and it follows the 303s.
describe.each(testDatabaseKinds)('account pages in Chromium on %s', (kind) => {
  let world: PagesWorld;
  let app: FastifyInstance;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    world = await openPagesWorld(kind);
    app = await buildPagesApp(world, { secureCookies: false });
    origin = await app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await world?.close();
  });

  it('signs in, generates a token, and signs out without a script or a CSP violation', async () => {
    const host = await createHost(world);
    const page = await browser.newPage();
    // The wrong-password attempt answers 401 on purpose.
    const problems = watchForProblems(page, ({ url }) => url.pathname === '/login');
    try {
      await page.goto(`${origin}/settings`);
      expect(new URL(page.url()).pathname).toBe('/login');
      // The stylesheet loaded under the page's CSP.
      expect(await page.evaluate('getComputedStyle(document.querySelector("button")).borderRadius')).toBe(
        '6px',
      );

      await page.fill('#email', host.email);
      await page.fill('#password', 'not the password');
      await page.click('button:has-text("Sign in")');
      expect(await page.textContent('.error')).toBe('The email or password is wrong.');

      await page.fill('#password', host.password);
      await page.click('button:has-text("Sign in")');
      expect(page.url()).toBe(`${origin}/settings`);

      await page.click('button:has-text("Generate auth token")');
      const token = (await page.textContent('.token pre code')) ?? '';
      expect((await world.identity.authenticateAuthToken(token))?.userId).toBe(host.userId);

      await page.click('button:has-text("Sign out")');
      expect(page.url()).toBe(`${origin}/login?signed_out=1`);
      await page.goto(`${origin}/settings`);
      expect(new URL(page.url()).pathname).toBe('/login');
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
