import { systemClock } from '@innkeep/domain';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listingGroupSummaries } from '../src/analytics/guest-listing-groups.ts';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { createListingGroupUseCases } from '../src/listing-groups/listing-groups.store.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { writeWhileAnotherIsOpen } from './support/concurrent-writers.ts';
import { createTestAccount, createTestListing, type TestAccount } from './support/fixtures.ts';

// `listing_group_members.listing_name` is a copy of the member listing's name, kept by triggers so that
// list_listing_groups reads each group's first members by name from one index. After every kind of write it
// must equal the listing's name, and the list must order members by the current names.

describe.each(testDatabaseKinds)('listing group member names on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let account: TestAccount;

  const groups = () => createListingGroupUseCases({ db, clock: systemClock });

  /** Memberships whose copied name differs from their listing's name: none, whatever was written. */
  async function staleNames(): Promise<{ listing_id: string; listing_name: string; name: string }[]> {
    const { rows } = await sql<{ listing_id: string; listing_name: string; name: string }>`
      select m.listing_id, m.listing_name, l.name
      from listing_group_members m join listings l on l.id = m.listing_id
      where m.listing_name is distinct from l.name`.execute(db);
    return rows;
  }

  async function memberNames(groupId: string): Promise<string[]> {
    const page = await listingGroupSummaries(db, account.owner, { limit: 100, membersListed: 100 });
    return page.items.find((group) => group.id === groupId)?.members.map((member) => member.name) ?? [];
  }

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    account = await createTestAccount(db);
  }, 180_000);

  afterAll(async () => {
    await handle?.close();
  });

  it('copies names into new memberships and lists members by them', async () => {
    const beach = await createTestListing(db, account.accountId, { name: 'Beach House' });
    const attic = await createTestListing(db, account.accountId, { name: 'Attic' });
    const group = await groups().create(account.owner, { name: 'Coast', listingIds: [beach, attic] });
    expect(await memberNames(group.id)).toEqual(['Attic', 'Beach House']);
    expect(await staleNames()).toEqual([]);
  });

  it('follows a rename, in the list order too, and ignores writes that keep the name', async () => {
    const first = await createTestListing(db, account.accountId, { name: 'Alpha' });
    const second = await createTestListing(db, account.accountId, { name: 'Bravo' });
    const group = await groups().create(account.owner, { name: 'Renamed', listingIds: [first, second] });
    await db.updateTable('listings').set({ name: 'Zulu' }).where('id', '=', first).execute();
    expect(await memberNames(group.id)).toEqual(['Bravo', 'Zulu']);
    // A write that keeps the name leaves the membership row as it was: the same row version.
    const version = async () =>
      (
        await sql<{ version: string }>`
          select xmin::text as version from listing_group_members where listing_id = ${second}`.execute(db)
      ).rows[0]?.version;
    const before = await version();
    await db.updateTable('listings').set({ time_zone: 'Europe/Lisbon' }).where('id', '=', second).execute();
    await db.updateTable('listings').set({ name: 'Bravo' }).where('id', '=', second).execute();
    expect(await version()).toBe(before);
    expect(await staleNames()).toEqual([]);
  });

  it('copies the new listing’s name when a membership moves to another listing', async () => {
    const from = await createTestListing(db, account.accountId, { name: 'Before' });
    const to = await createTestListing(db, account.accountId, { name: 'After' });
    const group = await groups().create(account.owner, { name: 'Moved', listingIds: [from] });
    await db
      .updateTable('listing_group_members')
      .set({ listing_id: to })
      .where('group_id', '=', group.id)
      .execute();
    expect(await memberNames(group.id)).toEqual(['After']);
    expect(await staleNames()).toEqual([]);
  });

  it('keeps names through a replacement of the members and the deletion of a listing', async () => {
    const kept = await createTestListing(db, account.accountId, { name: 'Kept' });
    const dropped = await createTestListing(db, account.accountId, { name: 'Dropped' });
    const added = await createTestListing(db, account.accountId, { name: 'Added' });
    const group = await groups().create(account.owner, { name: 'Replaced', listingIds: [kept, dropped] });
    await groups().update(account.owner, { groupId: group.id, listingIds: [kept, added] });
    expect(await memberNames(group.id)).toEqual(['Added', 'Kept']);
    await db.deleteFrom('listings').where('id', '=', added).execute();
    expect(await memberNames(group.id)).toEqual(['Kept']);
    expect(await staleNames()).toEqual([]);
  });

  // Without the `for share` in the copying trigger both orders leave the old name behind: the rename does
  // not see a membership that is not committed yet, and the membership copies a name not yet replaced.
  it.runIf(kind === 'postgres')('keeps the new name when a rename and a new membership overlap', async () => {
    const renamedFirst = await createTestListing(db, account.accountId, { name: 'Old one' });
    const joinedFirst = await createTestListing(db, account.accountId, { name: 'Old two' });
    const group = await groups().create(account.owner, { name: 'Overlap', listingIds: [] });
    const join = (listingId: string) => (trx: Kysely<Database>) =>
      trx.insertInto('listing_group_members').values({ group_id: group.id, listing_id: listingId }).execute();
    const rename = (listingId: string, name: string) => (trx: Kysely<Database>) =>
      trx.updateTable('listings').set({ name }).where('id', '=', listingId).execute();

    await writeWhileAnotherIsOpen(db, rename(renamedFirst, 'New one'), join(renamedFirst));
    await writeWhileAnotherIsOpen(db, join(joinedFirst), rename(joinedFirst, 'New two'));
    expect(await memberNames(group.id)).toEqual(['New one', 'New two']);
    expect(await staleNames()).toEqual([]);
  });
});
