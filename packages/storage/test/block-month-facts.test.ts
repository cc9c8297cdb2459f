import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { insertBlock } from './support/analytics-fixture.ts';
import { createTestAccount, createTestListing, type TestAccount } from './support/fixtures.ts';

// `block_month_facts` is the blocked nights per account, month, listing currency and reason, moved by statement
// triggers on `calendar_holds`. After every kind of hold write, and a listing's deletion, it must hold what
// summing the blocks night by night gives.

type FactRow = [accountId: string, month: string, currency: string, reason: string, nights: number];

describe.each(testDatabaseKinds)('block month facts on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let account: TestAccount;
  let usd: string;
  let eur: string;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    account = await createTestAccount(db);
    usd = await createTestListing(db, account.accountId, { name: 'Dollar Loft' });
    eur = await createTestListing(db, account.accountId, {
      name: 'Euro Flat',
      currency: 'EUR',
      time_zone: 'Europe/Lisbon',
    });
  }, 180_000);

  afterAll(async () => {
    await handle?.close();
  });

  const factRow = (row: {
    account_id: string;
    month: string;
    currency: string;
    reason: string;
    nights: number;
  }): FactRow => [row.account_id, row.month, row.currency, row.reason, row.nights];

  async function storedFacts(): Promise<FactRow[]> {
    const { rows } = await sql<Parameters<typeof factRow>[0]>`
      select account_id, month::text, currency, reason, nights from block_month_facts
      where nights <> 0
      order by 1, 2, 3, 4`.execute(db);
    return rows.map(factRow);
  }

  /** The facts summed night by night from the blocks. */
  async function recomputedFacts(): Promise<FactRow[]> {
    const { rows } = await sql<Parameters<typeof factRow>[0]>`
      select h.account_id, date_trunc('month', night)::date::text as month, l.currency,
        h.block_reason as reason, count(*)::integer as nights
      from calendar_holds h
      join listings l on l.id = h.listing_id
      cross join lateral generate_series(lower(h.nights), upper(h.nights) - 1, interval '1 day') as night
      where h.kind = 'block'
      group by 1, 2, 3, 4
      order by 1, 2, 3, 4`.execute(db);
    return rows.map(factRow);
  }

  async function expectExact(): Promise<void> {
    expect(await storedFacts()).toEqual(await recomputedFacts());
  }

  it('follows blocks inserted, moved, re-reasoned, deleted and truncated, and listings deleted', async () => {
    // Across a month and a year end, in both currencies; several rows in one statement.
    const across = await insertBlock(db, account.accountId, usd, '2026-01-28', '2026-02-03', 'owner');
    const yearEnd = await insertBlock(db, account.accountId, eur, '2026-12-30', '2027-01-02', 'maintenance');
    await sql`
      insert into calendar_holds (id, account_id, listing_id, nights, kind, block_reason)
      values ('blk_a', ${account.accountId}, ${usd}, '[2026-03-01,2026-03-05)', 'block', 'manual'),
        ('blk_b', ${account.accountId}, ${eur}, '[2026-03-03,2026-04-10)', 'block', 'owner')`.execute(db);
    await expectExact();
    expect((await storedFacts()).length).toBeGreaterThan(0);

    await sql`update calendar_holds set nights = '[2026-05-10,2026-06-02)' where id = ${across}`.execute(db);
    await expectExact();
    await sql`update calendar_holds set block_reason = 'manual' where id = ${yearEnd}`.execute(db);
    await expectExact();
    // An update that moves no night and changes no reason moves nothing.
    const before = await storedFacts();
    await sql`update calendar_holds set note = 'checked' where account_id = ${account.accountId}`.execute(db);
    expect(await storedFacts()).toEqual(before);
    await sql`delete from calendar_holds where id = 'blk_a'`.execute(db);
    await expectExact();

    // A deleted listing takes its blocks, and their nights, with it.
    const doomed = await createTestListing(db, account.accountId, { name: 'Doomed Cabin', currency: 'EUR' });
    await insertBlock(db, account.accountId, doomed, '2026-07-01', '2026-07-15', 'owner');
    await expectExact();
    await sql`delete from listings where id = ${doomed}`.execute(db);
    await expectExact();

    await sql`truncate calendar_holds`.execute(db);
    expect(await storedFacts()).toEqual([]);
  });
});
