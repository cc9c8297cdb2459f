import { type Actor, newId } from '@innkeep/domain';
import type { AnalyticsUseCases } from '@innkeep/domain/analytics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCalendarImportQueue } from '../src/calendar-imports/calendar-import.store.ts';
import type { DatabaseHandle } from '../src/connection.ts';
import { createPostgresDomain } from '../src/create-domain.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { createTestAccount, createTestListing } from './support/fixtures.ts';

// Nights a channel's imported calendar holds are blocks of reason `channel`: out of available nights, as the
// metric definitions say (blockReasonsOutOfSupply), both where whole months come from the block roll-up (the
// whole account) and where blocks are read one by one (a listing filter). One Berlin listing, active since
// 2025, with the channel's stays 2026-03-05→03-09 (4 nights) and 2026-03-30→04-02 (2 nights in March).
const march = { startDate: '2026-03-01', endDate: '2026-03-31' };

describe.each(testDatabaseKinds)('nights held by a channel’s calendar in occupancy on %s', (kind) => {
  let handle: DatabaseHandle;
  let analytics: AnalyticsUseCases;
  let owner: Actor;
  let listingId: string;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    const { db } = handle;
    const account = await createTestAccount(db, { timeZone: 'Europe/Berlin', currency: 'EUR' });
    owner = account.owner;
    listingId = await createTestListing(db, account.accountId, {
      currency: 'EUR',
      time_zone: 'Europe/Berlin',
      created_at: '2025-06-01T08:00:00Z',
    });
    const channelAccountId = newId('channelAccount');
    await db
      .insertInto('channel_accounts')
      .values({
        id: channelAccountId,
        account_id: account.accountId,
        channel: 'airbnb',
        display_name: 'Airbnb',
        connection_type: 'ical',
        status: 'connected',
      })
      .execute();
    await db
      .insertInto('listing_channel_links')
      .values({ listing_id: listingId, channel_account_id: channelAccountId, external_listing_id: 'a-1' })
      .execute();
    const clock = { now: () => new Date('2026-02-20T12:00:00Z') };
    const key = { listingId, channelAccountId, url: 'https://calendar.example/a-1.ics' };
    await createPostgresDomain({ db, clock }).listings.setCalendarImportUrl(owner, key);
    const applied = await createCalendarImportQueue({ db, clock }).recordFeed(
      key,
      [
        { uid: 'one', startDate: '2026-03-05', endDate: '2026-03-09', summary: 'Reserved' },
        { uid: 'two', startDate: '2026-03-30', endDate: '2026-04-02', summary: 'Reserved' },
      ],
      { etag: null, lastModified: null },
      clock.now(),
      new Date('2026-02-20T12:15:00Z'),
    );
    expect(applied).toMatchObject({ added: 2, conflicts: 0 });
    analytics = createPostgresDomain({
      db,
      clock: { now: () => new Date('2026-04-15T12:00:00Z') },
    }).analytics;
  }, 180_000);
  afterAll(async () => handle?.close());

  it('takes them out of available nights, for the whole account and for one listing', async () => {
    const expected = {
      calendarNights: 31,
      blockedNights: { owner: 0, maintenance: 0, manual: 0, channel: 6, total: 6 },
      availableNights: 25,
    };
    expect(await analytics.getOccupancyStats(owner, march)).toMatchObject(expected);
    expect(await analytics.getOccupancyStats(owner, { ...march, listingIds: [listingId] })).toMatchObject(
      expected,
    );
  });
});
