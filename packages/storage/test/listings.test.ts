import type { Actor } from '@innkeep/domain';
import { DomainError, systemClock } from '@innkeep/domain';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { createListingUseCases } from '../src/listings/listings.store.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { createTestAccount, createTestListing, type TestAccount } from './support/fixtures.ts';

describe.each(testDatabaseKinds)('listings on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let account: TestAccount;
  let other: TestAccount;
  let listingIds: string[];

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    account = await createTestAccount(db);
    other = await createTestAccount(db);
    listingIds = [];
    for (const name of ['Cedar Cabin', 'Alpine Chalet', 'Beach House', 'Dune Cottage', 'Elm Flat']) {
      listingIds.push(await createTestListing(db, account.accountId, { name, enabled: name !== 'Elm Flat' }));
    }
    await createTestListing(db, other.accountId, { name: 'Not Yours' });
  }, 180_000);

  afterAll(async () => {
    await handle?.close();
  });

  it('lists only the account’s listings, by name, in pages that say when more exist', async () => {
    const listings = createListingUseCases({ db, clock: systemClock });
    const first = await listings.list(account.owner, { limit: 2 });
    expect(first.items.map((l) => l.name)).toEqual(['Alpine Chalet', 'Beach House']);
    expect(first.hasMore).toBe(true);
    const second = await listings.list(account.owner, { limit: 2, cursor: first.nextCursor ?? '' });
    expect(second.items.map((l) => l.name)).toEqual(['Cedar Cabin', 'Dune Cottage']);
    const third = await listings.list(account.owner, { limit: 2, cursor: second.nextCursor ?? '' });
    expect(third.items.map((l) => l.name)).toEqual(['Elm Flat']);
    expect(third).toMatchObject({ hasMore: false, nextCursor: null });
  });

  it('filters by enabled and by text', async () => {
    const listings = createListingUseCases({ db, clock: systemClock });
    const disabled = await listings.list(account.owner, { enabled: false });
    expect(disabled.items.map((l) => l.name)).toEqual(['Elm Flat']);
    const found = await listings.list(account.owner, { query: 'cot' });
    expect(found.items.map((l) => l.name)).toEqual(['Dune Cottage']);
  });

  it('returns money in major units and hides other accounts’ listings', async () => {
    const listings = createListingUseCases({ db, clock: systemClock });
    const listing = await listings.get(account.owner, listingIds[0] ?? '');
    expect(listing).toMatchObject({ name: 'Cedar Cabin', basePrice: 100, currency: 'USD', minNights: 2 });
    const foreign = (await listings.list(other.owner, {})).items[0];
    await expect(listings.get(account.owner, foreign?.id ?? '')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('answers concurrent reads of several accounts each with its own listing, in one batch', async () => {
    const listings = createListingUseCases({ db, clock: systemClock });
    const foreignId = (await listings.list(other.owner, {})).items[0]?.id ?? '';
    // Started in the same turn, so they share one query; each must still get only what its account owns.
    const reads = await Promise.allSettled([
      ...listingIds.map((id) => listings.get(account.owner, id)),
      listings.get(other.owner, foreignId),
      listings.get(account.owner, foreignId),
      listings.get(other.owner, listingIds[0] ?? ''),
      listings.get(account.owner, listingIds[2] ?? ''),
      listings.get(account.owner, 'no-such-listing'),
    ]);
    const outcome = (read: PromiseSettledResult<{ id: string; name: string }>) =>
      read.status === 'fulfilled' ? read.value.name : (read.reason as DomainError).code;
    expect(reads.map(outcome)).toEqual([
      'Cedar Cabin',
      'Alpine Chalet',
      'Beach House',
      'Dune Cottage',
      'Elm Flat',
      'Not Yours',
      'not_found',
      'not_found',
      'Beach House',
      'not_found',
    ]);
  });

  it('updates settings exactly, audits the change, and refuses bad input without writing', async () => {
    const listings = createListingUseCases({ db, clock: systemClock });
    const id = listingIds[1] ?? '';
    const updated = await listings.update(account.owner, { listingId: id, basePrice: 149.99, minNights: 3 });
    expect(updated).toMatchObject({ basePrice: 149.99, minNights: 3 });
    const audit = await db.selectFrom('audit_log').selectAll().where('target_id', '=', id).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'listing.update', user_id: account.ownerId, via: 'rest' });

    await expect(listings.update(account.owner, { listingId: id, basePrice: 10.001 })).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    await expect(
      listings.update(account.owner, { listingId: id, minNights: 400, maxNights: 30 }),
    ).rejects.toBeInstanceOf(DomainError);
    expect(await listings.get(account.owner, id)).toMatchObject({ basePrice: 149.99, minNights: 3 });
  });

  it('keeps viewers and other accounts from changing a listing', async () => {
    const listings = createListingUseCases({ db, clock: systemClock });
    const viewer: Actor = { ...account.owner, role: 'viewer' };
    await expect(
      listings.update(viewer, { listingId: listingIds[0] ?? '', name: 'X' }),
    ).rejects.toMatchObject({
      code: 'permission_denied',
    });
    await expect(
      listings.update(other.owner, { listingId: listingIds[0] ?? '', name: 'X' }),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
