import type { Actor, Clock, RotatedWebhook, RotateWebhookSecretInput } from '@innkeep/domain';
import { type CreateWebhookInput, isAllowedOutboundUrl, systemClock } from '@innkeep/domain';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { recordAudit } from '../src/transaction.ts';
import { createWebhookUseCases } from '../src/webhooks/webhooks.store.ts';
import { createTestAccount, type TestAccount } from './support/fixtures.ts';

const hostToolsEvents = [
  'reservation.created',
  'reservation.updated',
  'reservation.cancelled',
  'message.created',
];

const allEvents = [
  'reservation.created',
  'reservation.updated',
  'reservation.cancelled',
  'message.created',
  'review.created',
  'calendar.updated',
  'calendar.import_conflict',
  'listing.updated',
];

describe('isAllowedOutboundUrl', () => {
  it('accepts https anywhere and http only on localhost or 127.0.0.1', () => {
    expect(isAllowedOutboundUrl('https://hooks.example.com/innkeep?x=1')).toBe(true);
    expect(isAllowedOutboundUrl('http://localhost:8080/hook')).toBe(true);
    expect(isAllowedOutboundUrl('http://127.0.0.1/hook')).toBe(true);
    expect(isAllowedOutboundUrl('http://hooks.example.com/hook')).toBe(false);
    expect(isAllowedOutboundUrl('http://localhost.evil.example/hook')).toBe(false);
    expect(isAllowedOutboundUrl('http://127.0.0.1.nip.io/hook')).toBe(false);
    expect(isAllowedOutboundUrl('ftp://example.com/')).toBe(false);
    expect(isAllowedOutboundUrl('hooks.example.com')).toBe(false);
  });
});

describe.each(testDatabaseKinds)('webhooks on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let account: TestAccount;
  let other: TestAccount;

  const webhooks = () => createWebhookUseCases({ db, clock: systemClock });
  const countRows = async () => ({
    webhooks: (await db.selectFrom('webhook_subscriptions').select('id').execute()).length,
    audit: (await db.selectFrom('audit_log').select('id').execute()).length,
  });

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    account = await createTestAccount(db);
    other = await createTestAccount(db);
  }, 180_000);

  afterAll(async () => {
    await handle?.close();
  });

  it('creates a subscription to every event by default and shows the secret only then', async () => {
    const created = await webhooks().create(account.owner, { url: 'https://hooks.example.com/a' });
    expect(created).toEqual({
      id: expect.stringMatching(/^whk_/),
      url: 'https://hooks.example.com/a',
      events: allEvents,
      format: 'innkeep',
      active: true,
      disabledReason: null,
      consecutiveFailures: 0,
      previousSecretExpiresAt: null,
      createdAt: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
    });
    const listed = await webhooks().list(account.owner, {});
    expect(listed.items).toHaveLength(1);
    expect(listed.items[0]).not.toHaveProperty('secret');
    expect(JSON.stringify(listed)).not.toContain(created.secret);

    const audit = await db.selectFrom('audit_log').selectAll().where('target_id', '=', created.id).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'webhook.create', user_id: account.ownerId });
    expect(JSON.stringify(audit)).not.toContain(created.secret);
  });

  it('subscribes to chosen events and allows http on the loopback host', async () => {
    const created = await webhooks().create(account.owner, {
      url: 'http://localhost:4000/dev',
      events: ['review.created', 'message.created'],
    });
    expect(created.events).toEqual(['review.created', 'message.created']);
  });

  it('refuses bad URLs and events without writing anything', async () => {
    const before = await countRows();
    const badInputs: unknown[] = [
      { url: 'http://hooks.example.com/a' },
      { url: 'not a url' },
      { url: `https://example.com/${'x'.repeat(2000)}` },
      { url: 'https://hooks.example.com/a', events: [] },
      { url: 'https://hooks.example.com/a', events: ['reservation.deleted'] },
      { url: 'https://hooks.example.com/a', events: ['review.created', 'review.created'] },
    ];
    for (const input of badInputs) {
      await expect(webhooks().create(account.owner, input as CreateWebhookInput)).rejects.toMatchObject({
        code: 'invalid_argument',
      });
    }
    expect(await countRows()).toEqual(before);
  });

  it('changes URL and events, turns deliveries off and back on, and audits each change', async () => {
    const created = await webhooks().create(account.owner, { url: 'https://hooks.example.com/b' });
    const changed = await webhooks().update(account.owner, {
      webhookId: created.id,
      url: 'https://hooks.example.com/c',
      events: ['calendar.updated'],
    });
    expect(changed).toMatchObject({
      url: 'https://hooks.example.com/c',
      events: ['calendar.updated'],
      active: true,
    });
    const off = await webhooks().update(account.owner, { webhookId: created.id, active: false });
    expect(off).toMatchObject({ active: false, disabledReason: expect.stringContaining('Turned off') });

    // A subscription the delivery worker disabled after failures comes back clean.
    await db
      .updateTable('webhook_subscriptions')
      .set({ disabled_reason: 'Disabled after 50 failed deliveries.', consecutive_failures: 50 })
      .where('id', '=', created.id)
      .execute();
    const on = await webhooks().update(account.owner, { webhookId: created.id, active: true });
    expect(on).toMatchObject({ active: true, disabledReason: null, consecutiveFailures: 0 });
    // Asking for the state it is already in changes nothing and logs nothing.
    expect(await webhooks().update(account.owner, { webhookId: created.id, active: true })).toEqual(on);

    const before = await countRows();
    await expect(webhooks().update(account.owner, { webhookId: created.id })).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    await expect(
      webhooks().update(account.owner, { webhookId: created.id, url: 'http://example.com/' }),
    ).rejects.toMatchObject({ code: 'invalid_argument' });
    expect(await countRows()).toEqual(before);

    const actions = await db
      .selectFrom('audit_log')
      .select('action')
      .where('target_id', '=', created.id)
      .orderBy('id')
      .execute();
    expect(actions.map((a) => a.action)).toEqual([
      'webhook.create',
      'webhook.update',
      'webhook.update',
      'webhook.update',
    ]);
  });

  it('lists oldest first in pages and deletes', async () => {
    const first = await webhooks().list(account.owner, { limit: 2 });
    expect(first.items.map((w) => w.url)).toEqual([
      'https://hooks.example.com/a',
      'http://localhost:4000/dev',
    ]);
    const second = await webhooks().list(account.owner, { limit: 2, cursor: first.nextCursor ?? '' });
    expect(second.items.map((w) => w.url)).toEqual(['https://hooks.example.com/c']);
    expect(second.hasMore).toBe(false);

    const id = first.items[1]?.id ?? '';
    expect(await webhooks().delete(account.owner, { webhookId: id })).toEqual({ id, deleted: true });
    expect((await webhooks().list(account.owner, {})).items).toHaveLength(2);
    await expect(webhooks().delete(account.owner, { webhookId: id })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('caps an account at 20 subscriptions', async () => {
    const existing = (await webhooks().list(account.owner, {})).items.length;
    for (let n = existing; n < 20; n += 1) {
      await webhooks().create(account.owner, { url: `https://hooks.example.com/${n}` });
    }
    await expect(
      webhooks().create(account.owner, { url: 'https://hooks.example.com/21' }),
    ).rejects.toMatchObject({
      code: 'failed_precondition',
    });
    expect((await webhooks().list(account.owner, {})).items).toHaveLength(20);
  });

  it('keeps other accounts and viewers out', async () => {
    const mine = (await webhooks().list(account.owner, { limit: 1 })).items[0];
    const webhookId = mine?.id ?? '';
    await expect(webhooks().update(other.owner, { webhookId, active: false })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(webhooks().delete(other.owner, { webhookId })).rejects.toMatchObject({ code: 'not_found' });
    expect((await webhooks().list(other.owner, {})).items).toEqual([]);
    const viewer: Actor = { ...account.owner, role: 'viewer' };
    await expect(webhooks().create(viewer, { url: 'https://hooks.example.com/v' })).rejects.toMatchObject({
      code: 'permission_denied',
    });
    expect((await webhooks().list(account.owner, { limit: 1 })).items[0]).toEqual(mine);
  });
});

describe.each(testDatabaseKinds)('the Host Tools webhook URL on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let account: TestAccount;
  let other: TestAccount;

  const webhooks = () => createWebhookUseCases({ db, clock: systemClock });
  const viewer = (): Actor => ({ ...account.owner, role: 'viewer' });
  const hostToolsRows = (accountId: string) =>
    db
      .selectFrom('webhook_subscriptions')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('format', '=', 'hosttools')
      .execute();
  const auditOf = (accountId: string) =>
    db
      .selectFrom('audit_log')
      .select(['action', 'target_id', 'details'])
      .where('account_id', '=', accountId)
      .orderBy('id')
      .execute();

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    account = await createTestAccount(db);
    other = await createTestAccount(db);
  }, 180_000);

  afterAll(async () => {
    await handle?.close();
  });

  it('reads null and deletes nothing while no URL is set', async () => {
    expect(await webhooks().getHostToolsUrl(account.owner)).toEqual({ webhookURL: null });
    expect(await webhooks().deleteHostToolsUrl(account.owner)).toEqual({ deleted: false });
    expect(await auditOf(account.accountId)).toEqual([]);
  });

  it('sets the URL as one hosttools subscription to reservation and message events, listed and audited', async () => {
    const set = await webhooks().setHostToolsUrl(account.owner, { url: ' https://ht.example.com/hook ' });
    expect(set).toEqual({
      id: expect.stringMatching(/^whk_/),
      url: 'https://ht.example.com/hook',
      events: hostToolsEvents,
      format: 'hosttools',
      active: true,
      disabledReason: null,
      consecutiveFailures: 0,
      previousSecretExpiresAt: null,
      createdAt: expect.any(String),
    });
    expect(await webhooks().getHostToolsUrl(account.owner)).toEqual({
      webhookURL: 'https://ht.example.com/hook',
    });
    // Any role reads it; other accounts see none.
    expect(await webhooks().getHostToolsUrl(viewer())).toEqual({ webhookURL: 'https://ht.example.com/hook' });
    expect(await webhooks().getHostToolsUrl(other.owner)).toEqual({ webhookURL: null });
    expect((await webhooks().list(account.owner, {})).items).toEqual([set]);
    expect(await auditOf(account.accountId)).toEqual([
      {
        action: 'webhook.create',
        target_id: set.id,
        details: { url: 'https://ht.example.com/hook', events: hostToolsEvents, format: 'hosttools' },
      },
    ]);
    // Signed like every subscription, with a secret of its own that no answer shows.
    const [row] = await hostToolsRows(account.accountId);
    expect(row?.secret).toMatch(/^whsec_/);
    expect(JSON.stringify(set)).not.toContain(row?.secret);
  });

  it('replaces the URL when set again, keeping one subscription and turning deliveries back on', async () => {
    const [before] = await hostToolsRows(account.accountId);
    await webhooks().update(account.owner, { webhookId: before?.id ?? '', active: false });
    await db
      .updateTable('webhook_subscriptions')
      .set({ consecutive_failures: 7 })
      .where('id', '=', before?.id ?? '')
      .execute();

    const replaced = await webhooks().setHostToolsUrl(account.owner, { url: 'https://ht.example.com/v2' });
    expect(replaced).toMatchObject({
      id: before?.id,
      url: 'https://ht.example.com/v2',
      format: 'hosttools',
      active: true,
      disabledReason: null,
      consecutiveFailures: 0,
    });
    const rows = await hostToolsRows(account.accountId);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.secret).toBe(before?.secret);
    expect(await webhooks().getHostToolsUrl(account.owner)).toEqual({
      webhookURL: 'https://ht.example.com/v2',
    });
    const audit = await auditOf(account.accountId);
    expect(audit.at(-1)).toEqual({
      action: 'webhook.update',
      target_id: before?.id,
      details: { url: 'https://ht.example.com/v2', format: 'hosttools' },
    });

    // Calls racing each other still leave one subscription, with one of their URLs.
    await Promise.all([
      webhooks().setHostToolsUrl(account.owner, { url: 'https://ht.example.com/a' }),
      webhooks().setHostToolsUrl(account.owner, { url: 'https://ht.example.com/b' }),
    ]);
    const raced = await hostToolsRows(account.accountId);
    expect(raced.map((row) => row.id)).toEqual([before?.id]);
    expect(['https://ht.example.com/a', 'https://ht.example.com/b']).toContain(raced[0]?.url);
  });

  // Two transactions at once need a server; PGlite runs one at a time.
  it.runIf(kind === 'postgres')(
    'lets a writer holding the subscription audit while a setWebhook waits for it',
    async () => {
      const [row] = await hostToolsRows(account.accountId);
      const webhookId = row?.id ?? '';
      let setting: Promise<unknown> = Promise.resolve();
      // As update and delete do: hold the subscription's row, then write the audit entry. setWebhook, started
      // in between, holds the account and waits for the row; the audit entry must not wait for the account.
      await db.transaction().execute(async (trx) => {
        await trx
          .selectFrom('webhook_subscriptions')
          .select('id')
          .where('id', '=', webhookId)
          .forUpdate()
          .execute();
        setting = webhooks().setHostToolsUrl(account.owner, { url: 'https://ht.example.com/after' });
        await new Promise((resolve) => setTimeout(resolve, 200));
        await recordAudit(trx, account.owner, {
          action: 'webhook.update',
          targetType: 'webhook',
          targetId: webhookId,
        });
      });
      await expect(setting).resolves.toMatchObject({ id: webhookId, url: 'https://ht.example.com/after' });
    },
  );

  it('refuses bad URLs, viewers and Host Tools-less events, changing nothing', async () => {
    const before = await hostToolsRows(account.accountId);
    const auditBefore = await auditOf(account.accountId);
    for (const url of [
      'http://ht.example.com/hook',
      'not a url',
      `https://ht.example.com/${'x'.repeat(2000)}`,
    ]) {
      await expect(webhooks().setHostToolsUrl(account.owner, { url })).rejects.toMatchObject({
        code: 'invalid_argument',
      });
    }
    await expect(webhooks().setHostToolsUrl(account.owner, {} as never)).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    await expect(
      webhooks().setHostToolsUrl(viewer(), { url: 'https://ht.example.com/viewer' }),
    ).rejects.toMatchObject({ code: 'permission_denied' });
    await expect(webhooks().deleteHostToolsUrl(viewer())).rejects.toMatchObject({
      code: 'permission_denied',
    });
    // Its body describes reservations and messages only.
    const webhookId = before[0]?.id ?? '';
    const refused = webhooks().update(account.owner, {
      webhookId,
      events: ['reservation.created', 'review.created'],
    });
    await expect(refused).rejects.toMatchObject({
      code: 'invalid_argument',
      details: { refusedEvents: ['review.created'] },
    });
    expect(await hostToolsRows(account.accountId)).toEqual(before);
    expect(await auditOf(account.accountId)).toEqual(auditBefore);

    const narrowed = await webhooks().update(account.owner, { webhookId, events: ['message.created'] });
    expect(narrowed).toMatchObject({ format: 'hosttools', events: ['message.created'] });
  });

  it('counts toward the cap only when it creates the subscription', async () => {
    // `account` has its hosttools subscription: fill up to the cap with ordinary ones.
    for (let n = 1; n < 20; n += 1) {
      await webhooks().create(account.owner, { url: `https://hooks.example.com/${n}` });
    }
    const replaced = await webhooks().setHostToolsUrl(account.owner, { url: 'https://ht.example.com/full' });
    expect(replaced.url).toBe('https://ht.example.com/full');

    for (let n = 0; n < 20; n += 1) {
      await webhooks().create(other.owner, { url: `https://hooks.example.com/other/${n}` });
    }
    await expect(
      webhooks().setHostToolsUrl(other.owner, { url: 'https://ht.example.com/other' }),
    ).rejects.toMatchObject({ code: 'failed_precondition' });
    expect(await hostToolsRows(other.accountId)).toEqual([]);
  });

  it('deletes the URL: audited once, then reads null; other accounts cannot reach it', async () => {
    const [mine] = await hostToolsRows(account.accountId);
    expect(await webhooks().deleteHostToolsUrl(other.owner)).toEqual({ deleted: false });
    expect(await hostToolsRows(account.accountId)).toHaveLength(1);

    expect(await webhooks().deleteHostToolsUrl(account.owner)).toEqual({ deleted: true });
    expect(await webhooks().getHostToolsUrl(account.owner)).toEqual({ webhookURL: null });
    expect(await hostToolsRows(account.accountId)).toEqual([]);
    expect(await webhooks().deleteHostToolsUrl(account.owner)).toEqual({ deleted: false });
    const deletions = (await auditOf(account.accountId)).filter((entry) => entry.action === 'webhook.delete');
    expect(deletions).toEqual([
      {
        action: 'webhook.delete',
        target_id: mine?.id,
        details: { url: 'https://ht.example.com/full', format: 'hosttools' },
      },
    ]);
    // Setting it again makes a new subscription.
    const again = await webhooks().setHostToolsUrl(account.owner, { url: 'https://ht.example.com/again' });
    expect(again.id).not.toBe(mine?.id);
  });

  it('holds one hosttools subscription per account and known formats in the schema itself', async () => {
    const row = (format: string) => ({
      id: `whk_${format}_${Math.random().toString(36).slice(2)}`,
      account_id: account.accountId,
      url: 'https://ht.example.com/direct',
      events: hostToolsEvents,
      secret: 'whsec_direct',
      format,
    });
    await expect(
      db.insertInto('webhook_subscriptions').values(row('hosttools')).execute(),
    ).rejects.toMatchObject({
      code: '23505',
    });
    await expect(
      db.insertInto('webhook_subscriptions').values(row('zapier')).execute(),
    ).rejects.toMatchObject({
      code: '23514',
    });
  });
});

describe.each(testDatabaseKinds)('rotating a webhook secret on %s', (kind) => {
  const hour = 3_600_000;
  const start = new Date('2026-04-01T12:00:00.000Z').getTime();
  const at = (offsetMs: number) => new Date(start + offsetMs);
  /** A clock the test moves by hand: the overlap ends at a time the test chooses. */
  let nowMs = start;
  const clock: Clock = { now: () => new Date(nowMs) };

  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let account: TestAccount;
  let other: TestAccount;

  const webhooks = () => createWebhookUseCases({ db, clock });
  const secretsOf = (webhookId: string) =>
    db
      .selectFrom('webhook_subscriptions')
      .select(['secret', 'previous_secret', 'previous_secret_expires_at'])
      .where('id', '=', webhookId)
      .executeTakeFirstOrThrow();
  const listed = async (webhookId: string) =>
    (await webhooks().list(account.owner, {})).items.find((webhook) => webhook.id === webhookId);

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    account = await createTestAccount(db);
    other = await createTestAccount(db);
  }, 180_000);

  afterAll(async () => {
    await handle?.close();
  });

  it('shows the new secret once and keeps the old one signing for 24 hours by default, audited without either', async () => {
    nowMs = start;
    const created = await webhooks().create(account.owner, { url: 'https://hooks.example.com/rotate' });
    // The exported type is what the settings page and the REST answer rely on: the secret, shown this once.
    const rotated: RotatedWebhook = await webhooks().rotateSecret(account.owner, { webhookId: created.id });
    const { secret: _created, ...unchanged } = created;
    expect(rotated).toEqual({
      ...unchanged,
      previousSecretExpiresAt: at(24 * hour).toISOString(),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
    });
    expect(rotated.secret).not.toBe(created.secret);
    expect(await secretsOf(created.id)).toEqual({
      secret: rotated.secret,
      previous_secret: created.secret,
      previous_secret_expires_at: at(24 * hour),
    });

    const [webhook] = (await webhooks().list(account.owner, {})).items.filter((w) => w.id === created.id);
    expect(webhook).toEqual({ ...unchanged, previousSecretExpiresAt: at(24 * hour).toISOString() });
    expect(JSON.stringify(webhook)).not.toContain('whsec_');

    const audit = await db
      .selectFrom('audit_log')
      .select(['action', 'user_id', 'details'])
      .where('target_id', '=', created.id)
      .orderBy('id')
      .execute();
    expect(audit.at(-1)).toEqual({
      action: 'webhook.rotate_secret',
      user_id: account.ownerId,
      details: { overlapHours: 24, previousSecretExpiresAt: at(24 * hour).toISOString() },
    });
    expect(JSON.stringify(audit)).not.toContain('whsec_');

    // The overlap ends: the list says only one secret signs, though the column is not cleared.
    nowMs = start + 24 * hour - 1;
    expect((await listed(created.id))?.previousSecretExpiresAt).toBe(at(24 * hour).toISOString());
    nowMs = start + 24 * hour;
    expect((await listed(created.id))?.previousSecretExpiresAt).toBeNull();
  });

  it('stops the old secret at once with an overlap of 0', async () => {
    nowMs = start;
    const created = await webhooks().create(account.owner, { url: 'https://hooks.example.com/at-once' });
    const rotated = await webhooks().rotateSecret(account.owner, { webhookId: created.id, overlapHours: 0 });
    expect(rotated.previousSecretExpiresAt).toBeNull();
    expect(await secretsOf(created.id)).toEqual({
      secret: rotated.secret,
      previous_secret: null,
      previous_secret_expires_at: null,
    });
    // Rotating at once also ends an overlap that an earlier rotation started.
    await webhooks().rotateSecret(account.owner, { webhookId: created.id, overlapHours: 2 });
    await webhooks().rotateSecret(account.owner, { webhookId: created.id, overlapHours: 0 });
    expect(await secretsOf(created.id)).toMatchObject({
      previous_secret: null,
      previous_secret_expires_at: null,
    });
  });

  it('keeps only two secrets when rotated again during an overlap: the one just replaced becomes the previous', async () => {
    nowMs = start;
    const created = await webhooks().create(account.owner, { url: 'https://hooks.example.com/twice' });
    const first = await webhooks().rotateSecret(account.owner, { webhookId: created.id, overlapHours: 48 });
    nowMs = start + hour;
    const second = await webhooks().rotateSecret(account.owner, { webhookId: created.id, overlapHours: 1 });
    expect(new Set([created.secret, first.secret, second.secret]).size).toBe(3);
    expect(second.previousSecretExpiresAt).toBe(at(2 * hour).toISOString());
    expect(await secretsOf(created.id)).toEqual({
      secret: second.secret,
      previous_secret: first.secret,
      previous_secret_expires_at: at(2 * hour),
    });
  });

  it('rotates the Host Tools subscription too', async () => {
    nowMs = start;
    const hostTools = await webhooks().setHostToolsUrl(account.owner, { url: 'https://ht.example.com/hook' });
    const before = await secretsOf(hostTools.id);
    const rotated = await webhooks().rotateSecret(account.owner, {
      webhookId: hostTools.id,
      overlapHours: 6,
    });
    expect(rotated).toMatchObject({
      id: hostTools.id,
      format: 'hosttools',
      previousSecretExpiresAt: at(6 * hour).toISOString(),
    });
    expect(await secretsOf(hostTools.id)).toEqual({
      secret: rotated.secret,
      previous_secret: before.secret,
      previous_secret_expires_at: at(6 * hour),
    });
  });

  it('refuses other accounts, viewers and overlaps out of range, changing nothing', async () => {
    nowMs = start;
    const created = await webhooks().create(account.owner, { url: 'https://hooks.example.com/refused' });
    const before = await secretsOf(created.id);
    const auditBefore = await db.selectFrom('audit_log').select('id').execute();
    await expect(webhooks().rotateSecret(other.owner, { webhookId: created.id })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(
      webhooks().rotateSecret({ ...account.owner, role: 'viewer' }, { webhookId: created.id }),
    ).rejects.toMatchObject({ code: 'permission_denied' });
    for (const overlapHours of [-1, 169, 1.5]) {
      await expect(
        webhooks().rotateSecret(account.owner, { webhookId: created.id, overlapHours }),
      ).rejects.toMatchObject({ code: 'invalid_argument' });
    }
    await expect(
      webhooks().rotateSecret(account.owner, {} as RotateWebhookSecretInput),
    ).rejects.toMatchObject({ code: 'invalid_argument' });
    expect(await secretsOf(created.id)).toEqual(before);
    expect(await db.selectFrom('audit_log').select('id').execute()).toHaveLength(auditBefore.length);
    // 168 hours, a week, is the longest overlap.
    const week = await webhooks().rotateSecret(account.owner, { webhookId: created.id, overlapHours: 168 });
    expect(week.previousSecretExpiresAt).toBe(at(168 * hour).toISOString());
  });
});
