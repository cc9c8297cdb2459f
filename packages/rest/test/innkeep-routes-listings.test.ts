import { addDays, localDateIn } from '@innkeep/domain';
import {
  collectDateRangeOperation,
  getAccountOperation,
  getHelpArticleOperation,
  listAccountsOperation,
  listHelpArticlesOperation,
  listListingsOperation,
  reissueCalendarExportUrlOperation,
  setAvailabilityOperation,
  setCalendarImportUrlOperation,
  updateListingOperation,
} from '@innkeep/operations';
import { createCalendarFeedReader, syncHelpArticles } from '@innkeep/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOf, expectError, ownerActor } from './support/rest-expectations.ts';
import {
  authTokenOf,
  bearerTokenOf,
  callApi,
  demoUsers,
  demoViewer,
  openRestWorld,
  type RestWorld,
  type RunningRestApp,
  startRestApp,
} from './support/rest-world.ts';

// Innkeep's own Listings, Calendar, Account and Help routes, served from the full route catalogue.

// On PostgreSQL only: the routes run the operations the storage suite tests on both drivers, and the
// host-tools and plugin suites serve REST from the embedded database too; one kind keeps CI's time down.
describe.each(['postgres'] as const)(
  'Innkeep’s listings, calendar, account and help routes on %s',
  (kind) => {
    let world: RestWorld;
    let running: RunningRestApp;
    let owner: { authToken: string };
    let viewer: { authToken: string };
    let readToken: { authorization: string };
    let writeToken: { authorization: string };
    let listingIds: string[];
    let otherListingId: string;
    let groupId: string;

    beforeAll(async () => {
      world = await openRestWorld(kind);
      // The server loads the help centre at start; a test database starts without it.
      await syncHelpArticles(world.db);
      running = await startRestApp(world, { rateLimits: { perCredential: 10_000, withApiKey: 10_000 } });
      owner = { authToken: await authTokenOf(world, demoUsers.owner) };
      viewer = { authToken: (await demoViewer(world)).authToken };
      readToken = {
        authorization: `Bearer ${await bearerTokenOf(running, { scopes: ['listings:read', 'accounts:read'] })}`,
      };
      writeToken = {
        authorization: `Bearer ${await bearerTokenOf(running, { scopes: ['listings:write', 'calendar:write'] })}`,
      };
      const demo = await ownerActor(world, demoUsers.owner);
      listingIds = (await world.domain.listings.list(demo, { limit: 500 })).items.map(
        (listing) => listing.id,
      );
      groupId = (await world.domain.listingGroups.list(demo, { limit: 1 })).items[0]?.id ?? '';
      const lapsed = await ownerActor(world, demoUsers.lapsedOwner);
      otherListingId = (await world.domain.listings.list(lapsed, { limit: 1 })).items[0]?.id ?? '';
    }, 300_000);

    afterAll(async () => {
      await running?.close();
      await world?.close();
    });

    describe('Listings', () => {
      it('pages listListings with limit, cursor and hasMore', async () => {
        const whole = answerOf(
          await callApi(running, 'GET', '/listListings?limit=500', { headers: owner }),
          200,
          listListingsOperation.output,
        );
        expect(whole.items.map((listing) => listing.id)).toEqual(listingIds);
        expect(whole.hasMore).toBe(false);
        expect(whole.nextCursor).toBeNull();
        const first = answerOf(
          await callApi(running, 'GET', '/listListings?limit=5', { headers: owner }),
          200,
          listListingsOperation.output,
        );
        expect(first.items).toHaveLength(5);
        expect(first.hasMore).toBe(true);
        const second = answerOf(
          await callApi(running, 'GET', `/listListings?limit=5&cursor=${first.nextCursor}`, {
            headers: owner,
          }),
          200,
          listListingsOperation.output,
        );
        expect([...first.items, ...second.items].map((listing) => listing.id)).toEqual(
          listingIds.slice(0, 10),
        );
        const byDefault = answerOf(
          await callApi(running, 'GET', '/listListings', { headers: owner }),
          200,
          listListingsOperation.output,
        );
        // REST's default page (50) holds the whole demo; the MCP tool's would be 20.
        expect(byDefault.items).toHaveLength(listingIds.length);
        expectError(
          await callApi(running, 'GET', '/listListings?limit=501', { headers: owner }),
          400,
          'invalid_argument',
          'limit',
        );
        expectError(
          await callApi(running, 'GET', '/listListings?cursor=not-a-cursor', { headers: owner }),
          400,
          'invalid_argument',
        );
      });

      it('filters listListings by listing group and text, and names a bad filter', async () => {
        const grouped = answerOf(
          await callApi(running, 'GET', `/listListings?listingGroupId=${groupId}`, { headers: owner }),
          200,
          listListingsOperation.output,
        );
        expect(grouped.items.length).toBeGreaterThan(0);
        expect(grouped.items.length).toBeLessThan(listingIds.length);
        for (const listing of grouped.items) expect(listing.listingGroupIds).toContain(groupId);
        const city = grouped.items[0]?.city ?? '';
        const found = answerOf(
          await callApi(running, 'GET', `/listListings?query=${encodeURIComponent(city)}`, {
            headers: owner,
          }),
          200,
          listListingsOperation.output,
        );
        expect(found.items.length).toBeGreaterThan(0);
        for (const listing of found.items) expect(listing.city).toBe(city);
        expectError(
          await callApi(running, 'GET', '/listListings?enabled=maybe', { headers: owner }),
          400,
          'invalid_argument',
          'enabled',
        );
      });

      it('changes a listing with native field names and names invalid ones', async () => {
        const listingId = listingIds[0] ?? '';
        const changed = answerOf(
          await callApi(running, 'POST', `/updateListing/${listingId}`, {
            headers: owner,
            body: { nickname: 'REST nickname', minNights: 3, basePrice: 187.5 },
          }),
          200,
          updateListingOperation.output,
        );
        expect(changed).toMatchObject({
          id: listingId,
          nickname: 'REST nickname',
          minNights: 3,
          basePrice: 187.5,
        });
        expectError(
          await callApi(running, 'POST', `/updateListing/${listingId}`, {
            headers: owner,
            body: { basePrice: -1 },
          }),
          400,
          'invalid_argument',
          'basePrice',
        );
        expectError(
          await callApi(running, 'POST', `/updateListing/${listingId}`, { headers: owner, body: {} }),
          400,
          'invalid_argument',
        );
      });

      it('disables and enables a listing, ignoring any body', async () => {
        const listingId = listingIds[1] ?? '';
        const disabled = answerOf(
          await callApi(running, 'POST', `/disableListing/${listingId}`, { headers: owner }),
          200,
          updateListingOperation.output,
        );
        expect(disabled).toMatchObject({ id: listingId, enabled: false });
        const off = answerOf(
          await callApi(running, 'GET', '/listListings?enabled=false', { headers: owner }),
          200,
          listListingsOperation.output,
        );
        expect(off.items.map((listing) => listing.id)).toContain(listingId);
        for (const listing of off.items) expect(listing.enabled).toBe(false);
        const enabled = answerOf(
          await callApi(running, 'POST', `/ENABLELISTING/${listingId}`, {
            headers: owner,
            body: { enabled: false },
          }),
          200,
          updateListingOperation.output,
        );
        expect(enabled).toMatchObject({ id: listingId, enabled: true });
        const on = answerOf(
          await callApi(running, 'GET', '/listListings?enabled=false', { headers: owner }),
          200,
          listListingsOperation.output,
        );
        expect(on.items.map((listing) => listing.id)).not.toContain(listingId);
      });

      it('reads another account’s listing as 404 and changes nothing', async () => {
        const lapsed = await ownerActor(world, demoUsers.lapsedOwner);
        const before = await world.domain.listings.get(lapsed, otherListingId);
        for (const path of [
          `/updateListing/${otherListingId}`,
          `/disableListing/${otherListingId}`,
          `/enableListing/${otherListingId}`,
        ]) {
          expectError(
            await callApi(running, 'POST', path, { headers: owner, body: { nickname: 'not yours' } }),
            404,
            'not_found',
          );
        }
        expect(await world.domain.listings.get(lapsed, otherListingId)).toEqual(before);
      });

      it('lets a viewer list listings but not change them', async () => {
        const listingId = listingIds[2] ?? '';
        answerOf(
          await callApi(running, 'GET', '/listListings?limit=1', { headers: viewer }),
          200,
          listListingsOperation.output,
        );
        for (const [path, body] of [
          [`/disableListing/${listingId}`, undefined],
          [`/updateListing/${listingId}`, { nickname: 'viewer' }],
        ] as const) {
          expectError(
            await callApi(running, 'POST', path, { headers: viewer, body }),
            403,
            'permission_denied',
          );
        }
        const demo = await ownerActor(world, demoUsers.owner);
        const listing = await world.domain.listings.get(demo, listingId);
        expect(listing.enabled).toBe(true);
        expect(listing.nickname).not.toBe('viewer');
      });

      it('asks a Bearer caller for listings:read to list and listings:write to change', async () => {
        answerOf(
          await callApi(running, 'GET', '/listListings?limit=2', { headers: readToken }),
          200,
          listListingsOperation.output,
        );
        const refused = await callApi(running, 'POST', `/disableListing/${listingIds[3]}`, {
          headers: readToken,
        });
        expectError(refused, 403, 'insufficient_scope');
        expect(refused.body).toMatchObject({ details: { required: ['listings:write'] } });
        answerOf(
          await callApi(running, 'POST', `/updateListing/${listingIds[3]}`, {
            headers: writeToken,
            body: { nickname: 'Bearer nickname' },
          }),
          200,
          updateListingOperation.output,
        );
        const unread = await callApi(running, 'GET', '/listListings', { headers: writeToken });
        expectError(unread, 403, 'insufficient_scope');
        expect(unread.body).toMatchObject({ details: { required: ['listings:read'] } });
      });

      it('reissues a channel link’s calendar export URL for listings:write, audited; the old one stops', async () => {
        const demo = await ownerActor(world, demoUsers.owner);
        const listings = (await world.domain.listings.list(demo, { limit: 500 })).items;
        const listing = listings.find((candidate) => candidate.channels.length > 0);
        const link = listing?.channels[0];
        if (listing === undefined || link === undefined) throw new Error('the demo has no channel link');
        const path = `/reissueCalendarExportUrl/${listing.id}/${link.channelAccountId}`;
        const tokenOf = (url: string) => /\/ical\/([0-9a-f]{64})\.ics$/.exec(url)?.[1] ?? '';
        const feeds = createCalendarFeedReader({ db: world.db, clock: world.clock });

        expectError(await callApi(running, 'POST', path, { headers: readToken }), 403, 'insufficient_scope');
        expectError(await callApi(running, 'POST', path, { headers: viewer }), 403, 'permission_denied');
        expect(await feeds.findByToken(tokenOf(link.calendarExportUrl))).toBeDefined();

        const reissued = answerOf(
          await callApi(running, 'POST', path, { headers: writeToken }),
          200,
          reissueCalendarExportUrlOperation.output,
        );
        expect(reissued).toMatchObject({ channelAccountId: link.channelAccountId, channel: link.channel });
        expect(reissued.calendarExportUrl).not.toBe(link.calendarExportUrl);
        expect(await feeds.findByToken(tokenOf(link.calendarExportUrl))).toBeUndefined();
        expect((await feeds.findByToken(tokenOf(reissued.calendarExportUrl)))?.listingId).toBe(listing.id);
        const listed = await world.domain.listings.get(demo, listing.id);
        expect(listed.channels.find((c) => c.channelAccountId === link.channelAccountId)).toEqual(reissued);

        const audit = await world.domain.audit.list(demo, { action: 'listing.calendar_export_url.reissue' });
        expect(audit.items).toEqual([
          expect.objectContaining({
            via: 'rest',
            targetType: 'listing',
            targetId: listing.id,
            details: { channelAccountId: link.channelAccountId },
          }),
        ]);
        expectError(
          await callApi(
            running,
            'POST',
            `/reissueCalendarExportUrl/${otherListingId}/${link.channelAccountId}`,
            {
              headers: owner,
            },
          ),
          404,
          'not_found',
        );
      });

      it('sets and removes a channel link’s calendar import for listings:write; bad URLs change nothing', async () => {
        const demo = await ownerActor(world, demoUsers.owner);
        const listings = (await world.domain.listings.list(demo, { limit: 500 })).items;
        const listing = listings.find((candidate) => candidate.channels.length > 0);
        const link = listing?.channels[0];
        if (listing === undefined || link === undefined) throw new Error('the demo has no channel link');
        const path = `/setCalendarImportUrl/${listing.id}/${link.channelAccountId}`;
        const url = 'https://www.airbnb.example/calendar/ical/1234.ics?s=secret';

        expectError(
          await callApi(running, 'POST', path, { headers: readToken, body: { url } }),
          403,
          'insufficient_scope',
        );
        expectError(
          await callApi(running, 'POST', path, { headers: viewer, body: { url } }),
          403,
          'permission_denied',
        );
        for (const bad of ['http://calendar.example/feed.ics', 'not a url', 42]) {
          expectError(
            await callApi(running, 'POST', path, { headers: writeToken, body: { url: bad } }),
            400,
            'invalid_argument',
          );
        }
        expect((await world.domain.listings.get(demo, listing.id)).channels[0]?.calendarImport).toBeNull();

        const set = answerOf(
          await callApi(running, 'POST', path, { headers: writeToken, body: { url } }),
          200,
          setCalendarImportUrlOperation.output,
        );
        expect(set.calendarImport).toEqual({
          url,
          status: 'pending',
          lastSuccessAt: null,
          lastErrorAt: null,
          lastError: null,
          heldStays: 0,
          conflicts: [],
        });
        const audit = await world.domain.audit.list(demo, { action: 'listing.calendar_import_url.set' });
        expect(audit.items[0]).toMatchObject({
          via: 'rest',
          targetId: listing.id,
          details: { channelAccountId: link.channelAccountId, calendarHost: 'www.airbnb.example' },
        });
        expect(JSON.stringify(audit.items)).not.toContain('secret');

        const removed = answerOf(
          await callApi(running, 'POST', path, { headers: owner, body: { url: null } }),
          200,
          setCalendarImportUrlOperation.output,
        );
        expect(removed.calendarImport).toBeNull();
      });
    });

    describe('Calendar', () => {
      it('blocks and opens a range of nights with setAvailability', async () => {
        const demo = await ownerActor(world, demoUsers.owner);
        const listingId = listingIds[4] ?? '';
        const listing = await world.domain.listings.get(demo, listingId);
        // Far beyond the demo's booked months, so no stay holds these nights.
        const startDate = addDays(localDateIn(listing.timeZone, new Date()), 600);
        const endDate = addDays(startDate, 2);
        const blocked = answerOf(
          await callApi(running, 'POST', `/setAvailability/${listingId}`, {
            headers: owner,
            body: { startDate, endDate, available: false, note: 'Painting' },
          }),
          200,
          setAvailabilityOperation.output,
        );
        expect(blocked).toMatchObject({ listingId, startDate, endDate, available: false, changedNights: 3 });
        const calendar = await world.domain.calendar.get(demo, { listingId, startDate, endDate });
        expect(calendar.days.map((day) => day.status)).toEqual(['blocked', 'blocked', 'blocked']);
        const opened = answerOf(
          await callApi(running, 'POST', `/setAvailability/${listingId}`, {
            headers: writeToken,
            body: { startDate, endDate, available: true },
          }),
          200,
          setAvailabilityOperation.output,
        );
        expect(opened).toMatchObject({ available: true, changedNights: 3, stillBookedNights: [] });
      });

      it('names bad setAvailability input, refuses viewers and other accounts’ listings', async () => {
        const listingId = listingIds[4] ?? '';
        expectError(
          await callApi(running, 'POST', `/setAvailability/${listingId}`, {
            headers: owner,
            body: { startDate: '2031-05-10', endDate: '2031-05-01', available: false },
          }),
          400,
          'invalid_argument',
          'endDate',
        );
        expectError(
          await callApi(running, 'POST', `/setAvailability/${listingId}`, {
            headers: owner,
            body: { startDate: '2031-05-01', endDate: '2031-05-02' },
          }),
          400,
          'invalid_argument',
          'available',
        );
        const body = { startDate: '2031-05-01', endDate: '2031-05-02', available: false };
        expectError(
          await callApi(running, 'POST', `/setAvailability/${listingId}`, { headers: viewer, body }),
          403,
          'permission_denied',
        );
        expectError(
          await callApi(running, 'POST', `/setAvailability/${otherListingId}`, { headers: owner, body }),
          404,
          'not_found',
        );
        const refused = await callApi(running, 'POST', `/setAvailability/${listingId}`, {
          headers: readToken,
          body,
        });
        expectError(refused, 403, 'insufficient_scope');
        expect(refused.body).toMatchObject({ details: { required: ['calendar:write'] } });
      });

      it('reads a date phrase with collectDateRange, for any token', async () => {
        const reading = answerOf(
          await callApi(running, 'GET', `/collectDateRange?phrase=${encodeURIComponent('June 3 - June 9')}`, {
            headers: readToken,
          }),
          200,
          collectDateRangeOperation.output,
        );
        expect(reading).toMatchObject({ status: 'resolved', days: 7 });
        expect(reading.startDate?.slice(5)).toBe('06-03');
        const inListingZone = answerOf(
          await callApi(running, 'GET', `/collectDateRange?phrase=tomorrow&listingId=${listingIds[0]}`, {
            headers: viewer,
          }),
          200,
          collectDateRangeOperation.output,
        );
        expect(inListingZone.status).toBe('resolved');
        expectError(
          await callApi(running, 'GET', '/collectDateRange', { headers: owner }),
          400,
          'invalid_argument',
          'phrase',
        );
        expectError(
          await callApi(running, 'GET', `/collectDateRange?phrase=tomorrow&listingId=${otherListingId}`, {
            headers: owner,
          }),
          404,
          'not_found',
        );
      });
    });

    describe('Account', () => {
      it('pages the channel accounts and reads one', async () => {
        const whole = answerOf(
          await callApi(running, 'GET', '/listAccounts', { headers: readToken }),
          200,
          listAccountsOperation.output,
        );
        expect(whole.items.length).toBeGreaterThan(2);
        const first = answerOf(
          await callApi(running, 'GET', '/listAccounts?limit=2', { headers: owner }),
          200,
          listAccountsOperation.output,
        );
        expect(first).toMatchObject({ hasMore: true, items: whole.items.slice(0, 2) });
        const second = answerOf(
          await callApi(running, 'GET', `/listAccounts?limit=2&cursor=${first.nextCursor}`, {
            headers: owner,
          }),
          200,
          listAccountsOperation.output,
        );
        expect(second.items[0]).toEqual(whole.items[2]);
        const account = whole.items[0];
        const one = answerOf(
          await callApi(running, 'GET', `/getAccount/${account?.id}`, { headers: viewer }),
          200,
          getAccountOperation.output,
        );
        expect(one).toEqual(account);
      });

      it('reads unknown and other accounts’ channel accounts as 404, and asks Bearer callers for accounts:read', async () => {
        const lapsed = await ownerActor(world, demoUsers.lapsedOwner);
        const others = await world.domain.channelAccounts.list(lapsed, { limit: 1 });
        for (const id of ['cha_unknown', ...others.items.map((account) => account.id)]) {
          expectError(
            await callApi(running, 'GET', `/getAccount/${id}`, { headers: owner }),
            404,
            'not_found',
          );
        }
        const refused = await callApi(running, 'GET', '/listAccounts', { headers: writeToken });
        expectError(refused, 403, 'insufficient_scope');
        expect(refused.body).toMatchObject({ details: { required: ['accounts:read'] } });
        expectError(
          await callApi(running, 'GET', '/listAccounts?limit=0', { headers: owner }),
          400,
          'invalid_argument',
          'limit',
        );
      });
    });

    describe('Help', () => {
      it('searches the help centre and reads an article by id and by slug', async () => {
        const found = answerOf(
          await callApi(running, 'GET', '/listHelpArticles?query=webhook&limit=3', { headers: owner }),
          200,
          listHelpArticlesOperation.output,
        );
        expect(found.items.length).toBeGreaterThan(0);
        const summary = found.items[0];
        const byId = answerOf(
          await callApi(running, 'GET', `/getHelpArticle/${summary?.id}`, { headers: owner }),
          200,
          getHelpArticleOperation.output,
        );
        const bySlug = answerOf(
          await callApi(running, 'GET', `/getHelpArticle/${summary?.slug}`, { headers: viewer }),
          200,
          getHelpArticleOperation.output,
        );
        expect(bySlug).toEqual(byId);
        expect(byId).toMatchObject({ id: summary?.id, title: summary?.title });
      });

      it('names a bad collection, reads an unknown article as 404, asks Bearer callers for help:read', async () => {
        expectError(
          await callApi(running, 'GET', '/listHelpArticles?collection=recipes', { headers: owner }),
          400,
          'invalid_argument',
          'collection',
        );
        expectError(
          await callApi(running, 'GET', '/getHelpArticle/no-such-article', { headers: owner }),
          404,
          'not_found',
        );
        const refused = await callApi(running, 'GET', '/listHelpArticles', { headers: readToken });
        expectError(refused, 403, 'insufficient_scope');
        expect(refused.body).toMatchObject({ details: { required: ['help:read'] } });
        expect(world.reported).toEqual([]);
      });
    });
  },
);
