import { newId, systemClock } from '@innkeep/domain';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannelAccountUseCases } from '../src/channel-accounts/channel-accounts.store.ts';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { createTestAccount, createTestListing, type TestAccount } from './support/fixtures.ts';

describe.each(testDatabaseKinds)('channel accounts on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let account: TestAccount;
  let other: TestAccount;
  let airbnbId: string;
  let foreignId: string;

  async function insertChannelAccount(
    accountId: string,
    values: { channel: string; displayName: string; status?: string; lastError?: string | null },
  ): Promise<string> {
    const id = newId('channelAccount');
    await db
      .insertInto('channel_accounts')
      .values({
        id,
        account_id: accountId,
        channel: values.channel,
        external_account_id: `ext-${values.displayName}`,
        display_name: values.displayName,
        email: 'host@example.test',
        connection_type: values.channel === 'vrbo' ? 'ical' : 'api',
        status: values.status ?? 'connected',
        last_sync_at: values.status === 'error' ? null : new Date('2026-03-01T10:00:00.000Z'),
        last_error: values.lastError ?? null,
      })
      .execute();
    return id;
  }

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    account = await createTestAccount(db);
    other = await createTestAccount(db);
    airbnbId = await insertChannelAccount(account.accountId, {
      channel: 'airbnb',
      displayName: 'Airbnb – Olivia',
    });
    await insertChannelAccount(account.accountId, {
      channel: 'vrbo',
      displayName: 'Vrbo main',
      status: 'error',
      lastError: 'The iCal feed answered 404.',
    });
    await insertChannelAccount(account.accountId, { channel: 'booking', displayName: 'Booking.com' });
    foreignId = await insertChannelAccount(other.accountId, {
      channel: 'airbnb',
      displayName: 'Another host',
    });
    // Two listings linked to the Airbnb account, none to the others.
    for (const name of ['Cabin', 'Loft']) {
      const listingId = await createTestListing(db, account.accountId, { name });
      await db
        .insertInto('listing_channel_links')
        .values({
          listing_id: listingId,
          channel_account_id: airbnbId,
          external_listing_id: `air-${name}`,
          url: null,
        })
        .execute();
    }
  }, 180_000);

  afterAll(async () => {
    await handle?.close();
  });

  it('lists only the account’s channel accounts, by display name, in pages', async () => {
    const accounts = createChannelAccountUseCases({ db, clock: systemClock });
    const first = await accounts.list(account.owner, { limit: 2 });
    expect(first.items.map((a) => a.displayName)).toEqual(['Airbnb – Olivia', 'Booking.com']);
    expect(first.hasMore).toBe(true);
    const second = await accounts.list(account.owner, { limit: 2, cursor: first.nextCursor ?? '' });
    expect(second.items.map((a) => a.displayName)).toEqual(['Vrbo main']);
    expect(second).toMatchObject({ hasMore: false, nextCursor: null });
  });

  it('reports status, last sync, last error and the number of linked listings', async () => {
    const accounts = createChannelAccountUseCases({ db, clock: systemClock });
    expect(await accounts.get(account.owner, airbnbId)).toEqual({
      id: airbnbId,
      channel: 'airbnb',
      displayName: 'Airbnb – Olivia',
      externalAccountId: 'ext-Airbnb – Olivia',
      email: 'host@example.test',
      connectionType: 'api',
      status: 'connected',
      lastSyncAt: '2026-03-01T10:00:00.000Z',
      lastError: null,
      listingCount: 2,
      createdAt: expect.any(String),
    });
    const vrbo = (await accounts.list(account.owner, {})).items.find((a) => a.channel === 'vrbo');
    expect(vrbo).toMatchObject({
      connectionType: 'ical',
      status: 'error',
      lastSyncAt: null,
      lastError: 'The iCal feed answered 404.',
      listingCount: 0,
    });
  });

  it('hides other accounts’ channel accounts and refuses bad paging', async () => {
    const accounts = createChannelAccountUseCases({ db, clock: systemClock });
    await expect(accounts.get(account.owner, foreignId)).rejects.toMatchObject({ code: 'not_found' });
    await expect(accounts.list(account.owner, { limit: 0 })).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    await expect(accounts.list(account.owner, { cursor: 'not-a-cursor' })).rejects.toMatchObject({
      code: 'invalid_argument',
    });
  });
});
