import { randomUUID } from 'node:crypto';
import type {
  Actor,
  CalendarImport,
  CalendarImportConflict,
  CalendarImportQueue,
  ListingChannelLink,
} from '@innkeep/domain';
import { createCalendarImportQueue } from '@innkeep/storage';
import { testDatabaseKinds } from '@innkeep/storage/testing';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountPages } from '../src/web/account-pages.ts';
import { renderListingChannelsPage } from '../src/web/listing-views.ts';
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
  testBaseUrl,
  testSecretKeys,
} from './support/account-pages-harness.ts';

const hostileName = 'Loft <b>bold</b> & "quoted"';
const hostileNameEscaped = 'Loft &lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot;';
const importUrl = 'https://www.airbnb.example/calendar/ical/123.ics?s=abc';
const exportUrlPattern = /<p class="copyable" id="export-url-0"><code>([^<]+)<\/code><\/p>/;

/** A listing of the host's, linked to an Airbnb and a Vrbo channel account. */
interface TestListing {
  readonly listingId: string;
  readonly airbnb: string;
  readonly vrbo: string;
}

function ownerOf(host: TestHost): Actor {
  return { accountId: host.accountId, userId: host.userId, role: 'owner', via: 'web', clientId: null };
}

/** The account pages with the listings pages, over `world`'s domain (export URLs whole, under the base URL). */
async function buildListingPagesApp(world: PagesWorld): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  await app.register(accountPages, {
    db: world.db,
    identity: world.identity,
    clock: world.clock,
    baseUrl: testBaseUrl,
    secretKeys: testSecretKeys,
    listings: world.domain.listings,
  });
  await app.ready();
  return app;
}

describe.each(testDatabaseKinds)('listings pages on %s', (kind) => {
  let world: PagesWorld;
  let app: FastifyInstance;
  let imports: CalendarImportQueue;

  beforeAll(async () => {
    world = await openPagesWorld(kind);
    app = await buildListingPagesApp(world);
    imports = createCalendarImportQueue({ db: world.db, clock: world.clock });
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await world?.close();
  });

  /** Inserts a listing of the host's with two channel links, as the channel sync would. */
  async function createListing(
    host: TestHost,
    overrides: { name?: string; enabled?: boolean } = {},
  ): Promise<TestListing> {
    const suffix = randomUUID().replaceAll('-', '').slice(0, 16);
    const listing = { listingId: `lst_${suffix}`, airbnb: `cha_a${suffix}`, vrbo: `cha_v${suffix}` };
    await world.db
      .insertInto('listings')
      .values({
        id: listing.listingId,
        account_id: host.accountId,
        name: overrides.name ?? 'Harbor Loft',
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
        enabled: overrides.enabled ?? true,
      })
      .execute();
    await world.db
      .insertInto('channel_accounts')
      .values(
        [
          { id: listing.airbnb, account_id: host.accountId, channel: 'airbnb', display_name: 'Airbnb' },
          { id: listing.vrbo, account_id: host.accountId, channel: 'vrbo', display_name: 'Vrbo' },
        ].map((row) => ({ ...row, connection_type: 'ical', status: 'connected' })),
      )
      .execute();
    await world.db
      .insertInto('listing_channel_links')
      .values([
        {
          listing_id: listing.listingId,
          channel_account_id: listing.airbnb,
          external_listing_id: 'A-1',
          url: null,
        },
        {
          listing_id: listing.listingId,
          channel_account_id: listing.vrbo,
          external_listing_id: 'V-1',
          url: null,
        },
      ])
      .execute();
    return listing;
  }

  async function linkOf(
    host: TestHost,
    listingId: string,
    channelAccountId: string,
  ): Promise<ListingChannelLink> {
    const listing = await world.domain.listings.get(ownerOf(host), listingId);
    const link = listing.channels.find((channel) => channel.channelAccountId === channelAccountId);
    if (link === undefined) throw new Error(`no link to ${channelAccountId}`);
    return link;
  }

  async function signedInJar(credentials: { email: string; password: string }): Promise<CookieJar> {
    const jar = new CookieJar();
    const response = await signIn(app, jar, credentials);
    expect(response.statusCode).toBe(303);
    return jar;
  }

  /** Opens `pageUrl` and posts `form` to `action` with the page's CSRF token, as a person would. */
  async function submit(
    jar: CookieJar,
    pageUrl: string,
    action: string,
    form: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    const page = await browse(app, jar, { url: pageUrl });
    return browse(app, jar, { url: action, form: { ...form, csrf: csrfFrom(page.body) } });
  }

  const channelsPath = (listingId: string) => `/listings/${listingId}/channels`;
  const linkPath = (listingId: string, channelAccountId: string) =>
    `${channelsPath(listingId)}/${channelAccountId}`;

  it('sends people who are not signed in to sign-in, coming back afterwards', async () => {
    const list = await browse(app, new CookieJar(), { url: '/listings' });
    expect(list.statusCode).toBe(303);
    expect(list.headers.location).toBe('/login?next=%2Flistings');
    const channels = await browse(app, new CookieJar(), { url: '/listings/lst_x/channels' });
    expect(channels.headers.location).toBe(`/login?next=${encodeURIComponent('/listings/lst_x/channels')}`);
  });

  it('links to the listings in the navigation only when the server serves them', async () => {
    const host = await createHost(world);
    const jar = await signedInJar(host);
    const settings = (await browse(app, jar, { url: '/settings' })).body;
    expect(settings).toContain('<a href="/listings">Listings</a>');
    const list = (await browse(app, jar, { url: '/listings' })).body;
    expect(list).toContain('<a href="/listings" aria-current="page">Listings</a>');

    const without = await buildPagesApp(world);
    try {
      const otherJar = new CookieJar();
      await signIn(without, otherJar, host);
      expect((await browse(without, otherJar, { url: '/settings' })).body).not.toContain('/listings');
      expect((await browse(without, otherJar, { url: '/listings' })).statusCode).toBe(404);
    } finally {
      await without.close();
    }
  });

  it('lists the account’s listings, escaping their names, each linking to its channel calendars', async () => {
    const host = await createHost(world);
    const jar = await signedInJar(host);
    expect((await browse(app, jar, { url: '/listings' })).body).toContain(
      'This account has no listings yet.',
    );
    const hostile = await createListing(host, { name: hostileName });
    const disabled = await createListing(host, { name: 'Quiet Cabin', enabled: false });
    const stranger = await createListing(await createHost(world), { name: 'Not Yours' });

    const list = await browse(app, jar, { url: '/listings' });
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain(
      `<a href="/listings/${hostile.listingId}/channels">${hostileNameEscaped}</a>`,
    );
    expect(list.body).toContain(`<a href="/listings/${disabled.listingId}/channels">Quiet Cabin</a>`);
    expect(list.body).toContain('<span class="status-good">Enabled</span>');
    expect(list.body).toContain('<span class="status-bad">Disabled</span>');
    expect(list.body).toContain('<td class="wrap">Portland</td>');
    expect(list.body).not.toContain('<b>bold</b>');
    expect(list.body).not.toContain('Not Yours');
    expect(list.body).not.toContain(stranger.listingId);

    const channels = await browse(app, jar, { url: channelsPath(hostile.listingId) });
    expect(channels.statusCode).toBe(200);
    expect(channels.body).toContain(`<title>Channel calendars of ${hostileNameEscaped} · Innkeep</title>`);
    expect(channels.body).toContain(`<h1 class="wrap">Channel calendars of ${hostileNameEscaped}</h1>`);
    expect(channels.body).not.toContain('<b>bold</b>');
  });

  it('pages through many listings with the domain’s cursor', async () => {
    const host = await createHost(world);
    const jar = await signedInJar(host);
    for (let index = 0; index < 51; index += 1) {
      await createListing(host, { name: `Listing ${String(index).padStart(2, '0')}` });
    }
    const first = (await browse(app, jar, { url: '/listings' })).body;
    expect(first.match(/<tr>\n<td/g)).toHaveLength(50);
    expect(first).not.toContain('Listing 50');
    const next = /<a href="(\/listings\?cursor=[^"]+)">Next listings<\/a>/.exec(first)?.[1] ?? '';
    expect(next).not.toBe('');
    const second = (await browse(app, jar, { url: next.replaceAll('&amp;', '&') })).body;
    expect(second).toContain('Listing 50');
    expect(second.match(/<tr>\n<td/g)).toHaveLength(1);
    expect(second).toContain('<a href="/listings">First listings</a>');
    expect(second).not.toContain('Next listings');
  });

  it('shows each channel’s export URL to copy, and the forms to replace it and to import', async () => {
    const host = await createHost(world);
    const jar = await signedInJar(host);
    const listing = await createListing(host);
    const airbnb = await linkOf(host, listing.listingId, listing.airbnb);
    const vrbo = await linkOf(host, listing.listingId, listing.vrbo);
    // This domain was built without the public address: its URLs are paths, which the page completes.
    expect(airbnb.calendarExportUrl).toMatch(/^\/ical\/[0-9a-f]{64}\.ics$/);

    const page = (await browse(app, jar, { url: channelsPath(listing.listingId) })).body;
    const airbnbSection = page.slice(
      page.indexOf(`id="channel-${listing.airbnb}"`),
      page.indexOf(`id="channel-${listing.vrbo}"`),
    );
    const vrboSection = page.slice(page.indexOf(`id="channel-${listing.vrbo}"`));
    expect(airbnbSection).toContain('<h2 id="channel-heading-0">Airbnb</h2>');
    expect(airbnbSection).toContain(`<dt>Channel account</dt><dd><code>${listing.airbnb}</code></dd>`);
    expect(airbnbSection).toContain('<dt>Listing there</dt><dd><code>A-1</code></dd>');
    expect(exportUrlPattern.exec(airbnbSection)?.[1]).toBe(`${testBaseUrl}${airbnb.calendarExportUrl}`);
    expect(airbnbSection).toContain('data-copy="export-url-0" hidden>Copy URL</button>');
    expect(airbnbSection).toContain('Paste this URL into Airbnb’s calendar import');
    expect(airbnbSection).toContain('no guest names or details');
    expect(airbnbSection).toContain(`action="${linkPath(listing.listingId, listing.airbnb)}/export-url"`);
    expect(airbnbSection).toContain('<button class="secondary" type="submit">Replace this URL</button>');
    expect(airbnbSection).toContain('Innkeep does not read Airbnb’s calendar of this listing yet');
    expect(airbnbSection).toContain(
      '<input id="import-url-0" name="url" type="url" required maxlength="2000" placeholder="https://…/calendar.ics" value="">',
    );
    // Nothing to stop before there is an import.
    expect(airbnbSection).not.toContain('Stop importing');
    expect(vrboSection).toContain('<h2 id="channel-heading-1">Vrbo</h2>');
    expect(vrboSection).toContain(`<code>${testBaseUrl}${vrbo.calendarExportUrl}</code>`);
    expect(vrboSection).toContain('id="import-url-1"');
    // The copy buttons' script, the only one, is loaded.
    expect(page).toContain('<script src="/assets/innkeep.js" defer></script>');
  });

  it('sets an import URL, shows it pending, then how its reads went, and stops it freeing the nights', async () => {
    const host = await createHost(world);
    const jar = await signedInJar(host);
    const listing = await createListing(host);
    const page = channelsPath(listing.listingId);

    const saved = await submit(jar, page, `${linkPath(listing.listingId, listing.airbnb)}/import`, {
      url: ` ${importUrl} `,
    });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe(`${page}?done=import_saved#channel-${listing.airbnb}`);
    expect((await linkOf(host, listing.listingId, listing.airbnb)).calendarImport).toMatchObject({
      url: importUrl,
      status: 'pending',
    });
    const pending = (await browse(app, jar, { url: saved.headers.location as string })).body;
    expect(pending).toContain('The channel’s calendar URL is saved.');
    const section = pending.slice(pending.indexOf(`id="channel-${listing.airbnb}"`));
    expect(section).toContain(`<dt>URL</dt><dd><code>${importUrl.replace('&', '&amp;')}</code></dd>`);
    expect(section).toContain('<dt>Status</dt><dd>Not fetched yet</dd>');
    expect(section).toContain('<dt>Stays held</dt><dd>0</dd>');
    expect(section).toContain(`value="${importUrl}"`);
    expect(section).toContain('<button class="secondary" type="submit">Stop importing</button>');
    expect(section).toContain('Stopping frees the nights still to come that this calendar holds here');

    // A read: one stay, now held.
    const key = { listingId: listing.listingId, channelAccountId: listing.airbnb, url: importUrl };
    const stays = [
      { uid: 'stay-1@airbnb', startDate: '2027-04-01', endDate: '2027-04-04', summary: 'Reserved' },
    ];
    const statusesOfHeldNights = async () =>
      (
        await world.domain.calendar.get(ownerOf(host), {
          listingId: listing.listingId,
          startDate: '2027-04-01',
          endDate: '2027-04-03',
        })
      ).days.map((day) => day.status);
    const readAt = world.clock.now();
    await imports.recordFeed(key, stays, { etag: null, lastModified: null }, readAt, readAt);
    const connected = (await browse(app, jar, { url: page })).body;
    const read = connected.slice(connected.indexOf(`id="channel-${listing.airbnb}"`));
    expect(read).toContain(
      `<dt>Status</dt><dd><span class="status-good">Connected</span>, last read <time datetime="${readAt.toISOString()}">${readAt.toISOString().slice(0, 19).replace('T', ' ')} UTC</time></dd>`,
    );
    expect(read).toContain('<dt>Stays held</dt><dd>1</dd>');
    expect(read).toContain('No stay of Airbnb clashes with a booking or block here.');
    expect(await statusesOfHeldNights()).toEqual(['blocked', 'blocked', 'blocked']);

    // A failed read, its error from the channel's server escaped: the held stay stays held.
    world.clock.advance(60_000);
    await imports.recordFailure(
      key,
      'HTTP 500 <script>alert(1)</script>',
      world.clock.now(),
      world.clock.now(),
    );
    const failedAt = world.clock.now().toISOString();
    const failed = (await browse(app, jar, { url: page })).body;
    expect(failed).toContain(
      `<dt>Status</dt><dd><span class="status-bad">Error:</span> HTTP 500 &lt;script&gt;alert(1)&lt;/script&gt; (last tried <time datetime="${failedAt}">${failedAt.slice(0, 19).replace('T', ' ')} UTC</time>)</dd>`,
    );
    expect(failed).not.toContain('<script>alert(1)</script>');
    expect(failed).toContain('The nights held from the last good read stay held');

    const stopped = await submit(jar, page, `${linkPath(listing.listingId, listing.airbnb)}/import/stop`);
    expect(stopped.statusCode).toBe(303);
    expect(stopped.headers.location).toBe(`${page}?done=import_stopped#channel-${listing.airbnb}`);
    expect((await linkOf(host, listing.listingId, listing.airbnb)).calendarImport).toBeNull();
    const after = (await browse(app, jar, { url: stopped.headers.location as string })).body;
    expect(after).toContain('the nights still to come that its stays held here are free again.');
    expect(after).toContain('Innkeep does not read Airbnb’s calendar of this listing yet');
    expect(await statusesOfHeldNights()).toEqual(['available', 'available', 'available']);
  });

  it('lists the stays of a channel that clash with nights taken here, as not imported', async () => {
    const host = await createHost(world);
    const jar = await signedInJar(host);
    const listing = await createListing(host);
    const page = channelsPath(listing.listingId);
    await submit(jar, page, `${linkPath(listing.listingId, listing.vrbo)}/import`, { url: importUrl });
    await world.domain.calendar.setAvailability(ownerOf(host), {
      listingId: listing.listingId,
      startDate: '2027-05-10',
      endDate: '2027-05-11',
      available: false,
    });
    const key = { listingId: listing.listingId, channelAccountId: listing.vrbo, url: importUrl };
    const stays = [
      { uid: 'stay-2@vrbo', startDate: '2027-05-09', endDate: '2027-05-12', summary: '<i>Reserved</i>' },
    ];
    await imports.recordFeed(
      key,
      stays,
      { etag: null, lastModified: null },
      world.clock.now(),
      world.clock.now(),
    );
    const body = (await browse(app, jar, { url: page })).body;
    const section = body.slice(body.indexOf(`id="channel-${listing.vrbo}"`));
    expect(section).toContain('<dt>Stays held</dt><dd>0</dd>');
    expect(section).toContain(
      'These stays of Vrbo clash with nights already taken here, so those nights were not imported.',
    );
    expect(section).toContain(
      '<li>2027-05-09 to 2027-05-12 (“&lt;i&gt;Reserved&lt;/i&gt;”) clashes with a block (2027-05-10 to 2027-05-12)</li>',
    );
    expect(section).not.toContain('<i>Reserved</i>');
  });

  it('names the reservation a channel’s stay clashes with', async () => {
    const host = await createHost(world);
    const listing = await createListing(host);
    const found = await world.domain.listings.get(ownerOf(host), listing.listingId);
    const clash: CalendarImportConflict['clashes'][number] = {
      startDate: '2027-06-02',
      endDate: '2027-06-05',
      kind: 'reservation',
      reservationId: 'res_<x>',
    };
    const calendarImport: CalendarImport = {
      url: importUrl,
      status: 'connected',
      lastSuccessAt: '2027-03-01T12:00:00.000Z',
      lastErrorAt: null,
      lastError: null,
      heldStays: 0,
      conflicts: [
        {
          eventUid: 'stay@airbnb',
          startDate: '2027-06-01',
          endDate: '2027-06-04',
          summary: null,
          clashes: [clash, { ...clash, kind: 'block', reservationId: null }],
          since: '2027-03-01T12:00:00.000Z',
        },
      ],
    };
    const page = renderListingChannelsPage({
      signedInAs: host.email,
      csrfToken: 'token',
      served: { home: false, webhooks: false, listings: true },
      listing: { ...found, channels: found.channels.map((link) => ({ ...link, calendarImport })) },
      canChange: true,
    });
    expect(page).toContain(
      '<li>2027-06-01 to 2027-06-04 clashes with reservation <code>res_&lt;x&gt;</code> (2027-06-02 to 2027-06-05), a block (2027-06-02 to 2027-06-05)</li>',
    );
  });

  it('refuses a bad import URL with the domain’s words, keeping what was typed and changing nothing', async () => {
    const host = await createHost(world);
    const jar = await signedInJar(host);
    const listing = await createListing(host);
    const page = channelsPath(listing.listingId);
    const action = `${linkPath(listing.listingId, listing.vrbo)}/import`;
    expect((await submit(jar, page, action, { url: importUrl })).statusCode).toBe(303);
    const before = await world.domain.listings.get(ownerOf(host), listing.listingId);

    for (const url of [
      'http://calendar.example/"><b>x</b>.ics',
      'not a url',
      `https://a.example/${'x'.repeat(2000)}`,
    ]) {
      const refused = await submit(jar, page, action, { url });
      expect(refused.statusCode, url).toBe(400);
      const section = refused.body.slice(refused.body.indexOf(`id="channel-${listing.vrbo}"`));
      expect(section, url).toContain('<p class="error" role="alert" id="import-error-1">');
      expect(section, url).toContain('aria-invalid="true" aria-describedby="import-error-1"');
      expect(refused.body).not.toContain('<b>x</b>');
      if (url.startsWith('http:')) {
        expect(section).toContain(
          'Must be an https:// URL (http:// is allowed only for localhost and 127.0.0.1).',
        );
        expect(section).toContain('value="http://calendar.example/&quot;&gt;&lt;b&gt;x&lt;/b&gt;.ics"');
      }
      // The other channel's form is left alone.
      expect(refused.body.match(/role="alert"/g), url).toHaveLength(1);
    }
    expect(await world.domain.listings.get(ownerOf(host), listing.listingId)).toEqual(before);
  });

  it('replaces an export URL only when confirmed: the old one then stops working', async () => {
    const host = await createHost(world);
    const jar = await signedInJar(host);
    const listing = await createListing(host);
    const page = channelsPath(listing.listingId);
    const action = `${linkPath(listing.listingId, listing.airbnb)}/export-url`;
    const old = (await linkOf(host, listing.listingId, listing.airbnb)).calendarExportUrl;

    const unconfirmed = await submit(jar, page, action);
    expect(unconfirmed.statusCode).toBe(400);
    expect(unconfirmed.body).toContain(
      'Tick the box to confirm: the current URL stops working once it is replaced.',
    );
    expect((await linkOf(host, listing.listingId, listing.airbnb)).calendarExportUrl).toBe(old);

    const replaced = await submit(jar, page, action, { confirm: 'yes' });
    expect(replaced.statusCode).toBe(303);
    expect(replaced.headers.location).toBe(`${page}?done=export_replaced#channel-${listing.airbnb}`);
    const now = (await linkOf(host, listing.listingId, listing.airbnb)).calendarExportUrl;
    expect(now).not.toBe(old);
    const shown = (await browse(app, jar, { url: replaced.headers.location as string })).body;
    expect(shown).toContain('The calendar export URL is replaced and the old one no longer works');
    expect(exportUrlPattern.exec(shown)?.[1]).toBe(`${testBaseUrl}${now}`);
    expect(shown).not.toContain(old);
    // The other channel's URL is untouched.
    expect(shown).toContain(
      `${testBaseUrl}${(await linkOf(host, listing.listingId, listing.vrbo)).calendarExportUrl}`,
    );
  });

  describe('refusals', () => {
    let host: TestHost;
    let jar: CookieJar;
    let listing: TestListing;

    beforeAll(async () => {
      host = await createHost(world);
      jar = await signedInJar(host);
      listing = await createListing(host);
      const page = channelsPath(listing.listingId);
      await submit(jar, page, `${linkPath(listing.listingId, listing.airbnb)}/import`, { url: importUrl });
    });

    const state = () => world.domain.listings.get(ownerOf(host), listing.listingId);

    function writes(listingId: string, channelAccountId: string): [string, Record<string, string>][] {
      return [
        [`${linkPath(listingId, channelAccountId)}/export-url`, { confirm: 'yes' }],
        [`${linkPath(listingId, channelAccountId)}/import`, { url: 'https://calendar.example/other.ics' }],
        [`${linkPath(listingId, channelAccountId)}/import/stop`, {}],
      ];
    }

    it('refuses a form without a valid CSRF token or from another site, changing nothing', async () => {
      const before = await state();
      const page = await browse(app, jar, { url: channelsPath(listing.listingId) });
      const csrf = csrfFrom(page.body);
      for (const [url, form] of writes(listing.listingId, listing.airbnb)) {
        const forged = await browse(app, jar, { url, form: { ...form, csrf: 'forged' } });
        expect(forged.statusCode, url).toBe(403);
        expect(forged.body).toContain('This form has expired or was sent from another site');
        const missing = await browse(app, jar, { url, form });
        expect(missing.statusCode, url).toBe(403);
        const crossSite = await browse(app, jar, {
          url,
          form: { ...form, csrf },
          headers: { origin: 'https://evil.example' },
        });
        expect(crossSite.statusCode, url).toBe(403);
      }
      expect(await state()).toEqual(before);
    });

    it('shows a viewer every calendar but no form, and refuses their posts, changing nothing', async () => {
      const email = `listing.viewer.${kind}.${process.pid}@example.test`;
      await world.operator.addSubUser({
        accountId: host.accountId,
        email,
        firstName: 'Vera',
        lastName: 'Viewer',
        role: 'viewer',
        password: 'viewer password 1',
      });
      const viewerJar = await signedInJar({ email, password: 'viewer password 1' });
      const before = await state();
      const page = await browse(app, viewerJar, { url: channelsPath(listing.listingId) });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(`<code>${testBaseUrl}${before.channels[0]?.calendarExportUrl}</code>`);
      expect(page.body).toContain('<dt>Status</dt><dd>Not fetched yet</dd>');
      expect(page.body).toContain('You can read this account but not change it');
      // The sign-out form is the page's only one.
      expect(page.body.match(/<form /g)).toHaveLength(1);
      expect(page.body).not.toContain('Replace this URL');
      expect(page.body).not.toContain('Stop importing');

      for (const [url, form] of writes(listing.listingId, listing.airbnb)) {
        const refused = await submit(viewerJar, channelsPath(listing.listingId), url, form);
        expect(refused.statusCode, url).toBe(403);
        expect(refused.body, url).toContain('Viewers can read this account but not change it.');
        expect(refused.body).toContain('role="alert"');
      }
      expect(await state()).toEqual(before);
    });

    it('answers 404 for another account’s listing, a link it lacks and ids that could not exist', async () => {
      const stranger = await createHost(world);
      const strangerJar = await signedInJar(stranger);
      const theirs = await createListing(stranger);
      const before = await state();
      const ours = await browse(app, strangerJar, { url: channelsPath(listing.listingId) });
      expect(ours.statusCode).toBe(404);
      expect(ours.body).toContain('Back to listings');
      expect(ours.body).not.toContain(importUrl);
      for (const [url, form] of writes(listing.listingId, listing.airbnb)) {
        const refused = await submit(strangerJar, channelsPath(theirs.listingId), url, form);
        expect(refused.statusCode, url).toBe(404);
      }
      // Their own listing with our channel account in the path does not reach our link.
      for (const [url, form] of writes(theirs.listingId, listing.airbnb)) {
        const crossed = await submit(strangerJar, channelsPath(theirs.listingId), url, form);
        expect(crossed.statusCode, url).toBe(404);
      }
      for (const url of ['/listings/not%20an%20id/channels', `/listings/${'l'.repeat(65)}/channels`]) {
        expect((await browse(app, jar, { url })).statusCode, url).toBe(404);
      }
      const badChannel = await submit(
        jar,
        channelsPath(listing.listingId),
        `${channelsPath(listing.listingId)}/not%20an%20id/import/stop`,
      );
      expect(badChannel.statusCode).toBe(404);
      expect(await state()).toEqual(before);
    });
  });
});
