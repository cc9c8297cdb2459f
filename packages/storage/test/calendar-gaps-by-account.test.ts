import type { Clock } from '@innkeep/domain';
import { daysBetween } from '@innkeep/domain';
import type { AnalyticsPeriod } from '@innkeep/domain/analytics';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuestAnalytics } from '../src/analytics/guest-stats.store.ts';
import { createReservationAnalytics } from '../src/analytics/reservation-stats.store.ts';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database, Executor } from '../src/database.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { writeWhileAnotherIsOpen } from './support/concurrent-writers.ts';
import { createTestAccount, createTestListing, type TestAccount } from './support/fixtures.ts';
import { blockedNightsIn, type GapRow, gapsFromHolds, insertOwnerBlock } from './support/gaps-from-holds.ts';

// `calendar_gaps.account_id` (migration 0025) is filled by the gaps' rebuild function, which the statement
// triggers on `calendar_holds` call: every gap must carry its listing's account after any hold write. Listed-
// price analytics read an account's gaps overlapping a period through two ranges, those starting at most 31
// nights before it and the longer ones from earlier: each gap overlapping the period must be counted once, by
// listed prices and by the gap analysis alike.

const clock: Clock = { now: () => new Date('2026-11-27T18:00:00.000Z') };

describe.each(testDatabaseKinds)('calendar gaps by account on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let account: TestAccount;
  let other: TestAccount;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    account = await createTestAccount(db);
    other = await createTestAccount(db);
  }, 180_000);

  afterAll(async () => {
    await handle?.close();
  });

  async function storedGaps(): Promise<GapRow[]> {
    const { rows } = await sql<{
      listing_id: string;
      account_id: string;
      start_date: string;
      end_date: string;
    }>`
      select listing_id, account_id, start_date::text, end_date::text from calendar_gaps
      order by listing_id, start_date`.execute(db);
    return rows.map((row) => [row.listing_id, row.account_id, row.start_date, row.end_date]);
  }

  const insertBlock = (
    executor: Executor,
    owner: TestAccount,
    listingId: string,
    startDate: string,
    endDate: string,
  ) => insertOwnerBlock(executor, owner.accountId, listingId, startDate, endDate);

  async function expectExact(): Promise<void> {
    expect(await storedGaps()).toEqual(await gapsFromHolds(db));
  }

  /**
   * Checks get_gap_analysis against the gaps recomputed from the holds: every gap of the account overlapping
   * the period counted once with its nights inside it (all before the clock's today), and the soonest listed.
   */
  async function expectGapAnalysis(owner: TestAccount, period: AnalyticsPeriod): Promise<void> {
    const dayAfter = daysBetween(period.startDate, period.endDate) + 1;
    const overlapping = (await gapsFromHolds(db))
      .filter(([, accountId]) => accountId === owner.accountId)
      .map(([, , start, end]) => ({
        start,
        end,
        nights:
          Math.min(daysBetween(period.startDate, end), dayAfter) -
          Math.max(daysBetween(period.startDate, start), 0),
      }))
      .filter((gap) => gap.nights > 0);
    const analysis = await createReservationAnalytics({ db, clock }).getGapAnalysis(owner.owner, {
      ...period,
      limit: 100,
    });
    expect(analysis.past).toMatchObject({
      gaps: overlapping.length,
      nights: overlapping.reduce((total, gap) => total + gap.nights, 0),
    });
    expect(analysis.future.gaps).toBe(0);
    expect(analysis.gaps.map((gap) => [gap.startDate, gap.endDate]).sort()).toEqual(
      overlapping.map((gap) => [gap.start, gap.end]).sort(),
    );
  }

  it('gives every gap its listing’s account through inserts, updates and deletes', async () => {
    const harbor = await createTestListing(db, account.accountId, { name: 'Harbor Loft' });
    const elsewhere = await createTestListing(db, other.accountId, { name: 'Other Owner’s Barn' });

    const first = await insertBlock(db, account, harbor, '2026-06-01', '2026-06-03');
    await insertBlock(db, account, harbor, '2026-06-10', '2026-06-12');
    await insertBlock(db, other, elsewhere, '2026-06-01', '2026-06-02');
    await insertBlock(db, other, elsewhere, '2026-06-05', '2026-06-06');
    const gapsOf = async (listingId: string) => (await storedGaps()).filter(([id]) => id === listingId);
    expect(await gapsOf(harbor)).toEqual([[harbor, account.accountId, '2026-06-03', '2026-06-10']]);
    expect(await gapsOf(elsewhere)).toEqual([[elsewhere, other.accountId, '2026-06-02', '2026-06-05']]);
    await expectExact();

    await sql`update calendar_holds set nights = '[2026-05-20,2026-05-22)' where id = ${first}`.execute(db);
    await expectExact();
    await db.deleteFrom('calendar_holds').where('id', '=', first).execute();
    await expectExact();
    await db.deleteFrom('calendar_holds').where('listing_id', 'in', [harbor, elsewhere]).execute();
    await expectExact();
  });

  // Only a server can keep a transaction open while another one runs; PGlite runs one at a time.
  it.runIf(kind === 'postgres')('stays exact when two transactions write one listing at once', async () => {
    const listingId = await createTestListing(db, account.accountId, { name: 'Raced Retreat' });
    await insertBlock(db, account, listingId, '2026-08-01', '2026-08-02');
    await insertBlock(db, account, listingId, '2026-08-30', '2026-08-31');
    await writeWhileAnotherIsOpen(
      db,
      (trx) => insertBlock(trx, account, listingId, '2026-08-10', '2026-08-12'),
      (trx) => insertBlock(trx, account, listingId, '2026-08-20', '2026-08-22'),
    );
    await expectExact();
  });

  it('counts every open run overlapping the period once, however long before it starts', async () => {
    const owner = await createTestAccount(db);
    // Blocks per listing, chosen around March 2026 (its first night less 31 is 2026-01-29) and around the
    // middle of the year from 2025-11-01 (2026-05-01), where a year is counted in two halves.
    const blocksByListing: [string, string][][] = [
      // A 77-night gap from more than 31 nights before March: read among the long gaps.
      [
        ['2026-01-01', '2026-01-02'],
        ['2026-03-20', '2026-03-21'],
      ],
      // A 32-night gap starting 23 nights before March: long, but read among those starting late enough.
      [
        ['2026-02-05', '2026-02-06'],
        ['2026-03-10', '2026-03-11'],
      ],
      // A 35-night gap starting exactly 31 nights before March.
      [
        ['2026-01-28', '2026-01-29'],
        ['2026-03-05', '2026-03-06'],
      ],
      // A 33-night gap starting 32 nights before March, and one ending as March starts (not in it).
      [
        ['2026-01-27', '2026-01-28'],
        ['2026-03-02', '2026-03-03'],
      ],
      [
        ['2026-02-20', '2026-02-21'],
        ['2026-03-01', '2026-03-02'],
      ],
      // A 105-night gap across the middle of the year, and short ones either side of March's edges.
      [
        ['2026-02-27', '2026-02-28'],
        ['2026-03-01', '2026-03-02'],
        ['2026-06-15', '2026-06-16'],
      ],
      [
        ['2026-03-30', '2026-03-31'],
        ['2026-04-01', '2026-04-02'],
      ],
    ];
    const listings: string[] = [];
    for (const blocks of blocksByListing) {
      const listingId = await createTestListing(db, owner.accountId);
      listings.push(listingId);
      for (const [startDate, endDate] of blocks) await insertBlock(db, owner, listingId, startDate, endDate);
    }
    // One listing without holds: open every night.
    listings.push(await createTestListing(db, owner.accountId));

    const analytics = createGuestAnalytics({ db, clock });
    for (const period of [
      { startDate: '2026-03-01', endDate: '2026-03-31' },
      { startDate: '2025-11-01', endDate: '2026-10-31' },
    ] satisfies AnalyticsPeriod[]) {
      const nights = daysBetween(period.startDate, period.endDate) + 1;
      const blocked = blockedNightsIn(blocksByListing.flat(), period);
      const stats = await analytics.getPricingStats(owner.owner, period);
      expect(stats.currencies.map((entry) => [entry.currency, entry.listed.openNights])).toEqual([
        ['USD', listings.length * nights - blocked],
      ]);
      await expectGapAnalysis(owner, period);
    }
  });

  it('counts open runs across a year’s end once, whichever year they are packed in', async () => {
    const owner = await createTestAccount(db);
    // Gaps are packed by the year they start in (migration 0031), from the year 31 nights before the period;
    // longer ones starting before that year are read one by one.
    const blocksByListing: [string, string][][] = [
      // 2024-12-01 → 2026-01-20: starts before the first packed year of either period.
      [
        ['2024-11-30', '2024-12-01'],
        ['2026-01-20', '2026-01-21'],
      ],
      // 2025-12-20 → 2026-01-18 (29 nights) and 2025-12-31 → 2026-02-12 (43 nights): packed in 2025.
      [
        ['2025-12-19', '2025-12-20'],
        ['2026-01-18', '2026-01-19'],
      ],
      [
        ['2025-12-30', '2025-12-31'],
        ['2026-02-12', '2026-02-13'],
      ],
      // Two-night gaps either side of the new year: an orphan gap, priced by its whole length.
      [
        ['2025-12-28', '2025-12-31'],
        ['2026-01-02', '2026-01-05'],
      ],
    ];
    const listings: string[] = [];
    for (const blocks of blocksByListing) {
      const listingId = await createTestListing(db, owner.accountId);
      listings.push(listingId);
      for (const [startDate, endDate] of blocks) await insertBlock(db, owner, listingId, startDate, endDate);
    }
    const analytics = createGuestAnalytics({ db, clock });
    for (const period of [
      // From 2025 (31 nights before 2026-01-15), and from 2026 (31 nights before 2026-02-10).
      { startDate: '2026-01-01', endDate: '2026-01-31' },
      { startDate: '2026-01-15', endDate: '2026-02-20' },
      { startDate: '2026-02-10', endDate: '2026-02-28' },
      { startDate: '2025-12-01', endDate: '2026-03-31' },
    ] satisfies AnalyticsPeriod[]) {
      const nights = daysBetween(period.startDate, period.endDate) + 1;
      const blocked = blockedNightsIn(blocksByListing.flat(), period);
      const stats = await analytics.getPricingStats(owner.owner, period);
      expect(stats.currencies.map((entry) => [entry.currency, entry.listed.openNights])).toEqual([
        ['USD', listings.length * nights - blocked],
      ]);
      await expectGapAnalysis(owner, period);
    }
  });
});
