import { demoLogin, seedDemoData } from '@innkeep/demo';
import { type Listing, systemClock } from '@innkeep/domain';
import { prepareDatabase } from '@innkeep/service-host';
import { createOperatorUseCases, type DatabaseHandle, openDatabase } from '@innkeep/storage';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { testAuthDeps } from './support/app-deps.ts';

// The whole path of a calendar export: the URL a listing shows, the feed served at it, and its reissue.
describe('calendar exports in the server app', () => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let authToken: string;
  let listing: Listing;

  const pathOf = (url: string) => url.slice(testAuthDeps.baseUrl.length);

  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite' });
    await prepareDatabase(database.db);
    await seedDemoData(database.db, {
      today: new Date().toISOString().slice(0, 10),
      listings: 3,
      historyYears: 0,
      forwardMonths: 2,
    });
    authToken = (
      await createOperatorUseCases({ db: database.db, clock: systemClock }).issueAuthToken({
        email: demoLogin.email,
      })
    ).authToken;
    app = buildApp({ ...testAuthDeps, database, clock: systemClock, logLevel: 'silent' });
    const listed = await app.inject({ method: 'GET', url: '/api/listListings', headers: { authToken } });
    const linked = (listed.json() as { items: Listing[] }).items.find((item) => item.channels.length > 0);
    if (linked === undefined) throw new Error('the demo has no channel link');
    listing = linked;
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('shows each channel link’s whole export URL in the listing', () => {
    for (const link of listing.channels) {
      expect(link.calendarExportUrl).toMatch(/^http:\/\/127\.0\.0\.1:3000\/ical\/[0-9a-f]{64}\.ics$/);
    }
  });

  it('serves the feed at that URL without credentials or any guest detail, and revalidates it', async () => {
    const url = pathOf(listing.channels[0]?.calendarExportUrl ?? '');
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(response.body).toMatch(/^BEGIN:VCALENDAR\r\n/);
    expect(response.body).toContain('BEGIN:VEVENT');
    const guests = await database.db
      .selectFrom('reservations')
      .select(['guest_first_name', 'guest_last_name', 'guest_email', 'guest_phone', 'confirmation_code'])
      .where('listing_id', '=', listing.id)
      .execute();
    expect(guests.length).toBeGreaterThan(0);
    const details = guests.flatMap((guest) => Object.values(guest)).filter((value) => value !== null);
    for (const detail of details) expect(response.body).not.toContain(String(detail));

    const revalidated = await app.inject({
      method: 'GET',
      url,
      headers: { 'if-none-match': String(response.headers.etag) },
    });
    expect(revalidated.statusCode).toBe(304);
  });

  it('reissues a link’s URL through /api: the old URL answers 404, the new one the feed', async () => {
    const [link] = listing.channels;
    if (link === undefined) throw new Error('no link');
    const reissued = await app.inject({
      method: 'POST',
      url: `/api/reissueCalendarExportUrl/${listing.id}/${link.channelAccountId}`,
      headers: { authToken },
    });
    expect(reissued.statusCode).toBe(200);
    const { calendarExportUrl } = reissued.json() as { calendarExportUrl: string };
    expect(calendarExportUrl).not.toBe(link.calendarExportUrl);
    const old = await app.inject({ method: 'GET', url: pathOf(link.calendarExportUrl) });
    expect(old.statusCode).toBe(404);
    expect((await app.inject({ method: 'HEAD', url: pathOf(calendarExportUrl) })).statusCode).toBe(200);
  });
});
