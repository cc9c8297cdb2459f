import type { Actor, Clock } from '@innkeep/domain';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCalendarUseCases } from '../src/calendar/calendar.store.ts';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { createPricingUseCases } from '../src/pricing/pricing.store.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { createTestAccount, createTestListing, type TestAccount } from './support/fixtures.ts';

const clock: Clock = { now: () => new Date('2026-05-15T12:00:00Z') };

describe.each(testDatabaseKinds)('pricing rules on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let account: TestAccount;
  let other: TestAccount;
  let cabin: string;
  let loft: string;
  let euroFlat: string;
  let foreign: string;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    account = await createTestAccount(db);
    other = await createTestAccount(db);
    cabin = await createTestListing(db, account.accountId, { name: 'Cedar Cabin' });
    loft = await createTestListing(db, account.accountId, { name: 'Harbor Loft' });
    euroFlat = await createTestListing(db, account.accountId, { name: 'Lisbon Flat', currency: 'EUR' });
    foreign = await createTestListing(db, other.accountId, { name: 'Not Yours' });
  }, 120_000);

  afterAll(async () => {
    await handle?.close();
  });

  const ruleCount = async () =>
    (await db.selectFrom('pricing_rules').select('id').where('account_id', '=', account.accountId).execute())
      .length;

  it('creates rules last in order, lists them in application order with paging, and audits', async () => {
    const pricing = createPricingUseCases({ db, clock });
    const weekend = await pricing.createRule(account.owner, {
      name: ' Weekend uplift ',
      adjustment: { kind: 'percent', amount: 15 },
      listingIds: [cabin],
      daysOfWeek: [6, 5],
    });
    expect(weekend).toMatchObject({
      name: 'Weekend uplift',
      position: 1,
      enabled: true,
      listingIds: [cabin],
      adjustment: { kind: 'percent', amount: 15 },
      daysOfWeek: [5, 6],
      startDate: null,
      endDate: null,
      lastMinuteDays: null,
      orphanGapMaxNights: null,
    });
    expect(weekend.id).toMatch(/^pru_/);
    const everywhere = await pricing.createRule(account.owner, {
      name: 'Summer',
      adjustment: { kind: 'fixed', amount: -12.5 },
      startDate: '2026-07-01',
      endDate: '2026-08-31',
    });
    expect(everywhere).toMatchObject({
      position: 2,
      listingIds: null,
      adjustment: { kind: 'fixed', amount: -12.5 },
    });
    const loftOnly = await pricing.createRule(account.owner, {
      name: 'Loft gaps',
      adjustment: { kind: 'percent', amount: -20 },
      listingIds: [loft],
      orphanGapMaxNights: 2,
      lastMinuteDays: 14,
      enabled: false,
    });
    expect(loftOnly).toMatchObject({
      position: 3,
      enabled: false,
      orphanGapMaxNights: 2,
      lastMinuteDays: 14,
    });

    const first = await pricing.listRules(account.owner, { limit: 2 });
    expect(first.items.map((r) => r.name)).toEqual(['Weekend uplift', 'Summer']);
    expect(first.hasMore).toBe(true);
    const second = await pricing.listRules(account.owner, { limit: 2, cursor: first.nextCursor ?? '' });
    expect(second.items.map((r) => r.name)).toEqual(['Loft gaps']);
    expect(second).toMatchObject({ hasMore: false, nextCursor: null });

    // For one listing: its own rules and the account-wide ones.
    const forLoft = await pricing.listRules(account.owner, { listingId: loft });
    expect(forLoft.items.map((r) => r.name)).toEqual(['Summer', 'Loft gaps']);
    await expect(pricing.listRules(account.owner, { listingId: foreign })).rejects.toMatchObject({
      code: 'not_found',
    });
    expect((await pricing.listRules(other.owner, {})).items).toEqual([]);

    const audit = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('account_id', '=', account.accountId)
      .where('action', '=', 'pricing_rule.create')
      .execute();
    expect(audit.map((entry) => entry.target_id).sort()).toEqual(
      [weekend.id, everywhere.id, loftOnly.id].sort(),
    );
  });

  it('prices with the new rules: a fixed rule across listings adds in each listing’s currency', async () => {
    const calendar = createCalendarUseCases({ db, clock });
    // Saturday 4 July 2026: cabin 100 + 15% = 115, then −12.50 = 102.50; the flat 100 EUR − 12.50 = 87.50.
    const cabinDay = await calendar.get(account.owner, {
      listingId: cabin,
      startDate: '2026-07-04',
      endDate: '2026-07-04',
    });
    expect(cabinDay.days[0]).toMatchObject({ price: 102.5 });
    const flatDay = await calendar.get(account.owner, {
      listingId: euroFlat,
      startDate: '2026-07-04',
      endDate: '2026-07-04',
    });
    expect(flatDay).toMatchObject({ currency: 'EUR', days: [{ price: 87.5 }] });
  });

  it('refuses bad rules as invalid_argument and unknown listings as not_found, writing nothing', async () => {
    const pricing = createPricingUseCases({ db, clock });
    const before = await ruleCount();
    const base = { name: 'X', adjustment: { kind: 'percent', amount: 10 } };
    const invalid: unknown[] = [
      { ...base, adjustment: { kind: 'percent', amount: -91 } },
      { ...base, adjustment: { kind: 'percent', amount: 501 } },
      { ...base, adjustment: { kind: 'fixed', amount: 100_000.01 } },
      { ...base, adjustment: { kind: 'fixed', amount: 1.234 } },
      { ...base, adjustment: { kind: 'fixed', amount: 0 } },
      { ...base, adjustment: { kind: 'double', amount: 2 } },
      { ...base, daysOfWeek: [1, 1] },
      { ...base, daysOfWeek: [7] },
      { ...base, startDate: '2026-07-02', endDate: '2026-07-01' },
      { ...base, listingIds: [] },
      { ...base, listingIds: [cabin, cabin] },
      { ...base, name: '  ' },
      { ...base, orphanGapMaxNights: 0 },
      { ...base, lastMinuteDays: -1 },
    ];
    for (const input of invalid) {
      await expect(pricing.createRule(account.owner, input as never)).rejects.toMatchObject({
        code: 'invalid_argument',
      });
    }
    // Bounds themselves are allowed: −90% and a fixed 100000.
    await expect(
      pricing.createRule(account.owner, {
        ...base,
        adjustment: { kind: 'percent', amount: -90 },
        enabled: false,
      }),
    ).resolves.toMatchObject({ adjustment: { amount: -90 } });
    await expect(
      pricing.createRule(account.owner, {
        ...base,
        adjustment: { kind: 'fixed', amount: -100_000 },
        enabled: false,
      }),
    ).resolves.toMatchObject({ adjustment: { amount: -100_000 } });

    await expect(
      pricing.createRule(account.owner, {
        ...base,
        adjustment: { kind: 'percent', amount: 5 },
        listingIds: [cabin, foreign],
      }),
    ).rejects.toMatchObject({ code: 'not_found', details: { ids: [foreign] } });
    await expect(
      pricing.createRule({ ...account.owner, role: 'viewer' } satisfies Actor, {
        name: 'X',
        adjustment: { kind: 'percent', amount: 5 },
      }),
    ).rejects.toMatchObject({ code: 'permission_denied' });
    expect(await ruleCount()).toBe(before + 2);
  });
});
