import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Debian's Chromium, which CI installs (`apt-get install chromium`). */
export const chromiumPath = '/usr/bin/chromium';

/**
 * Launches headless Chromium for tests that need a real browser. Throws — so the test fails, never skips —
 * when Chromium is missing. Background networking is off so the browser talks only to the test servers.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `No Chromium at ${chromiumPath}: the browser tests need it. Install it (apt-get install chromium).`,
    );
  }
  return chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/**
 * Records what must not happen on a page: a Content-Security-Policy violation (our pages run no script,
 * so Chromium reports them only on the console), an uncaught page error, or an error response. Responses
 * for which `expected` answers true (a wrong password's 401, say) are left out; the favicon probe always is.
 * Returns the list, which fills as the page is used.
 */
export function watchForProblems(
  page: Page,
  expected: (response: { url: URL; status: number }) => boolean = () => false,
): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('response', (response) => {
    const url = new URL(response.url());
    const status = response.status();
    if (status >= 400 && url.pathname !== '/favicon.ico' && !expected({ url, status })) {
      problems.push(`${status} ${response.request().method()} ${url.pathname}`);
    }
  });
  return problems;
}
