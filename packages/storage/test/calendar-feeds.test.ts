import type { CalendarFeed, Clock } from '@innkeep/domain';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCalendarFeedReader } from '../src/calendar-feeds/calendar-feeds.store.ts';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { createListingUseCases } from '../src/listings/listings.store.ts';
import { migrateToLatest } from '../src/migrate.ts';
import { domainMigrations } from '../src/migrations/index.ts';
import { createReservationUseCases } from '../src/reservations/reservations.store.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { insertBlock, insertStay } from './support/analytics-fixture.ts';
import { createTestAccount, createTestListing, type TestAccount } from './support/fixtures.ts';

// The listing's today is 2026-01-15 in Lisbon: its feeds list stays overlapping 2025-12-16 up to 2028-01-15.
const clock: Clock = { now: () => new Date('2026-01-15T12:00:00Z') };
const publicBaseUrl = 'https://innkeep.example';
const exportUrlPattern = /^https:\/\/innkeep\.example\/ical\/([0-9a-f]{64})\.ics$/;

/** Migrations up to, not including, the one that adds calendar exports. */
const migrationsBeforeExports = Object.fromEntries(
  Object.entries(domainMigrations).filter(([name]) => name < '2026_11_28_0032_calendar_exports'),
);

describe.each(testDatabaseKinds)('calendar feeds on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let account: TestAccount;
  let listingId: string;
  const ids: Record<string, string> = {};
  const feeds = () => createCalendarFeedReader({ db, clock });
  const listings = () => createListingUseCases({ db, clock, publicBaseUrl });

  async function tokenOf(channelAccountId: string): Promise<string> {
    const link = (await listings().get(account.owner, listingId)).channels.find(
      (channel) => channel.channelAccountId === channelAccountId,
    );
    const token = exportUrlPattern.exec(link?.calendarExportUrl ?? '')?.[1];
    if (token === undefined) throw new Error(`no export URL for ${channelAccountId}`);
    return token;
  }

  async function feedOf(channelAccountId: string): Promise<CalendarFeed> {
    const feed = await feeds().findByToken(await tokenOf(channelAccountId));
    if (feed === undefined) throw new Error(`no feed for ${channelAccountId}`);
    return feed;
  }

  beforeAll(async () => {
    // Links made before the migration get their tokens from it.
    handle = await openTestDatabase(kind, migrationsBeforeExports);
    db = handle.db;
    account = await createTestAccount(db);
    listingId = await createTestListing(db, account.accountId, {
      name: 'Seaside loft',
      time_zone: 'Europe/Lisbon',
    });
    await db
      .insertInto('channel_accounts')
      .values(
        (['airbnb', 'vrbo'] as const).map((channel) => ({
          id: `cha_${channel}`,
          account_id: account.accountId,
          channel,
          display_name: channel,
          connection_type: 'api',
          status: 'connected',
        })),
      )
      .execute();
    await db
      .insertInto('listing_channel_links')
      .values([
        { listing_id: listingId, channel_account_id: 'cha_airbnb', external_listing_id: 'A-1', url: null },
        { listing_id: listingId, channel_account_id: 'cha_vrbo', external_listing_id: 'V-1', url: null },
      ])
      .execute();
    await migrateToLatest(db, domainMigrations);

    const stay = (startDate: string, endDate: string, nights: number, extra: object = {}) =>
      insertStay(db, account, {
        listingId,
        startDate,
        endDate,
        nightly: Array.from({ length: nights }, () => 10_000),
        createdAt: '2025-11-01T10:00:00Z',
        guestFirstName: 'Zelda',
        ...extra,
      });
    ids.endedBeforeWindow = await stay('2025-12-10', '2025-12-16', 6);
    ids.atWindowStart = await stay('2025-12-16', '2025-12-18', 2, { channel: 'direct' });
    ids.airbnb = await stay('2026-02-01', '2026-02-05', 4, { channel: 'airbnb' });
    ids.vrbo = await stay('2026-02-05', '2026-02-08', 3, { channel: 'vrbo' });
    ids.cancelled = await stay('2026-03-01', '2026-03-03', 2, { status: 'cancelled' });
    ids.toCancel = await stay('2026-04-01', '2026-04-04', 3, { channel: 'direct' });
    ids.block = await insertBlock(db, account.accountId, listingId, '2026-02-10', '2026-02-12', 'owner');
    ids.blockAtWindowEnd = await insertBlock(
      db,
      account.accountId,
      listingId,
      '2028-01-14',
      '2028-01-16',
      'manual',
    );
    ids.blockAfterWindow = await insertBlock(
      db,
      account.accountId,
      listingId,
      '2028-01-16',
      '2028-01-20',
      'manual',
    );
  }, 180_000);

  afterAll(async () => {
    await handle?.close();
  });

  it('gives every link, the ones made before the migration too, its own secret export URL', async () => {
    const airbnb = await tokenOf('cha_airbnb');
    const vrbo = await tokenOf('cha_vrbo');
    expect(airbnb).not.toBe(vrbo);
    expect(await feeds().findByToken('0'.repeat(64))).toBeUndefined();
  });

  it('lists the window’s reservations and blocks whole, leaving out the polling channel’s own', async () => {
    const airbnbFeed = await feedOf('cha_airbnb');
    expect(airbnbFeed).toMatchObject({ listingId, listingName: 'Seaside loft', timeZone: 'Europe/Lisbon' });
    expect(airbnbFeed.channel).toBe('airbnb');
    expect(airbnbFeed.stays).toEqual([
      { uid: ids.atWindowStart, startDate: '2025-12-16', endDate: '2025-12-18', kind: 'reservation' },
      { uid: ids.vrbo, startDate: '2026-02-05', endDate: '2026-02-08', kind: 'reservation' },
      { uid: ids.block, startDate: '2026-02-10', endDate: '2026-02-12', kind: 'block' },
      { uid: ids.toCancel, startDate: '2026-04-01', endDate: '2026-04-04', kind: 'reservation' },
      { uid: ids.blockAtWindowEnd, startDate: '2028-01-14', endDate: '2028-01-16', kind: 'block' },
    ]);
    const vrboUids = (await feedOf('cha_vrbo')).stays.map((stay) => stay.uid);
    expect(vrboUids).toEqual([ids.atWindowStart, ids.airbnb, ids.block, ids.toCancel, ids.blockAtWindowEnd]);
  });

  it('moves Last-Modified forward when a block is removed and when a reservation is cancelled', async () => {
    const first = (await feedOf('cha_airbnb')).lastModified;
    await db.deleteFrom('calendar_holds').where('id', '=', String(ids.block)).execute();
    const afterBlock = await feedOf('cha_airbnb');
    expect(afterBlock.lastModified.getTime()).toBeGreaterThan(first.getTime());
    expect(afterBlock.stays.map((stay) => stay.uid)).not.toContain(ids.block);

    await createReservationUseCases({ db, clock }).cancel(account.owner, {
      reservationId: String(ids.toCancel),
    });
    const afterCancel = await feedOf('cha_airbnb');
    expect(afterCancel.lastModified.getTime()).toBeGreaterThan(afterBlock.lastModified.getTime());
    expect(afterCancel.stays.map((stay) => stay.uid)).not.toContain(ids.toCancel);
    // Unchanged holds leave it where it is.
    expect((await feedOf('cha_airbnb')).lastModified).toEqual(afterCancel.lastModified);
  });

  it('reissues one link’s URL: the old token finds nothing, the new one the same feed; audited', async () => {
    const old = await tokenOf('cha_vrbo');
    const untouched = await tokenOf('cha_airbnb');
    const link = await listings().reissueCalendarExportUrl(account.owner, {
      listingId,
      channelAccountId: 'cha_vrbo',
    });
    expect(link).toMatchObject({ channel: 'vrbo', channelAccountId: 'cha_vrbo', externalListingId: 'V-1' });
    const renewed = exportUrlPattern.exec(link.calendarExportUrl)?.[1];
    expect(renewed).toBeDefined();
    expect(renewed).not.toBe(old);
    expect(await feeds().findByToken(old)).toBeUndefined();
    expect((await feeds().findByToken(String(renewed)))?.channel).toBe('vrbo');
    expect(await tokenOf('cha_airbnb')).toBe(untouched);
    const audit = await db
      .selectFrom('audit_log')
      .select(['action', 'target_id'])
      .where('action', '=', 'listing.calendar_export_url.reissue')
      .execute();
    expect(audit).toEqual([{ action: 'listing.calendar_export_url.reissue', target_id: listingId }]);
  });

  it('refuses to reissue a link outside the account or one that does not exist', async () => {
    const stranger = await createTestAccount(db);
    await expect(
      listings().reissueCalendarExportUrl(stranger.owner, { listingId, channelAccountId: 'cha_vrbo' }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      listings().reissueCalendarExportUrl(account.owner, { listingId, channelAccountId: 'cha_booking' }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('shows the export URL as a path when no public base URL is known', async () => {
    const [link] = (await createListingUseCases({ db, clock }).get(account.owner, listingId)).channels;
    expect(link?.calendarExportUrl).toMatch(/^\/ical\/[0-9a-f]{64}\.ics$/);
  });

  it('still deletes a listing whose blocks the deletion removes first', async () => {
    const doomed = await createTestListing(db, account.accountId, { name: 'Doomed' });
    await insertBlock(db, account.accountId, doomed, '2026-02-10', '2026-02-12', 'owner');
    await db.deleteFrom('listings').where('id', '=', doomed).execute();
    const left = await db
      .selectFrom('listing_hold_changes')
      .select('listing_id')
      .where('listing_id', '=', doomed)
      .execute();
    expect(left).toEqual([]);
  });
});
