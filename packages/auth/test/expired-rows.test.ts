import { testDatabaseKinds } from '@innkeep/storage/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expiredRowsBatchSize, removeExpiredAuthRows } from '../src/postgres/expired-rows.ts';
import { loginThrottlePolicy } from '../src/postgres/login-throttle.ts';
import { stepUpMarkLifetimeMs } from '../src/postgres/step-up-marks.ts';
import { sessionIdleTimeoutMs } from '../src/postgres/web-sessions.ts';
import { createHost, openPagesWorld, type PagesWorld } from './support/account-pages-harness.ts';

const minuteMs = 60_000;
const keyColumns = {
  oidc_model: 'id',
  login_throttle: 'key',
  web_sessions: 'id_hash',
  oauth_step_up_marks: 'grant_id',
} as const;

describe.each(testDatabaseKinds)('removing expired auth rows on %s', (kind) => {
  let world: PagesWorld;
  let now: Date;
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const later = (ms: number) => new Date(now.getTime() + ms);

  beforeAll(async () => {
    world = await openPagesWorld(kind);
    now = world.clock.now();
  }, 180_000);

  afterAll(async () => {
    await world?.close();
  });

  /** The keys left in `table`, sorted. */
  async function idsOf(table: keyof typeof keyColumns): Promise<string[]> {
    const { rows } = await sql<{ id: string }>`
      select ${sql.ref(keyColumns[table])} as id from ${sql.table(table)} order by 1`.execute(world.db);
    return rows.map((row) => row.id);
  }

  it('removes what has expired, keeps what is live, and counts each kind', async () => {
    const oidcRow = (id: string, expiresAt: Date | null) => ({
      model: 'AccessToken',
      id,
      payload: JSON.stringify({ jti: id }),
      expires_at: expiresAt,
    });
    await world.db
      .insertInto('oidc_model')
      .values([
        oidcRow('expired', ago(1)),
        oidcRow('expires-now', now),
        oidcRow('live', later(minuteMs)),
        oidcRow('no-expiry', null),
      ])
      .execute();

    const windowMs = loginThrottlePolicy.emailAddress.windowMs;
    await world.db
      .insertInto('login_throttle')
      .values([
        // Window over, never locked: its failures count for nothing any more.
        { key: 'ip:window-over', failures: 3, window_started_at: ago(windowMs), locked_until: null },
        // Window over and lock ended.
        { key: 'ip:lock-ended', failures: 50, window_started_at: ago(windowMs * 2), locked_until: ago(1) },
        // Window over, but the lock still runs.
        {
          key: 'ip:still-locked',
          failures: 50,
          window_started_at: ago(windowMs * 2),
          locked_until: later(minuteMs),
        },
        // Window still open: the failures still count.
        { key: 'ip:window-open', failures: 2, window_started_at: ago(windowMs - 1), locked_until: null },
      ])
      .execute();

    const host = await createHost(world);
    const session = (idHash: string, lastSeenAt: Date, expiresAt: Date) => ({
      id_hash: idHash,
      user_id: host.userId,
      created_at: ago(60 * minuteMs),
      last_seen_at: lastSeenAt,
      expires_at: expiresAt,
      user_agent: 'Firefox on Linux',
      ip_address: '203.0.113.1',
    });
    await world.db
      .insertInto('web_sessions')
      .values([
        session('session-ended', ago(1), ago(1)),
        session('session-idle', ago(sessionIdleTimeoutMs), later(minuteMs)),
        session('session-live', ago(minuteMs), later(minuteMs)),
      ])
      .execute();

    await world.db
      .insertInto('oauth_step_up_marks')
      .values([
        { grant_id: 'grant-stale', scopes: 'calendar:write', marked_at: ago(stepUpMarkLifetimeMs) },
        { grant_id: 'grant-fresh', scopes: 'calendar:write', marked_at: ago(stepUpMarkLifetimeMs - 1) },
      ])
      .execute();

    expect(await removeExpiredAuthRows(world.db, now)).toEqual({
      oidcModels: 2,
      loginThrottles: 2,
      webSessions: 2,
      stepUpMarks: 1,
    });
    expect(await idsOf('oidc_model')).toEqual(['live', 'no-expiry']);
    expect(await idsOf('login_throttle')).toEqual(['ip:still-locked', 'ip:window-open']);
    expect(await idsOf('web_sessions')).toEqual(['session-live']);
    expect(await idsOf('oauth_step_up_marks')).toEqual(['grant-fresh']);

    expect(await removeExpiredAuthRows(world.db, now)).toEqual({
      oidcModels: 0,
      loginThrottles: 0,
      webSessions: 0,
      stepUpMarks: 0,
    });
  });

  it('removes a backlog larger than one batch', async () => {
    const rows = Array.from({ length: expiredRowsBatchSize + 1 }, (_, index) => ({
      model: 'Session',
      id: `backlog-${index}`,
      payload: '{}',
      expires_at: ago(minuteMs),
    }));
    for (let offset = 0; offset < rows.length; offset += 1_000) {
      await world.db
        .insertInto('oidc_model')
        .values(rows.slice(offset, offset + 1_000))
        .execute();
    }
    expect(await removeExpiredAuthRows(world.db, now)).toMatchObject({
      oidcModels: expiredRowsBatchSize + 1,
    });
    expect(await idsOf('oidc_model')).toEqual(['live', 'no-expiry']);
  });
});
