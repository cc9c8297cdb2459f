import { idempotencyKeyLifetimeMs } from '@innkeep/domain';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { removeExpiredRows } from '../src/housekeeping.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { createTestAccount, type TestAccount } from './support/fixtures.ts';

const now = new Date('2026-06-01T12:00:00.000Z');
const dayMs = 24 * 60 * 60 * 1000;
const ago = (ms: number) => new Date(now.getTime() - ms);

describe.each(testDatabaseKinds)('housekeeping of expired rows on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let account: TestAccount;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    account = await createTestAccount(db);
    await db
      .insertInto('webhook_subscriptions')
      .values({
        id: 'whs_housekeeping',
        account_id: account.accountId,
        url: 'https://hooks.example.com/in',
        events: ['reservation.created'],
        secret: 'whsec_test',
      })
      .execute();
  }, 180_000);

  beforeEach(async () => {
    await db.deleteFrom('webhook_deliveries').execute();
    await db.deleteFrom('webhook_events').execute();
    await db.deleteFrom('idempotency_keys').execute();
  });

  afterAll(async () => {
    await handle?.close();
  });

  async function addKey(key: string, createdAt: Date): Promise<void> {
    await db
      .insertInto('idempotency_keys')
      .values({
        account_id: account.accountId,
        key,
        request_fingerprint: 'fingerprint',
        response_status: 201,
        response_body: JSON.stringify({ ok: true }),
        created_at: createdAt,
      })
      .execute();
  }

  /** An event created at `created`, fanned out unless `dispatched` is false, with deliveries of `statuses`. */
  async function addEvent(
    id: string,
    created: Date,
    statuses: readonly ('pending' | 'delivered' | 'failed')[],
    dispatched = true,
  ): Promise<void> {
    await db
      .insertInto('webhook_events')
      .values({
        id,
        account_id: account.accountId,
        event: 'reservation.created',
        created,
        data: JSON.stringify({ reservationId: 'res_x' }),
        dispatched_at: dispatched ? created : null,
      })
      .execute();
    for (const [index, status] of statuses.entries()) {
      // One subscription per delivery: (event, subscription) is unique.
      const subscriptionId = `whs_${id}_${index}`;
      await db
        .insertInto('webhook_subscriptions')
        .values({
          id: subscriptionId,
          account_id: account.accountId,
          url: 'https://hooks.example.com/in',
          events: ['reservation.created'],
          secret: 'whsec_test',
        })
        .execute();
      await db
        .insertInto('webhook_deliveries')
        .values({
          id: `whd_${id}_${index}`,
          account_id: account.accountId,
          event_id: id,
          subscription_id: subscriptionId,
          status,
          next_attempt_at: status === 'pending' ? now : null,
          delivered_at: status === 'delivered' ? created : null,
          created_at: created,
        })
        .execute();
    }
  }

  it('removes idempotency keys past 24 hours and keeps fresh ones', async () => {
    await addKey('expired', ago(idempotencyKeyLifetimeMs + 1));
    await addKey('long-expired', ago(7 * dayMs));
    await addKey('fresh', ago(idempotencyKeyLifetimeMs - 1_000));
    expect(await removeExpiredRows(db, now, { eventRetentionDays: 30 })).toEqual({
      idempotencyKeys: 2,
      webhookEvents: 0,
      webhookPreviousSecrets: 0,
    });
    const left = await db.selectFrom('idempotency_keys').select('key').execute();
    expect(left.map((row) => row.key)).toEqual(['fresh']);
  });

  it('removes old finished events with their deliveries, and keeps pending, undispatched and recent ones', async () => {
    await addEvent('evt_old_delivered', ago(31 * dayMs), ['delivered', 'failed']);
    await addEvent('evt_old_none', ago(31 * dayMs), []);
    await addEvent('evt_old_pending', ago(31 * dayMs), ['delivered', 'pending']);
    await addEvent('evt_old_undispatched', ago(31 * dayMs), [], false);
    await addEvent('evt_recent', ago(29 * dayMs), ['delivered']);
    expect(await removeExpiredRows(db, now, { eventRetentionDays: 30 })).toEqual({
      idempotencyKeys: 0,
      webhookEvents: 2,
      webhookPreviousSecrets: 0,
    });
    const events = await db.selectFrom('webhook_events').select('id').orderBy('id').execute();
    expect(events.map((row) => row.id)).toEqual(['evt_old_pending', 'evt_old_undispatched', 'evt_recent']);
    const deliveries = await db.selectFrom('webhook_deliveries').select('id').orderBy('id').execute();
    expect(deliveries.map((row) => row.id)).toEqual([
      'whd_evt_old_pending_0',
      'whd_evt_old_pending_1',
      'whd_evt_recent_0',
    ]);

    // A shorter retention reaches the recent event too.
    expect(await removeExpiredRows(db, now, { eventRetentionDays: 7 })).toEqual({
      idempotencyKeys: 0,
      webhookEvents: 1,
      webhookPreviousSecrets: 0,
    });
  });

  it('forgets previous webhook secrets whose overlap has ended, and keeps those still signing', async () => {
    const subscription = (id: string, expiresAt: Date | null) => ({
      id,
      account_id: account.accountId,
      url: 'https://hooks.example.com/in',
      events: ['reservation.created'],
      secret: `whsec_${id}_new`,
      previous_secret: expiresAt === null ? null : `whsec_${id}_old`,
      previous_secret_expires_at: expiresAt,
    });
    await db
      .insertInto('webhook_subscriptions')
      .values([
        subscription('whs_ended', ago(1_000)),
        subscription('whs_overlapping', new Date(now.getTime() + 60_000)),
        subscription('whs_single', null),
      ])
      .execute();
    expect(await removeExpiredRows(db, now, { eventRetentionDays: 30 })).toMatchObject({
      webhookPreviousSecrets: 1,
    });
    const rows = await db
      .selectFrom('webhook_subscriptions')
      .select(['id', 'secret', 'previous_secret'])
      .where('id', 'in', ['whs_ended', 'whs_overlapping', 'whs_single'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: 'whs_ended', secret: 'whsec_whs_ended_new', previous_secret: null },
      {
        id: 'whs_overlapping',
        secret: 'whsec_whs_overlapping_new',
        previous_secret: 'whsec_whs_overlapping_old',
      },
      { id: 'whs_single', secret: 'whsec_whs_single_new', previous_secret: null },
    ]);
  });

  it('removes a backlog larger than one batch', async () => {
    const rows = Array.from({ length: 5_001 }, (_, index) => ({
      account_id: account.accountId,
      key: `backlog-${index}`,
      request_fingerprint: 'fingerprint',
      response_status: 201,
      response_body: 'null',
      created_at: ago(2 * dayMs),
    }));
    for (let offset = 0; offset < rows.length; offset += 1_000) {
      await db
        .insertInto('idempotency_keys')
        .values(rows.slice(offset, offset + 1_000))
        .execute();
    }
    expect(await removeExpiredRows(db, now, { eventRetentionDays: 30 })).toMatchObject({
      idempotencyKeys: 5_001,
    });
    expect(await db.selectFrom('idempotency_keys').select('key').execute()).toEqual([]);
  });

  it('refuses a retention that is not a whole number of days', async () => {
    await expect(removeExpiredRows(db, now, { eventRetentionDays: 0 })).rejects.toThrow(/at least 1/);
  });
});
