import { systemClock } from '@innkeep/domain';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { createListingUseCases } from '../src/listings/listings.store.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { createTestAccount, createTestListing, type TestAccount } from './support/fixtures.ts';

// A listing's groups and channel links come back with it, read in the same query as its columns.
describe.each(testDatabaseKinds)('listing groups and channel links on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let account: TestAccount;
  let linked: string;
  let bare: string;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    account = await createTestAccount(db);
    const other = await createTestAccount(db);
    linked = await createTestListing(db, account.accountId, { name: 'A Linked Loft' });
    bare = await createTestListing(db, account.accountId, { name: 'B Bare Barn' });
    const foreign = await createTestListing(db, other.accountId, { name: 'C Foreign Flat' });
    await db
      .insertInto('listing_groups')
      .values([
        { id: 'grp_b', account_id: account.accountId, name: 'Beach' },
        { id: 'grp_a', account_id: account.accountId, name: 'All' },
        { id: 'grp_x', account_id: other.accountId, name: 'Theirs' },
      ])
      .execute();
    await db
      .insertInto('listing_group_members')
      .values([
        { group_id: 'grp_b', listing_id: linked },
        { group_id: 'grp_a', listing_id: linked },
        { group_id: 'grp_x', listing_id: foreign },
      ])
      .execute();
    const channelAccount = (id: string, accountId: string, channel: string) => ({
      id,
      account_id: accountId,
      channel,
      display_name: id,
      connection_type: 'api',
      status: 'connected',
    });
    await db
      .insertInto('channel_accounts')
      .values([
        channelAccount('cha_vrbo', account.accountId, 'vrbo'),
        channelAccount('cha_air2', account.accountId, 'airbnb'),
        channelAccount('cha_air1', account.accountId, 'airbnb'),
        channelAccount('cha_theirs', other.accountId, 'booking'),
      ])
      .execute();
    await db
      .insertInto('listing_channel_links')
      .values([
        { listing_id: linked, channel_account_id: 'cha_vrbo', external_listing_id: 'V-1', url: null },
        {
          listing_id: linked,
          channel_account_id: 'cha_air2',
          external_listing_id: '222',
          url: 'https://www.airbnb.com/rooms/222',
        },
        {
          listing_id: linked,
          channel_account_id: 'cha_air1',
          external_listing_id: '111',
          url: 'https://www.airbnb.com/rooms/111',
        },
        { listing_id: foreign, channel_account_id: 'cha_theirs', external_listing_id: 'X', url: null },
      ])
      .execute();
  }, 180_000);

  afterAll(async () => {
    await handle?.close();
  });

  // Groups by id; links by channel, then by channel account; each link with its own export URL.
  const expectedGroups = ['grp_a', 'grp_b'];
  const calendarExportUrl = expect.stringMatching(/^\/ical\/[0-9a-f]{64}\.ics$/);
  const expectedChannels = [
    {
      channel: 'airbnb',
      channelAccountId: 'cha_air1',
      externalListingId: '111',
      url: 'https://www.airbnb.com/rooms/111',
      calendarExportUrl,
      calendarImport: null,
    },
    {
      channel: 'airbnb',
      channelAccountId: 'cha_air2',
      externalListingId: '222',
      url: 'https://www.airbnb.com/rooms/222',
      calendarExportUrl,
      calendarImport: null,
    },
    {
      channel: 'vrbo',
      channelAccountId: 'cha_vrbo',
      externalListingId: 'V-1',
      url: null,
      calendarExportUrl,
      calendarImport: null,
    },
  ];

  it('gets a listing with its groups and links in order, and empty lists when it has none', async () => {
    const listings = createListingUseCases({ db, clock: systemClock });
    const withDetails = await listings.get(account.owner, linked);
    expect(withDetails.listingGroupIds).toEqual(expectedGroups);
    expect(withDetails.channels).toEqual(expectedChannels);
    const urls = new Set(withDetails.channels.map((link) => link.calendarExportUrl));
    expect(urls.size).toBe(expectedChannels.length);
    const without = await listings.get(account.owner, bare);
    expect(without.listingGroupIds).toEqual([]);
    expect(without.channels).toEqual([]);
  });

  it('lists each listing with its own groups and links only', async () => {
    const listings = createListingUseCases({ db, clock: systemClock });
    const page = await listings.list(account.owner, { limit: 10 });
    expect(
      page.items.map(({ id, listingGroupIds, channels }) => ({ id, listingGroupIds, channels })),
    ).toEqual([
      { id: linked, listingGroupIds: expectedGroups, channels: expectedChannels },
      { id: bare, listingGroupIds: [], channels: [] },
    ]);
  });
});
