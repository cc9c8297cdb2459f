import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

// Page-side code is written as expressions: this package's TypeScript has no DOM types to check it against.

/** The two screens every page must fit: a laptop, and a phone held upright. */
export const viewports = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

/** True when the page scrolls sideways. */
export async function overflows(page: Page): Promise<boolean> {
  return (await page.evaluate('document.documentElement.scrollWidth > window.innerWidth')) as boolean;
}

const elementsPastTheRight = `[...document.querySelectorAll('body *')]
  .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
  .map((element) => element.outerHTML.slice(0, 100))
  .slice(0, 5)`;

/** Up to five elements that reach past the right edge of the window: what to fix when a page overflows. */
export async function reachingPastTheRight(page: Page): Promise<string[]> {
  return (await page.evaluate(elementsPastTheRight)) as string[];
}

// Marks every shown control with its index and records, in the page, each element that takes focus: the walk
// then costs one round trip a Tab press rather than two, which matters on a loaded machine.
const markControlsAndRecordFocus = `(() => {
  const controls = [...document.querySelectorAll('a[href], button, select, input:not([type="hidden"]), textarea')]
    .filter((control) => control.getClientRects().length > 0);
  controls.forEach((control, index) => { control.dataset.control = String(index); });
  window.focusWalk = [];
  document.addEventListener('focusin', (event) => {
    window.focusWalk.push({ control: event.target.dataset?.control ?? '', text: event.target.textContent?.trim() ?? '' });
  });
  return controls.length;
})()`;

const walkAndControls = `({
  walk: window.focusWalk,
  controls: [...document.querySelectorAll('[data-control]')].map(
    (control) => [control.dataset.control, control.outerHTML.slice(0, 120)],
  ),
})`;

/**
 * Tabs through the whole of a freshly loaded page (nothing focused yet) and answers which of its shown
 * controls (links, buttons, fields) the keyboard never reached, and which element took the first Tab.
 */
export async function keyboardWalk(page: Page): Promise<{ first: string; unreached: string[] }> {
  const count = (await page.evaluate(markControlsAndRecordFocus)) as number;
  for (let press = 0; press < count + 2; press += 1) await page.keyboard.press('Tab');
  const { walk, controls } = (await page.evaluate(walkAndControls)) as {
    walk: { control: string; text: string }[];
    controls: [string, string][];
  };
  const reached = new Set(walk.map(({ control }) => control).filter((control) => control !== ''));
  const unreached = controls.filter(([control]) => !reached.has(control)).map(([, markup]) => markup);
  return { first: walk[0]?.text ?? '', unreached };
}

const axeScript = join(dirname(createRequire(import.meta.url).resolve('axe-core')), 'axe.min.js');

const runAxe = `axe.run(document, { resultTypes: ['violations'] }).then((result) =>
  result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => violation.id + ': ' + violation.nodes.map((node) => node.target.join(' ')).join(', ')),
)`;

/**
 * The serious and critical accessibility violations axe-core finds on the page as it stands, as
 * "rule: selectors" lines. Axe is injected as an inline script, which our CSP refuses: run this only in a
 * context made with `bypassCSP: true`.
 */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: axeScript });
  return (await page.evaluate(runAxe)) as string[];
}

/** A page of the site, and how to arrive at it from wherever the browser is. */
export interface SitePage {
  readonly name: string;
  /** The `href` of the navigation link marked as the current page; null on a page without navigation. */
  readonly current: string | null;
  open(page: Page): Promise<unknown>;
}

/**
 * Checks one page of the site in `page` (the CSP in force): it does not scroll sideways, its navigation marks
 * the right page, Tab reaches the skip link first and then every control; then with axe in `axePage`, whose
 * context bypasses the CSP, that nothing serious or critical is found.
 */
export async function checkSitePage(site: SitePage, page: Page, axePage: Page): Promise<void> {
  await site.open(page);
  if (await overflows(page))
    expect.fail(`${site.name} scrolls sideways: ${await reachingPastTheRight(page)}`);
  if (site.current !== null) {
    expect(await page.getAttribute('nav[aria-label="Site"] [aria-current="page"]', 'href')).toBe(
      site.current,
    );
  }
  const walk = await keyboardWalk(page);
  expect(walk.first, site.name).toBe('Skip to content');
  expect(walk.unreached, site.name).toEqual([]);
  await site.open(axePage);
  expect(await seriousAxeViolations(axePage), site.name).toEqual([]);
}
