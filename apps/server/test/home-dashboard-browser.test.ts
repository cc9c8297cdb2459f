import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { systemClock } from '@innkeep/domain';
import type { DatabaseHandle } from '@innkeep/storage';
import type { FastifyInstance } from 'fastify';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { openOwnerDatabase, testAuthDeps, testOwner } from './support/app-deps.ts';
import { messageRuleMadeByAssistant } from './support/assistant-change.ts';
import { freePort } from './support/processes.ts';

// Debian's Chromium, which CI installs (`apt-get install chromium`).
const chromiumPath = '/usr/bin/chromium';
const axeScript = join(dirname(createRequire(import.meta.url).resolve('axe-core')), 'axe.min.js');
const assistantName = 'Claude Desktop';

const viewports = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

// Page-side code is written as expressions: this app's TypeScript has no DOM types to check it against.
const shownControls = `[...document.querySelectorAll('a[href], button, select, input:not([type="hidden"])')]
  .filter((control) => control.getClientRects().length > 0)`;
const markFocused = `(() => {
  document.activeElement.dataset.reached = 'yes';
  return document.activeElement.textContent.trim();
})()`;

/**
 * Tabs through the freshly loaded page (nothing focused yet) and answers the text of the element the first
 * Tab focused and how many of the shown controls the keyboard never reached.
 */
async function keyboardWalk(page: Page): Promise<{ first: string; unreached: number }> {
  const count = (await page.evaluate(`${shownControls}.length`)) as number;
  let first = '';
  for (let press = 0; press < count + 2; press += 1) {
    await page.keyboard.press('Tab');
    const text = (await page.evaluate(markFocused)) as string;
    if (press === 0) first = text;
  }
  const unreached = await page.evaluate(
    `${shownControls}.filter((control) => control.dataset.reached !== 'yes').length`,
  );
  return { first, unreached: unreached as number };
}

// The path a host follows to answer "what did my assistant do?", in a real browser on a laptop and a
// phone: an assistant connects over OAuth and changes something through /mcp, and the host's dashboard
// names the assistant beside the change.
describe('the dashboard in Chromium', () => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let baseUrl: string;
  let browser: Browser;
  let ruleId: string;

  beforeAll(async () => {
    if (!existsSync(chromiumPath)) {
      throw new Error(
        `No Chromium at ${chromiumPath}: this test needs it. Install it (apt-get install chromium).`,
      );
    }
    database = await openOwnerDatabase();
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    app = buildApp({ ...testAuthDeps, baseUrl, database, clock: systemClock, logLevel: 'silent' });
    await app.listen({ port, host: '127.0.0.1' });
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });

    ({ ruleId } = await messageRuleMadeByAssistant(baseUrl, assistantName));
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await database?.close();
  });

  async function signIn(page: Page): Promise<void> {
    await page.goto(`${baseUrl}/login?next=%2F`);
    await page.fill('#email', testOwner.email);
    await page.fill('#password', testOwner.password);
    await page.click('button:has-text("Sign in")');
    expect(page.url()).toBe(`${baseUrl}/`);
  }

  for (const viewport of viewports) {
    it(`shows the change with the assistant's name at ${viewport.width}x${viewport.height}`, async () => {
      const context = await browser.newContext({ viewport });
      // Axe is injected as an inline script, which the CSP refuses: only its own context bypasses it.
      const axeContext = await browser.newContext({ viewport, bypassCSP: true });
      const page = await context.newPage();
      const cspViolations: string[] = [];
      page.on('console', (message) => {
        if (message.text().includes('Content Security Policy')) cspViolations.push(message.text());
      });
      try {
        await signIn(page);
        const newest = page.locator('ol.activity > li').first();
        expect(await newest.textContent()).toContain(`message_rule.create · Message rule ${ruleId}`);
        expect(await newest.textContent()).toContain(`through ${assistantName}, an assistant (MCP)`);
        expect(await page.textContent('#apps')).toContain(assistantName);
        expect(await page.getAttribute('nav[aria-label="Site"] [aria-current="page"]', 'href')).toBe('/');
        expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);

        await page.goto(`${baseUrl}/`);
        const walk = await keyboardWalk(page);
        expect(walk.first).toBe('Skip to content');
        expect(walk.unreached).toBe(0);
        expect(cspViolations).toEqual([]);

        const axePage = await axeContext.newPage();
        await signIn(axePage);
        await axePage.addScriptTag({ path: axeScript });
        const serious = await axePage.evaluate(
          `axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations
            .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
            .map((violation) => violation.id))`,
        );
        expect(serious).toEqual([]);
      } finally {
        await axeContext.close();
        await context.close();
      }
    });
  }
});
