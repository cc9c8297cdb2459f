import type { Actor } from '@innkeep/domain';
import { systemClock } from '@innkeep/domain';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { createListingGroupUseCases } from '../src/listing-groups/listing-groups.store.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { createTestAccount, createTestListing, type TestAccount } from './support/fixtures.ts';

describe.each(testDatabaseKinds)('listing groups on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let account: TestAccount;
  let other: TestAccount;
  let cabin: string;
  let loft: string;
  let villa: string;
  let foreignListing: string;

  const groups = () => createListingGroupUseCases({ db, clock: systemClock });
  const countRows = async () => ({
    groups: (await db.selectFrom('listing_groups').select('id').execute()).length,
    members: (await db.selectFrom('listing_group_members').select('group_id').execute()).length,
    audit: (await db.selectFrom('audit_log').select('id').execute()).length,
  });

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    account = await createTestAccount(db);
    other = await createTestAccount(db);
    cabin = await createTestListing(db, account.accountId, { name: 'Cabin' });
    loft = await createTestListing(db, account.accountId, { name: 'Loft' });
    villa = await createTestListing(db, account.accountId, { name: 'Villa' });
    foreignListing = await createTestListing(db, other.accountId, { name: 'Not yours' });
  }, 180_000);

  afterAll(async () => {
    await handle?.close();
  });

  it('creates a group with its listings and owner, without an import link, and audits it', async () => {
    const created = await groups().create(account.owner, {
      name: 'Smith portfolio',
      listingIds: [loft, cabin],
      ownerName: 'Sam Smith',
      ownerEmail: 'sam@example.test',
    });
    expect(created).toEqual({
      id: expect.stringMatching(/^grp_/),
      name: 'Smith portfolio',
      listingIds: [cabin, loft].sort(),
      ownerName: 'Sam Smith',
      ownerEmail: 'sam@example.test',
      ownerImportLink: null,
      createdAt: expect.any(String),
    });
    expect(await groups().get(account.owner, created.id)).toEqual(created);
    const audit = await db.selectFrom('audit_log').selectAll().where('target_id', '=', created.id).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'listing_group.create', user_id: account.ownerId });
  });

  it('refuses listings of another account or unknown ones, and bad input, writing nothing', async () => {
    const before = await countRows();
    await expect(
      groups().create(account.owner, { name: 'Mixed', listingIds: [cabin, foreignListing, 'lst_nope'] }),
    ).rejects.toMatchObject({ code: 'not_found', details: { ids: [foreignListing, 'lst_nope'] } });
    await expect(groups().create(account.owner, { name: '  ', listingIds: [] })).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    await expect(
      groups().create(account.owner, { name: 'Dupes', listingIds: [cabin, cabin] }),
    ).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(
      groups().create(account.owner, { name: 'Bad email', listingIds: [], ownerEmail: 'not-an-email' }),
    ).rejects.toMatchObject({ code: 'invalid_argument' });
    expect(await countRows()).toEqual(before);
  });

  it('updates name, owner and the whole listing set; omitted fields stay', async () => {
    const group = await groups().create(account.owner, { name: 'Beach', listingIds: [cabin] });
    const renamed = await groups().update(account.owner, {
      groupId: group.id,
      name: 'Beach houses',
      listingIds: [villa, loft],
      ownerEmail: 'owner@example.test',
    });
    expect(renamed).toMatchObject({
      name: 'Beach houses',
      listingIds: [loft, villa].sort(),
      ownerName: null,
      ownerEmail: 'owner@example.test',
    });
    const cleared = await groups().update(account.owner, { groupId: group.id, ownerEmail: null });
    expect(cleared).toMatchObject({
      name: 'Beach houses',
      listingIds: [loft, villa].sort(),
      ownerEmail: null,
    });

    const before = await countRows();
    await expect(groups().update(account.owner, { groupId: group.id })).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    await expect(
      groups().update(account.owner, { groupId: group.id, listingIds: [foreignListing] }),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect(await countRows()).toEqual(before);
    expect((await groups().get(account.owner, group.id)).listingIds).toEqual([loft, villa].sort());
  });

  it('issues, replaces and disables the owner import link', async () => {
    const group = await groups().create(account.owner, { name: 'Owner link', listingIds: [] });
    const first = await groups().regenerateOwnerImportLink(account.owner, { groupId: group.id });
    expect(first.ownerImportLink).toMatch(/^\/owner-import\/oil_[A-Za-z0-9_-]{43}$/);
    const second = await groups().regenerateOwnerImportLink(account.owner, { groupId: group.id });
    expect(second.ownerImportLink).toMatch(/^\/owner-import\/oil_/);
    expect(second.ownerImportLink).not.toEqual(first.ownerImportLink);
    const disabled = await groups().disableOwnerImportLink(account.owner, { groupId: group.id });
    expect(disabled.ownerImportLink).toBeNull();
    expect(
      (await groups().disableOwnerImportLink(account.owner, { groupId: group.id })).ownerImportLink,
    ).toBeNull();

    const audit = await db
      .selectFrom('audit_log')
      .select(['action', 'details'])
      .where('target_id', '=', group.id)
      .orderBy('id')
      .execute();
    expect(audit.map((entry) => entry.action)).toEqual([
      'listing_group.create',
      'listing_group.owner_import_link.regenerate',
      'listing_group.owner_import_link.regenerate',
      'listing_group.owner_import_link.disable',
    ]);
    // The link is a credential: it must not be copied into the audit log.
    const token = second.ownerImportLink?.split('/').pop() ?? 'missing';
    expect(JSON.stringify(audit)).not.toContain(token);
  });

  it('lists groups by name in pages and deletes a group but not its listings', async () => {
    const page = await groups().list(account.owner, { limit: 2 });
    expect(page.items.map((g) => g.name)).toEqual(['Beach houses', 'Owner link']);
    const rest = await groups().list(account.owner, { limit: 2, cursor: page.nextCursor ?? '' });
    expect(rest.items.map((g) => g.name)).toEqual(['Smith portfolio']);
    expect(rest.hasMore).toBe(false);

    const smith = rest.items[0]?.id ?? '';
    expect(await groups().delete(account.owner, { groupId: smith })).toEqual({ id: smith, deleted: true });
    await expect(groups().get(account.owner, smith)).rejects.toMatchObject({ code: 'not_found' });
    const listings = await db.selectFrom('listings').select('id').where('id', 'in', [cabin, loft]).execute();
    expect(listings).toHaveLength(2);
    expect(
      await db
        .selectFrom('listing_group_members')
        .select('listing_id')
        .where('group_id', '=', smith)
        .execute(),
    ).toEqual([]);
  });

  it('keeps other accounts and viewers out', async () => {
    const group = (await groups().list(account.owner, {})).items[0];
    const groupId = group?.id ?? '';
    await expect(groups().get(other.owner, groupId)).rejects.toMatchObject({ code: 'not_found' });
    await expect(groups().update(other.owner, { groupId, name: 'Mine' })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(groups().delete(other.owner, { groupId })).rejects.toMatchObject({ code: 'not_found' });
    await expect(groups().regenerateOwnerImportLink(other.owner, { groupId })).rejects.toMatchObject({
      code: 'not_found',
    });
    expect((await groups().list(other.owner, {})).items).toEqual([]);
    const viewer: Actor = { ...account.owner, role: 'viewer' };
    await expect(groups().create(viewer, { name: 'X', listingIds: [] })).rejects.toMatchObject({
      code: 'permission_denied',
    });
    expect((await groups().get(account.owner, groupId)).name).toEqual(group?.name);
  });
});
