import type { Actor } from '@innkeep/domain';
import { createCalendarImportQueue } from '@innkeep/storage';
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
import { checkSitePage, type SitePage, viewports } from './support/page-checks.ts';

// Long unbroken words are what push a phone's page sideways: a listing name, ids, URLs and an error without spaces.
const listingName = `Seaside${'LoftWithAVeryLongNameAndNoSpaces'.repeat(3)}`;
const listingId = 'lst_browser_listing';
const airbnb = 'cha_browser_airbnb';
const vrbo = `cha_browser_vrbo_${'v'.repeat(40)}`;
const importUrl = `https://www.airbnb.example/calendar/ical/${'9'.repeat(40)}.ics?s=${'f'.repeat(60)}`;
const longError = `HTTP 503 from ${'upstream'.repeat(20)}`;
const channelsPath = `/listings/${listingId}/channels`;

/** A listing of the host's linked to Airbnb and Vrbo, as the channel sync would have made it. */
async function insertListing(world: PagesWorld, host: TestHost): Promise<void> {
  await world.db
    .insertInto('listings')
    .values({
      id: listingId,
      account_id: host.accountId,
      name: listingName,
      property_type: 'apartment',
      address: '12 Water St',
      city: 'Portland',
      country_code: 'US',
      time_zone: 'America/New_York',
      currency: 'USD',
      bedrooms: 2,
      bathrooms: 1,
      max_guests: 4,
      base_price_minor: 10_000,
      min_price_minor: null,
      min_nights: 1,
      enabled: true,
    })
    .execute();
  await world.db
    .insertInto('channel_accounts')
    .values(
      [
        { id: airbnb, channel: 'airbnb', display_name: 'Airbnb' },
        { id: vrbo, channel: 'vrbo', display_name: 'Vrbo' },
      ].map((row) => ({ ...row, account_id: host.accountId, connection_type: 'ical', status: 'connected' })),
    )
    .execute();
  await world.db
    .insertInto('listing_channel_links')
    .values([
      { listing_id: listingId, channel_account_id: airbnb, external_listing_id: 'A'.repeat(60), url: null },
      { listing_id: listingId, channel_account_id: vrbo, external_listing_id: 'V-1', url: null },
    ])
    .execute();
}

// The listings pages in Chromium at a laptop's and a phone's width, with an import in error and a clash
// showing: nothing scrolls sideways, every control is reached by Tab after the skip link, axe finds nothing
// serious, the copy button works under the CSP, and the forms do what they say.
describe('listings pages in Chromium', () => {
  let world: PagesWorld;
  let app: FastifyInstance;
  let browser: Browser;
  let origin: string;
  let host: TestHost;
  let owner: Actor;

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
      listings: world.domain.listings,
    });
    origin = await app.listen({ host: '127.0.0.1', port: 0 });
    browser = await launchChromium();

    host = await createHost(world, { subscriptionStatus: 'active' });
    owner = { accountId: host.accountId, userId: host.userId, role: 'owner', via: 'web', clientId: null };
    await insertListing(world, host);
    // Vrbo's calendar: read once (one stay held, one clashing with a block), then failing.
    await world.domain.listings.setCalendarImportUrl(owner, {
      listingId,
      channelAccountId: vrbo,
      url: importUrl,
    });
    await world.domain.calendar.setAvailability(owner, {
      listingId,
      startDate: '2027-05-10',
      endDate: '2027-05-11',
      available: false,
    });
    const imports = createCalendarImportQueue({ db: world.db, clock: world.clock });
    const key = { listingId, channelAccountId: vrbo, url: importUrl };
    const stays = [
      { uid: 'held@vrbo', startDate: '2027-04-01', endDate: '2027-04-04', summary: 'Reserved' },
      { uid: `clash@vrbo-${'x'.repeat(50)}`, startDate: '2027-05-09', endDate: '2027-05-12', summary: null },
    ];
    await imports.recordFeed(
      key,
      stays,
      { etag: null, lastModified: null },
      world.clock.now(),
      world.clock.now(),
    );
    await imports.recordFailure(key, longError, world.clock.now(), world.clock.now());
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await world?.close();
  });

  const goto = (path: string) => (page: Page) => page.goto(`${origin}${path}`);

  const sitePages: readonly SitePage[] = [
    { name: 'listings', current: '/listings', open: goto('/listings') },
    { name: 'channel calendars', current: '/listings', open: goto(channelsPath) },
    {
      name: 'channel calendars with a refused URL',
      current: '/listings',
      open: async (page) => {
        await page.goto(`${origin}${channelsPath}`);
        // `type="url"` would stop the browser sending it: the server's own refusal is what is checked.
        await page.fill('#import-url-0', 'http://calendar.example/plain.ics');
        await page.click(`#channel-${airbnb} button:has-text("Import this calendar")`);
      },
    },
    { name: 'not found', current: null, open: goto('/listings/lst_gone/channels') },
  ];

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
        // The not-found page and the refused URL answer 404 and 400 on purpose.
        problems = watchForProblems(
          page,
          ({ url, status }) =>
            (status === 404 && url.pathname.includes('/lst_gone/')) ||
            (status === 400 && url.pathname.endsWith('/import')),
        );
        for (const signingIn of [page, axePage]) {
          await signingIn.goto(`${origin}/login?next=%2Flistings`);
          await signingIn.fill('#email', host.email);
          await signingIn.fill('#password', host.password);
          await signingIn.click('button:has-text("Sign in")');
          expect(signingIn.url()).toBe(`${origin}/listings`);
        }
      });

      afterAll(async () => {
        await axeContext?.close();
        await context?.close();
      });

      for (const site of sitePages) {
        it(`${site.name} fits, is reached by keyboard and passes axe`, async () => {
          await checkSitePage(site, page, axePage);
        });
      }

      it('shows the import in error and the clash in words', async () => {
        await page.goto(`${origin}${channelsPath}`);
        const section = (await page.textContent(`[id="channel-${vrbo}"]`)) ?? '';
        expect(section).toContain(`Error: ${longError} (last tried 2027-03-01 12:00:00 UTC)`);
        expect(section).toContain('Stays held1');
        expect(section).toContain('2027-05-09 to 2027-05-12 clashes with a block (2027-05-10 to 2027-05-12)');
        expect(section).toContain('so those nights were not imported');
        expect(await page.locator('.error').count()).toBe(0);
      });

      it('copies the export URL with the button our own script shows under the CSP', async () => {
        await page.goto(`${origin}${channelsPath}`);
        const url = ((await page.textContent('#export-url-0')) ?? '').trim();
        expect(url).toMatch(/^https:\/\/innkeep\.test\/ical\/[0-9a-f]{64}\.ics$/);
        await page.click(`#channel-${airbnb} button:has-text("Copy URL")`);
        await expect
          .poll(() => page.textContent('#export-url-0 + p.copy .copy-status'), { timeout: 10_000 })
          .toBe('Copied.');
        expect(await page.evaluate('navigator.clipboard.readText()')).toBe(url);
      });

      it('sets, and stops, an import, and replaces an export URL, through the forms', async () => {
        await page.goto(`${origin}${channelsPath}`);
        await page.fill('#import-url-0', 'https://calendar.example/airbnb.ics');
        await page.click(`#channel-${airbnb} button:has-text("Import this calendar")`);
        expect(page.url()).toBe(`${origin}${channelsPath}?done=import_saved#channel-${airbnb}`);
        expect(await page.textContent(`#channel-${airbnb}`)).toContain('StatusNot fetched yet');
        await page.click(`#channel-${airbnb} button:has-text("Stop importing")`);
        expect(await page.textContent('.notice')).toContain('free again');
        const link = async () =>
          (await world.domain.listings.get(owner, listingId)).channels.find(
            (channel) => channel.channelAccountId === airbnb,
          );
        expect((await link())?.calendarImport).toBeNull();

        const before = (await link())?.calendarExportUrl;
        await page.check(`#channel-${airbnb} input[name="confirm"]`);
        await page.click(`#channel-${airbnb} button:has-text("Replace this URL")`);
        expect(await page.textContent('.notice')).toContain('the old one no longer works');
        const after = (await link())?.calendarExportUrl ?? '';
        expect(after).not.toBe(before);
        expect(await page.textContent('#export-url-0')).toBe(new URL(after, testBaseUrl).href);
      });

      it('saw no CSP violation, page error or unexpected error response', () => {
        expect(problems).toEqual([]);
      });
    });
  }
});
