import type { Actor, Clock } from '@innkeep/domain';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCalendarUseCases } from '../src/calendar/calendar.store.ts';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { createPricingUseCases } from '../src/pricing/pricing.store.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { recordAudit } from '../src/transaction.ts';
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

describe.each(testDatabaseKinds)('changing, deleting and reordering pricing rules on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let host: TestAccount;
  let other: TestAccount;
  let cottage: string;
  let foreign: string;
  let foreignRule: string;

  // Thursday 10 September 2026, open and far from the clock's today: only the rules change its price.
  const night = '2026-09-10';

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    host = await createTestAccount(db);
    other = await createTestAccount(db);
    cottage = await createTestListing(db, host.accountId, { name: 'Dune Cottage' });
    foreign = await createTestListing(db, other.accountId, { name: 'Not Yours' });
    foreignRule = (
      await createPricingUseCases({ db, clock }).createRule(other.owner, {
        name: 'Theirs',
        adjustment: { kind: 'percent', amount: 5 },
      })
    ).id;
  }, 120_000);

  afterAll(async () => {
    await handle?.close();
  });

  const pricing = () => createPricingUseCases({ db, clock });
  const priceOn = async (date: string) => {
    const calendar = await createCalendarUseCases({ db, clock }).get(host.owner, {
      listingId: cottage,
      startDate: date,
      endDate: date,
    });
    return calendar.days[0]?.price;
  };
  const storedRules = (accountId: string) =>
    db
      .selectFrom('pricing_rules')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('position')
      .orderBy('id')
      .execute();
  const auditOf = (action: string) =>
    db
      .selectFrom('audit_log')
      .selectAll()
      .where('account_id', '=', host.accountId)
      .where('action', '=', action)
      .orderBy('id')
      .execute();

  let uplift: string;
  let surcharge: string;
  let autumn: string;

  it('applies rules in their stored order, and a reorder changes the price the same way', async () => {
    uplift = (
      await pricing().createRule(host.owner, { name: 'Uplift', adjustment: { kind: 'percent', amount: 10 } })
    ).id;
    surcharge = (
      await pricing().createRule(host.owner, { name: 'Surcharge', adjustment: { kind: 'fixed', amount: 20 } })
    ).id;
    autumn = (
      await pricing().createRule(host.owner, {
        name: 'Autumn',
        adjustment: { kind: 'percent', amount: -50 },
        startDate: '2026-10-01',
        endDate: '2026-11-30',
      })
    ).id;
    // 100 + 10% = 110, + 20 = 130; the autumn rule does not cover September.
    expect(await priceOn(night)).toBe(130);

    const reordered = await pricing().reorderRules(host.owner, { ruleIds: [surcharge, uplift, autumn] });
    expect(reordered.map((rule) => [rule.id, rule.position])).toEqual([
      [surcharge, 1],
      [uplift, 2],
      [autumn, 3],
    ]);
    // 100 + 20 = 120, + 10% = 132.
    expect(await priceOn(night)).toBe(132);
    expect((await pricing().listRules(host.owner, {})).items.map((rule) => rule.id)).toEqual([
      surcharge,
      uplift,
      autumn,
    ]);
    const audit = await auditOf('pricing_rule.reorder');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ user_id: host.ownerId, target_type: 'pricing_rule' });
    expect(audit[0]?.details).toEqual({ ruleIds: [surcharge, uplift, autumn] });
  });

  it('refuses an order that leaves out, adds or repeats a rule, naming them, and changes nothing', async () => {
    const before = await storedRules(host.accountId);
    const missing = pricing().reorderRules(host.owner, { ruleIds: [uplift, surcharge] });
    await expect(missing).rejects.toMatchObject({
      code: 'invalid_argument',
      details: { missingRuleIds: [autumn], unknownRuleIds: [] },
    });
    await expect(missing).rejects.toThrow(autumn);
    await expect(
      pricing().reorderRules(host.owner, { ruleIds: [uplift, surcharge, autumn, foreignRule, 'pru_nope'] }),
    ).rejects.toMatchObject({
      code: 'invalid_argument',
      details: { missingRuleIds: [], unknownRuleIds: [foreignRule, 'pru_nope'] },
    });
    await expect(
      pricing().reorderRules(host.owner, { ruleIds: [uplift, uplift, surcharge, autumn] }),
    ).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(pricing().reorderRules(host.owner, { ruleIds: [] })).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    // Another account's rules are unknown here, and ours unknown there.
    await expect(
      pricing().reorderRules(other.owner, { ruleIds: [foreignRule, uplift] }),
    ).rejects.toMatchObject({ code: 'invalid_argument', details: { unknownRuleIds: [uplift] } });
    await expect(
      pricing().reorderRules({ ...host.owner, role: 'viewer' }, { ruleIds: [autumn, surcharge, uplift] }),
    ).rejects.toMatchObject({ code: 'permission_denied' });
    expect(await storedRules(host.accountId)).toEqual(before);
    expect(await auditOf('pricing_rule.reorder')).toHaveLength(1);
  });

  it('updates a rule: merged fields, nulls removing conditions, the new price in calendar and quote', async () => {
    const updated = await pricing().updateRule(host.owner, {
      ruleId: uplift,
      name: 'Uplift (weekdays)',
      adjustment: { kind: 'percent', amount: -10 },
      daysOfWeek: [4, 1],
      listingIds: [cottage],
    });
    expect(updated).toMatchObject({
      id: uplift,
      name: 'Uplift (weekdays)',
      position: 2,
      enabled: true,
      listingIds: [cottage],
      adjustment: { kind: 'percent', amount: -10 },
      daysOfWeek: [1, 4],
      startDate: null,
      endDate: null,
    });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(updated.createdAt));
    // 100 + 20 = 120, − 10% = 108 on a Thursday.
    expect(await priceOn(night)).toBe(108);
    const quote = await pricing().getQuote(host.owner, {
      listingId: cottage,
      startDate: night,
      endDate: '2026-09-12',
      guests: 1,
    });
    // Thursday 108; Friday is not one of the rule's days any more: 120.
    expect(quote.nightly).toEqual([
      { date: night, price: 108 },
      { date: '2026-09-11', price: 120 },
    ]);

    const everyDay = await pricing().updateRule(host.owner, {
      ruleId: uplift,
      daysOfWeek: null,
      listingIds: null,
    });
    expect(everyDay).toMatchObject({ daysOfWeek: null, listingIds: null, name: 'Uplift (weekdays)' });
    expect(await priceOn('2026-09-11')).toBe(108);

    const switchedOff = await pricing().updateRule(host.owner, { ruleId: uplift, enabled: false });
    expect(switchedOff).toMatchObject({ enabled: false, adjustment: { kind: 'percent', amount: -10 } });
    expect(await priceOn(night)).toBe(120);

    // Dates: moving the autumn rule into September reaches the night; null removes the end again.
    await pricing().updateRule(host.owner, { ruleId: autumn, startDate: '2026-09-01' });
    expect(await priceOn(night)).toBe(60);
    const openEnded = await pricing().updateRule(host.owner, { ruleId: autumn, endDate: null });
    expect(openEnded).toMatchObject({ startDate: '2026-09-01', endDate: null });

    const audit = await auditOf('pricing_rule.update');
    expect(audit.map((entry) => entry.target_id)).toEqual([uplift, uplift, uplift, autumn, autumn]);
    expect(audit[1]?.details).toEqual({ changed: { daysOfWeek: null, listingIds: null } });
  });

  it('refuses updates create would refuse, on the rule as changed, and writes nothing', async () => {
    const before = await storedRules(host.accountId);
    const auditBefore = await auditOf('pricing_rule.update');
    const invalid: unknown[] = [
      { ruleId: autumn },
      { ruleId: autumn, name: ' ' },
      { ruleId: autumn, adjustment: { kind: 'percent', amount: 0 } },
      { ruleId: autumn, adjustment: { kind: 'fixed', amount: 1.005 } },
      { ruleId: autumn, daysOfWeek: [2, 2] },
      { ruleId: autumn, daysOfWeek: [] },
      { ruleId: autumn, listingIds: [cottage, cottage] },
      { ruleId: autumn, listingIds: [] },
      { ruleId: autumn, lastMinuteDays: 366 },
      { ruleId: autumn, orphanGapMaxNights: 0 },
      { ruleId: autumn, startDate: '2026-13-01' },
      { ruleId: autumn, enabled: 'yes' },
    ];
    for (const input of invalid) {
      await expect(pricing().updateRule(host.owner, input as never)).rejects.toMatchObject({
        code: 'invalid_argument',
      });
    }
    // Each date is fine on its own; with the stored other one the rule would end before it starts.
    await pricing().updateRule(host.owner, { ruleId: autumn, endDate: '2026-09-30' });
    const before2 = await storedRules(host.accountId);
    await expect(
      pricing().updateRule(host.owner, { ruleId: autumn, startDate: '2026-10-01' }),
    ).rejects.toMatchObject({
      code: 'invalid_argument',
      details: { issues: [{ path: 'endDate', message: 'endDate must not be before startDate.' }] },
    });
    await expect(
      pricing().updateRule(host.owner, { ruleId: autumn, endDate: '2026-08-31' }),
    ).rejects.toMatchObject({ code: 'invalid_argument' });
    expect(await storedRules(host.accountId)).toEqual(before2);
    expect(before2.find((row) => row.id === autumn)?.end_date).toBe('2026-09-30');
    expect(before.find((row) => row.id === autumn)?.end_date).toBeNull();

    await expect(
      pricing().updateRule(host.owner, { ruleId: autumn, listingIds: [cottage, foreign, 'lst_missing'] }),
    ).rejects.toMatchObject({ code: 'not_found', details: { ids: [foreign, 'lst_missing'] } });
    await expect(pricing().updateRule(other.owner, { ruleId: autumn, name: 'Stolen' })).rejects.toMatchObject(
      { code: 'not_found' },
    );
    await expect(
      pricing().updateRule(host.owner, { ruleId: foreignRule, name: 'Stolen' }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      pricing().updateRule({ ...host.owner, role: 'viewer' } satisfies Actor, {
        ruleId: autumn,
        name: 'Viewer',
      }),
    ).rejects.toMatchObject({ code: 'permission_denied' });
    expect(await storedRules(host.accountId)).toEqual(before2);
    expect((await storedRules(other.accountId)).map((row) => row.name)).toEqual(['Theirs']);
    // Only the one valid change above was logged.
    expect(await auditOf('pricing_rule.update')).toHaveLength(auditBefore.length + 1);
  });

  // Two transactions at once need a server; PGlite runs one at a time.
  it.runIf(kind === 'postgres')(
    'lets an update holding its rule audit while a delete renumbering that rule waits for it',
    async () => {
      const first = await pricing().createRule(host.owner, {
        name: 'Gone soon',
        adjustment: { kind: 'fixed', amount: 1 },
      });
      const second = await pricing().createRule(host.owner, {
        name: 'Held',
        adjustment: { kind: 'fixed', amount: 1 },
      });
      await pricing().reorderRules(host.owner, {
        ruleIds: [first.id, second.id, surcharge, uplift, autumn],
      });
      let deleting: Promise<unknown> = Promise.resolve();
      // As update does: hold the rule's row, then write the audit entry. The delete, started in between, holds
      // the account and waits to renumber the held rule; the audit entry must not wait for the account.
      await db.transaction().execute(async (trx) => {
        await trx.selectFrom('pricing_rules').select('id').where('id', '=', second.id).forUpdate().execute();
        deleting = pricing().deleteRule(host.owner, { ruleId: first.id });
        await new Promise((resolve) => setTimeout(resolve, 200));
        await recordAudit(trx, host.owner, {
          action: 'pricing_rule.update',
          targetType: 'pricing_rule',
          targetId: second.id,
        });
      });
      await expect(deleting).resolves.toEqual({ id: first.id, deleted: true });
      await pricing().deleteRule(host.owner, { ruleId: second.id });
      expect(
        (await pricing().listRules(host.owner, {})).items.map((rule) => [rule.id, rule.position]),
      ).toEqual([
        [surcharge, 1],
        [uplift, 2],
        [autumn, 3],
      ]);
    },
  );

  it('deletes a rule: the price no longer has it, the others keep their order and close up', async () => {
    // Order is surcharge (1), uplift (2, off), autumn (3: −50% from 1 to 30 September).
    expect(await priceOn(night)).toBe(60);
    await expect(pricing().deleteRule(other.owner, { ruleId: autumn })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(
      pricing().deleteRule({ ...host.owner, role: 'viewer' }, { ruleId: autumn }),
    ).rejects.toMatchObject({ code: 'permission_denied' });
    await expect(pricing().deleteRule(host.owner, { ruleId: foreignRule })).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(await storedRules(host.accountId)).toHaveLength(3);
    expect(await storedRules(other.accountId)).toHaveLength(1);

    expect(await pricing().deleteRule(host.owner, { ruleId: surcharge })).toEqual({
      id: surcharge,
      deleted: true,
    });
    // 100 − 50% = 50 without the surcharge.
    expect(await priceOn(night)).toBe(50);
    const left = await pricing().listRules(host.owner, {});
    expect(left.items.map((rule) => [rule.id, rule.position])).toEqual([
      [uplift, 1],
      [autumn, 2],
    ]);
    // A new rule still lands last.
    const last = await pricing().createRule(host.owner, {
      name: 'Last',
      adjustment: { kind: 'fixed', amount: 5 },
    });
    expect(last.position).toBe(3);
    expect(await priceOn(night)).toBe(55);

    await expect(pricing().deleteRule(host.owner, { ruleId: surcharge })).rejects.toMatchObject({
      code: 'not_found',
    });
    // One entry for the one delete that happened (the refused ones wrote none).
    const audit = (await auditOf('pricing_rule.delete')).filter((entry) => entry.target_id === surcharge);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ user_id: host.ownerId, details: { name: 'Surcharge' } });
  });
});
