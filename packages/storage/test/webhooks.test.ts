import type { Actor } from '@innkeep/domain';
import { type CreateWebhookInput, isAllowedWebhookUrl, systemClock } from '@innkeep/domain';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { createWebhookUseCases } from '../src/webhooks/webhooks.store.ts';
import { createTestAccount, type TestAccount } from './support/fixtures.ts';

const allEvents = [
  'reservation.created',
  'reservation.updated',
  'reservation.cancelled',
  'message.created',
  'review.created',
  'calendar.updated',
  'listing.updated',
];

describe('isAllowedWebhookUrl', () => {
  it('accepts https anywhere and http only on localhost or 127.0.0.1', () => {
    expect(isAllowedWebhookUrl('https://hooks.example.com/innkeep?x=1')).toBe(true);
    expect(isAllowedWebhookUrl('http://localhost:8080/hook')).toBe(true);
    expect(isAllowedWebhookUrl('http://127.0.0.1/hook')).toBe(true);
    expect(isAllowedWebhookUrl('http://hooks.example.com/hook')).toBe(false);
    expect(isAllowedWebhookUrl('http://localhost.evil.example/hook')).toBe(false);
    expect(isAllowedWebhookUrl('http://127.0.0.1.nip.io/hook')).toBe(false);
    expect(isAllowedWebhookUrl('ftp://example.com/')).toBe(false);
    expect(isAllowedWebhookUrl('hooks.example.com')).toBe(false);
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
  }, 60_000);

  afterAll(async () => {
    await handle?.close();
  });

  it('creates a subscription to every event by default and shows the secret only then', async () => {
    const created = await webhooks().create(account.owner, { url: 'https://hooks.example.com/a' });
    expect(created).toEqual({
      id: expect.stringMatching(/^whk_/),
      url: 'https://hooks.example.com/a',
      events: allEvents,
      active: true,
      disabledReason: null,
      consecutiveFailures: 0,
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
