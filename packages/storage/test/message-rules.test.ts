import type { Actor, Clock, MessageRuleUseCases, RunDueMessageRulesResult } from '@innkeep/domain';
import { newId, templateVariables, templateVariablesIn, unknownTemplateVariables } from '@innkeep/domain';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { createMessageRuleRunner } from '../src/messages/message-rule-runner.ts';
import { createMessageRuleUseCases } from '../src/messages/message-rules.store.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { writeWhileAnotherIsOpen } from './support/concurrent-writers.ts';
import { createTestAccount, createTestListing, type TestAccount } from './support/fixtures.ts';

describe('template variables', () => {
  it('finds each {{variable}} once, in order, ignoring spaces inside the braces', () => {
    expect(
      templateVariablesIn(
        'Hi {{guest_first_name}}, code {{ access_code }} for {{guest_first_name}} {single}',
      ),
    ).toEqual(['guest_first_name', 'access_code']);
    expect(templateVariablesIn('No placeholders here.')).toEqual([]);
  });

  it('names only the unknown ones', () => {
    expect(unknownTemplateVariables('{{guest_first_name}} {{Guest Name}} {{wifi_password}}')).toEqual([
      'Guest Name',
      'wifi_password',
    ]);
  });

  it('documents every variable in one line under a snake_case name', () => {
    const names = templateVariables.map((variable) => variable.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of [
      'guest_first_name',
      'guest_last_name',
      'listing_name',
      'check_in_date',
      'check_out_date',
      'check_in_time',
      'check_out_time',
      'nights',
      'guests',
      'confirmation_code',
      'access_code',
      'channel',
      'host_first_name',
    ]) {
      expect(names).toContain(name);
    }
    for (const variable of templateVariables) {
      expect(variable.name).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(variable.description).toMatch(/^[A-Z].*\.$/);
      expect(variable.description).not.toContain('\n');
    }
  });
});

const now = new Date('2026-04-01T12:00:00.000Z');
const clock: Clock = { now: () => now };

describe.each(testDatabaseKinds)('message rules on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let account: TestAccount;
  let other: TestAccount;
  let rules: MessageRuleUseCases;
  let loft: string;
  let cabin: string;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    account = await createTestAccount(db);
    other = await createTestAccount(db);
    rules = createMessageRuleUseCases({ db, clock });
    loft = await createTestListing(db, account.accountId, { name: 'Loft' });
    cabin = await createTestListing(db, account.accountId, { name: 'Cabin' });
  }, 180_000);

  afterAll(async () => {
    await handle?.close();
  });

  async function counts() {
    const rulesRow = await db
      .selectFrom('message_rules')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', account.accountId)
      .executeTakeFirstOrThrow();
    const auditRow = await db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', account.accountId)
      .executeTakeFirstOrThrow();
    return { rules: rulesRow.n, audit: auditRow.n };
  }

  it('creates a rule with known variables, scoped to listings and channels', async () => {
    const rule = await rules.create(account.owner, {
      name: 'Check-in instructions',
      trigger: 'check_in',
      offsetDays: -1,
      sendTime: '09:30',
      body: 'Hi {{guest_first_name}}, your code for {{listing_name}} is {{ access_code }}.',
      lastMinuteBody: 'Welcome {{guest_first_name}}! Code: {{access_code}}.',
      listingIds: [loft, loft],
      channels: ['airbnb', 'direct'],
    });
    expect(rule).toMatchObject({
      name: 'Check-in instructions',
      trigger: 'check_in',
      offsetDays: -1,
      sendTime: '09:30',
      listingIds: [loft],
      channels: ['airbnb', 'direct'],
      paused: false,
      pausedAt: null,
      createdAt: now.toISOString(),
    });
    expect(rule.id).toMatch(/^mru_/);
    const audit = await db.selectFrom('audit_log').selectAll().where('target_id', '=', rule.id).execute();
    expect(audit.map((row) => row.action)).toEqual(['message_rule.create']);

    const everywhere = await rules.create(account.owner, {
      name: 'Thanks for booking',
      trigger: 'booking_confirmed',
      body: 'Thanks {{guest_full_name}}, see you on {{check_in_date}}!',
    });
    expect(everywhere).toMatchObject({ offsetDays: 0, sendTime: null, listingIds: null, channels: null });
  });

  it('refuses unknown template variables by name and writes nothing', async () => {
    const before = await counts();
    const refused = rules.create(account.owner, {
      name: 'Typos',
      trigger: 'check_out',
      body: 'Bye {{guest_name}}! Wifi was {{wifi_password}}, thanks for staying {{nights}} nights.',
    });
    await expect(refused).rejects.toMatchObject({ code: 'invalid_argument' });
    const message = await refused.catch((error: Error) => error.message);
    expect(message).toContain('{{guest_name}}');
    expect(message).toContain('{{wifi_password}}');
    expect(message).not.toContain('{{nights}}');
    expect(message).toContain('guest_first_name');
    await expect(
      rules.create(account.owner, {
        name: 'Late',
        trigger: 'check_in',
        body: 'Fine {{guest_first_name}}',
        lastMinuteBody: 'Hi {{first_name}}',
      }),
    ).rejects.toThrow(/\{\{first_name\}\}/);
    expect(await counts()).toEqual(before);
  });

  it('refuses rules that could never send as written', async () => {
    const before = await counts();
    const viewer: Actor = { ...account.owner, role: 'viewer' };
    const base = { name: 'Rule', trigger: 'check_in' as const, body: 'Hello' };
    await expect(
      rules.create(account.owner, { ...base, trigger: 'booking_confirmed', offsetDays: -2 }),
    ).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    await expect(
      rules.create(account.owner, { ...base, trigger: 'check_out', lastMinuteBody: 'Hi' }),
    ).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(rules.create(account.owner, { ...base, offsetDays: 61 })).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    await expect(rules.create(account.owner, { ...base, sendTime: '24:00' })).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    await expect(rules.create(account.owner, { ...base, body: ' ' })).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    const foreign = await createTestListing(db, other.accountId);
    await expect(
      rules.create(account.owner, { ...base, listingIds: [loft, foreign, 'lst_missing'] }),
    ).rejects.toMatchObject({ code: 'not_found', details: { ids: [foreign, 'lst_missing'] } });
    await expect(rules.create(viewer, base)).rejects.toMatchObject({ code: 'permission_denied' });
    expect(await counts()).toEqual(before);
  });

  it('lists by name, filtered to the rules that apply to a listing', async () => {
    const listed = await createTestAccount(db);
    const listedRules = createMessageRuleUseCases({ db, clock });
    const a = await createTestListing(db, listed.accountId, { name: 'A' });
    const b = await createTestListing(db, listed.accountId, { name: 'B' });
    await listedRules.create(listed.owner, {
      name: 'Cleaning reminder',
      trigger: 'check_out',
      body: 'x',
      listingIds: [b],
    });
    await listedRules.create(listed.owner, { name: 'All welcome', trigger: 'check_in', body: 'x' });
    await listedRules.create(listed.owner, {
      name: 'Both review',
      trigger: 'review_request',
      body: 'x',
      listingIds: [a, b],
    });
    await listedRules.create(listed.owner, {
      name: 'Alpha only',
      trigger: 'during_stay',
      offsetDays: 1,
      body: 'x',
      listingIds: [a],
    });

    const names = (page: { items: { name: string }[] }) => page.items.map((rule) => rule.name);
    expect(names(await listedRules.list(listed.owner, {}))).toEqual([
      'All welcome',
      'Alpha only',
      'Both review',
      'Cleaning reminder',
    ]);
    expect(names(await listedRules.list(listed.owner, { listingId: a }))).toEqual([
      'All welcome',
      'Alpha only',
      'Both review',
    ]);
    const first = await listedRules.list(listed.owner, { listingId: b, limit: 2 });
    expect(names(first)).toEqual(['All welcome', 'Both review']);
    expect(first.hasMore).toBe(true);
    const second = await listedRules.list(listed.owner, {
      listingId: b,
      limit: 2,
      cursor: first.nextCursor ?? '',
    });
    expect(names(second)).toEqual(['Cleaning reminder']);
    expect(second.hasMore).toBe(false);
    await expect(listedRules.list(account.owner, { listingId: a })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('pauses and resumes idempotently, logging only real changes', async () => {
    const rule = await rules.create(account.owner, {
      name: 'Review nudge',
      trigger: 'review_request',
      offsetDays: 1,
      body: 'How was {{listing_name}}?',
      listingIds: [cabin],
    });
    const paused = await rules.pause(account.owner, { ruleId: rule.id });
    expect(paused).toMatchObject({ paused: true, pausedAt: now.toISOString() });
    expect(await rules.pause(account.owner, { ruleId: rule.id })).toEqual(paused);
    const resumed = await rules.resume(account.owner, { ruleId: rule.id });
    expect(resumed).toMatchObject({ paused: false, pausedAt: null });
    expect(await rules.resume(account.owner, { ruleId: rule.id })).toEqual(resumed);
    const audit = await db
      .selectFrom('audit_log')
      .select('action')
      .where('target_id', '=', rule.id)
      .orderBy('id')
      .execute();
    expect(audit.map((row) => row.action)).toEqual([
      'message_rule.create',
      'message_rule.pause',
      'message_rule.resume',
    ]);

    await expect(rules.pause(other.owner, { ruleId: rule.id })).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      rules.pause({ ...account.owner, role: 'viewer' }, { ruleId: rule.id }),
    ).rejects.toMatchObject({
      code: 'permission_denied',
    });
    const stored = await db
      .selectFrom('message_rules')
      .select('paused')
      .where('id', '=', rule.id)
      .executeTakeFirst();
    expect(stored?.paused).toBe(false);
  });
});

describe.each(testDatabaseKinds)('changing and deleting message rules on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let host: TestAccount;
  let other: TestAccount;
  let rules: MessageRuleUseCases;
  let studio: string;
  let villa: string;
  let foreign: string;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    host = await createTestAccount(db);
    other = await createTestAccount(db);
    rules = createMessageRuleUseCases({ db, clock });
    studio = await createTestListing(db, host.accountId, { name: 'Studio' });
    villa = await createTestListing(db, host.accountId, { name: 'Villa' });
    foreign = await createTestListing(db, other.accountId, { name: 'Not Yours' });
  }, 180_000);

  afterAll(async () => {
    await handle?.close();
  });

  const storedRule = (ruleId: string) =>
    db.selectFrom('message_rules').selectAll().where('id', '=', ruleId).executeTakeFirst();
  const actionsOn = async (ruleId: string) =>
    (
      await db
        .selectFrom('audit_log')
        .select(['action', 'details', 'user_id'])
        .where('target_id', '=', ruleId)
        .orderBy('id')
        .execute()
    ).map((row) => row.action);

  /** An accepted stay of the account, confirmed an hour before `now`, so a booking_confirmed rule is due. */
  async function addConfirmedStay(accountId: string, listingId: string): Promise<string> {
    const id = newId('reservation');
    await db
      .insertInto('reservations')
      .values({
        id,
        account_id: accountId,
        listing_id: listingId,
        channel: 'direct',
        confirmation_code: `DIR-${id.slice(-8)}`,
        status: 'accepted',
        cancelled_by: null,
        guest_first_name: 'Aiko',
        guest_last_name: 'Tanaka',
        start_date: '2026-06-01',
        end_date: '2026-06-04',
        currency: 'USD',
        accommodation_minor: 30_000,
        guest_price_minor: 33_000,
        host_payout_minor: 30_000,
        confirmed_at: new Date(now.getTime() - 3_600_000),
        created_at: new Date(now.getTime() - 3_600_000),
      })
      .execute();
    return id;
  }
  const sentTo = (reservationId: string) =>
    db
      .selectFrom('messages')
      .select(['body', 'sender', 'message_rule_id'])
      .where('reservation_id', '=', reservationId)
      .execute();

  it('updates a rule: merged fields, nulls back to all listings and channels, audited', async () => {
    const rule = await rules.create(host.owner, {
      name: 'Arrival',
      trigger: 'check_in',
      offsetDays: -1,
      sendTime: '09:30',
      body: 'Hi {{guest_first_name}}',
      lastMinuteBody: 'Welcome {{guest_first_name}}!',
      listingIds: [studio],
      channels: ['airbnb'],
    });
    const later = new Date(now.getTime() + 60_000);
    const updated = await createMessageRuleUseCases({ db, clock: { now: () => later } }).update(host.owner, {
      ruleId: rule.id,
      body: 'Hello {{guest_first_name}}, see you at {{listing_name}}.',
      sendTime: null,
      listingIds: [villa, studio, villa],
      channels: null,
    });
    expect(updated).toEqual({
      ...rule,
      body: 'Hello {{guest_first_name}}, see you at {{listing_name}}.',
      sendTime: null,
      listingIds: [villa, studio],
      channels: null,
      updatedAt: later.toISOString(),
    });

    const moved = await rules.update(host.owner, {
      ruleId: rule.id,
      name: ' Departure ',
      trigger: 'check_out',
      offsetDays: 0,
      lastMinuteBody: null,
      listingIds: null,
    });
    expect(moved).toMatchObject({
      name: 'Departure',
      trigger: 'check_out',
      offsetDays: 0,
      lastMinuteBody: null,
      listingIds: null,
      body: 'Hello {{guest_first_name}}, see you at {{listing_name}}.',
    });
    expect(await actionsOn(rule.id)).toEqual([
      'message_rule.create',
      'message_rule.update',
      'message_rule.update',
    ]);
    const audit = await db
      .selectFrom('audit_log')
      .select(['details', 'user_id'])
      .where('target_id', '=', rule.id)
      .where('action', '=', 'message_rule.update')
      .orderBy('id')
      .execute();
    expect(audit[0]).toMatchObject({
      user_id: host.ownerId,
      details: { changedFields: ['sendTime', 'body', 'listingIds', 'channels'], name: 'Arrival' },
    });
  });

  it('refuses an update whose merged rule create would refuse, and one of unknown variables, writing nothing', async () => {
    const rule = await rules.create(host.owner, {
      name: 'Late arrivals',
      trigger: 'check_in',
      offsetDays: -2,
      body: 'Hi',
      lastMinuteBody: 'Hi, quickly',
    });
    const stored = await storedRule(rule.id);

    // The last-minute text only fits check_in: moving the rule needs it removed too.
    await expect(rules.update(host.owner, { ruleId: rule.id, trigger: 'check_out' })).rejects.toMatchObject({
      code: 'invalid_argument',
      details: { issues: [{ path: 'lastMinuteBody' }] },
    });
    // The stored offset (−2) cannot precede an event.
    await expect(
      rules.update(host.owner, { ruleId: rule.id, trigger: 'booking_confirmed', lastMinuteBody: null }),
    ).rejects.toMatchObject({ code: 'invalid_argument', details: { issues: [{ path: 'offsetDays' }] } });
    const unknown = rules.update(host.owner, {
      ruleId: rule.id,
      body: 'Code {{door_code}} for {{nights}} nights',
    });
    await expect(unknown).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(unknown).rejects.toThrow('{{door_code}}');
    await expect(rules.update(host.owner, { ruleId: rule.id, lastMinuteBody: '{{wifi}}' })).rejects.toThrow(
      '{{wifi}}',
    );
    const invalid: unknown[] = [
      { ruleId: rule.id },
      { ruleId: rule.id, name: ' ' },
      { ruleId: rule.id, offsetDays: 61 },
      { ruleId: rule.id, sendTime: '7:00' },
      { ruleId: rule.id, body: null },
      { ruleId: rule.id, trigger: 'birthday' },
      { ruleId: rule.id, listingIds: [] },
      { ruleId: rule.id, channels: ['fax'] },
    ];
    for (const input of invalid) {
      await expect(rules.update(host.owner, input as never)).rejects.toMatchObject({
        code: 'invalid_argument',
      });
    }
    await expect(
      rules.update(host.owner, { ruleId: rule.id, listingIds: [studio, foreign, 'lst_missing'] }),
    ).rejects.toMatchObject({ code: 'not_found', details: { ids: [foreign, 'lst_missing'] } });
    await expect(rules.update(other.owner, { ruleId: rule.id, name: 'Stolen' })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(
      rules.update({ ...host.owner, role: 'viewer' } satisfies Actor, { ruleId: rule.id, name: 'Viewer' }),
    ).rejects.toMatchObject({ code: 'permission_denied' });
    expect(await storedRule(rule.id)).toEqual(stored);
    expect(await actionsOn(rule.id)).toEqual(['message_rule.create']);
  });

  it('deletes a rule: audited, its sent messages kept and not sent again, other accounts and viewers refused', async () => {
    const rule = await rules.create(host.owner, {
      name: 'Thanks',
      trigger: 'booking_confirmed',
      body: 'Thanks {{guest_first_name}}!',
      listingIds: [villa],
    });
    const stay = await addConfirmedStay(host.accountId, villa);
    const runner = createMessageRuleRunner({ db, clock });
    expect(await runner.runDue({ now })).toEqual({ sent: 1, skipped: 0 });
    expect(await sentTo(stay)).toEqual([
      { body: 'Thanks Aiko!', sender: 'automation', message_rule_id: rule.id },
    ]);

    await expect(rules.delete(other.owner, { ruleId: rule.id })).rejects.toMatchObject({ code: 'not_found' });
    await expect(rules.delete({ ...host.owner, role: 'viewer' }, { ruleId: rule.id })).rejects.toMatchObject({
      code: 'permission_denied',
    });
    expect(await storedRule(rule.id)).toBeDefined();

    expect(await rules.delete(host.owner, { ruleId: rule.id })).toEqual({ id: rule.id, deleted: true });
    expect(await storedRule(rule.id)).toBeUndefined();
    // The guest's thread keeps the message; it no longer names a rule.
    expect(await sentTo(stay)).toEqual([
      { body: 'Thanks Aiko!', sender: 'automation', message_rule_id: null },
    ]);
    expect(await runner.runDue({ now })).toEqual({ sent: 0, skipped: 0 });
    expect((await rules.list(host.owner, { listingId: villa })).items.map((r) => r.id)).not.toContain(
      rule.id,
    );
    expect(await actionsOn(rule.id)).toEqual(['message_rule.create', 'message_rule.delete']);
    await expect(rules.delete(host.owner, { ruleId: rule.id })).rejects.toMatchObject({ code: 'not_found' });
  });

  // Two transactions at once need a server; PGlite runs one at a time.
  it.runIf(kind === 'postgres')(
    'lets a runner that saw a rule just before it was deleted skip it instead of failing',
    async () => {
      const racer = await createTestAccount(db);
      const cottage = await createTestListing(db, racer.accountId, { name: 'Cottage' });
      const rule = await rules.create(racer.owner, {
        name: 'Thanks',
        trigger: 'booking_confirmed',
        body: 'Thanks!',
      });
      const stay = await addConfirmedStay(racer.accountId, cottage);
      let result: RunDueMessageRulesResult | undefined;
      await writeWhileAnotherIsOpen(
        db,
        (trx) => trx.deleteFrom('message_rules').where('id', '=', rule.id).execute(),
        // The runner finds the rule due (the delete is not committed yet), then waits for it on the lock.
        async (trx) => {
          result = await createMessageRuleRunner({ db: trx, clock }).runDue({ now });
        },
      );
      expect(result).toEqual({ sent: 0, skipped: 0 });
      expect(await sentTo(stay)).toEqual([]);
    },
  );
});
