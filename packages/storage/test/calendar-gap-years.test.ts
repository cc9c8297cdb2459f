import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database, Executor } from '../src/database.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { writeWhileAnotherIsOpen } from './support/concurrent-writers.ts';
import { createTestAccount, createTestListing, type TestAccount } from './support/fixtures.ts';
import { type GapRow, gapsFromHolds, insertOwnerBlock } from './support/gaps-from-holds.ts';

// `calendar_gap_years` (migration 0031) packs each listing's gaps by the year they start in; the rebuild that
// the statement triggers on `calendar_holds` run keeps it in the same transaction as the gaps. After any hold
// write it must hold exactly the gaps recomputed from the holds, decoded.

/** Day numbers of the packing, back to dates. */
const epoch = Date.UTC(2000, 0, 1);
const dateOf = (day: number) => new Date(epoch + day * 86_400_000).toISOString().slice(0, 10);

describe.each(testDatabaseKinds)('calendar gap years on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let account: TestAccount;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    account = await createTestAccount(db);
  }, 180_000);

  afterAll(async () => {
    await handle?.close();
  });

  /** The packed gaps, unpacked, each checked to sit under the year it starts in. */
  async function packedGaps(): Promise<GapRow[]> {
    const rows = await db
      .selectFrom('calendar_gap_years')
      .select(['listing_id', 'account_id', 'year', 'gaps'])
      .orderBy('listing_id')
      .orderBy('year')
      .execute();
    const gaps: GapRow[] = [];
    for (const row of rows) {
      const view = new DataView(row.gaps.buffer, row.gaps.byteOffset, row.gaps.byteLength);
      expect(row.gaps.byteLength % 8).toBe(0);
      for (let at = 0; at < row.gaps.byteLength; at += 8) {
        const startDate = dateOf(view.getInt32(at));
        expect(Number(startDate.slice(0, 4))).toBe(row.year);
        gaps.push([row.listing_id, row.account_id, startDate, dateOf(view.getInt32(at + 4))]);
      }
    }
    return gaps;
  }

  const insertBlock = (executor: Executor, listingId: string, startDate: string, endDate: string) =>
    insertOwnerBlock(executor, account.accountId, listingId, startDate, endDate);

  async function expectExact(): Promise<void> {
    expect(await packedGaps()).toEqual(await gapsFromHolds(db));
  }

  it('packs every gap under the year it starts in through inserts, updates, deletes and a listing’s removal', async () => {
    const harbor = await createTestListing(db, account.accountId, { name: 'Harbor Loft' });
    const barn = await createTestListing(db, account.accountId, { name: 'Barn' });
    // Gaps before 2000 (negative day numbers), across two new years, and within one year.
    await insertBlock(db, harbor, '1999-12-20', '1999-12-22');
    const newYear = await insertBlock(db, harbor, '2025-12-30', '2026-01-02');
    await insertBlock(db, harbor, '2026-01-05', '2026-01-06');
    await insertBlock(db, harbor, '2026-03-01', '2026-03-04');
    await insertBlock(db, barn, '2026-12-31', '2027-01-01');
    await insertBlock(db, barn, '2027-01-03', '2027-01-04');
    await expectExact();
    expect((await packedGaps()).filter(([id]) => id === harbor)).toEqual([
      [harbor, account.accountId, '1999-12-22', '2025-12-30'],
      [harbor, account.accountId, '2026-01-02', '2026-01-05'],
      [harbor, account.accountId, '2026-01-06', '2026-03-01'],
    ]);

    await sql`update calendar_holds set nights = '[2026-02-10,2026-02-12)' where id = ${newYear}`.execute(db);
    await expectExact();
    await db.deleteFrom('calendar_holds').where('id', '=', newYear).execute();
    await expectExact();
    await db.deleteFrom('listings').where('id', '=', barn).execute();
    await expectExact();
    expect((await packedGaps()).some(([id]) => id === barn)).toBe(false);
    await db.deleteFrom('calendar_holds').where('listing_id', '=', harbor).execute();
    await expectExact();
    expect(await packedGaps()).toEqual([]);
  });

  it('empties with the holds when they are truncated', async () => {
    const listingId = await createTestListing(db, account.accountId);
    await insertBlock(db, listingId, '2026-05-01', '2026-05-02');
    await insertBlock(db, listingId, '2026-05-10', '2026-05-11');
    expect(await packedGaps()).toHaveLength(1);
    await sql`truncate calendar_holds`.execute(db);
    expect(await packedGaps()).toEqual([]);
  });

  // Only a server can keep a transaction open while another one runs; PGlite runs one at a time.
  it.runIf(kind === 'postgres')('stays exact when two transactions write one listing at once', async () => {
    const listingId = await createTestListing(db, account.accountId, { name: 'Raced Retreat' });
    await insertBlock(db, listingId, '2026-08-01', '2026-08-02');
    await insertBlock(db, listingId, '2027-02-01', '2027-02-02');
    await writeWhileAnotherIsOpen(
      db,
      (trx) => insertBlock(trx, listingId, '2026-08-10', '2026-08-12'),
      (trx) => insertBlock(trx, listingId, '2026-12-30', '2027-01-03'),
    );
    await expectExact();
  });
});
