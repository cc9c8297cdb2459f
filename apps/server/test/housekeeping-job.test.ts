import { openAuthTestDatabase } from '@innkeep/auth/testing';
import type { Clock } from '@innkeep/domain';
import type { TestDatabase } from '@innkeep/storage/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type HousekeepingJob,
  type HousekeepingJobRun,
  housekeepingLockKey,
  runHousekeepingOnce,
  startHousekeepingJob,
} from '../src/housekeeping-job.ts';

const now = new Date('2030-05-01T12:00:00Z');
const clock: Clock = { now: () => now };
const retention = { eventRetentionDays: 30 };

/** Inserts `count` oidc-provider rows that expired a minute before `now`; their ids. */
async function seedExpiredTokens(database: TestDatabase, prefix: string, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, index) => `${prefix}-${index}`);
  await sql`
    insert into oidc_model (model, id, payload, expires_at)
    select 'AccessToken', id, '{}'::jsonb, ${new Date(now.getTime() - 60_000)}
    from unnest(${ids}::text[]) as id`.execute(database.db);
  return ids;
}

async function tokensLeft(database: TestDatabase, ids: string[]): Promise<number> {
  const { rows } = await sql<{ left: number }>`
    select count(*)::int as left from oidc_model where id = any(${ids}::text[])`.execute(database.db);
  return rows[0]?.left ?? -1;
}

async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const noneRemoved = {
  oidcModels: 0,
  loginThrottles: 0,
  webSessions: 0,
  stepUpMarks: 0,
  idempotencyKeys: 0,
  webhookEvents: 0,
  webhookPreviousSecrets: 0,
};

describe('housekeeping job on PostgreSQL', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await openAuthTestDatabase('postgres');
  });

  afterAll(async () => {
    await database?.close();
  });

  it('does nothing while another instance holds the lock, and removes once it is free', async () => {
    const ids = await seedExpiredTokens(database, 'held', 3);
    await database.db.connection().execute(async (other) => {
      await sql`select pg_advisory_lock(${housekeepingLockKey}::bigint)`.execute(other);
      try {
        expect(await runHousekeepingOnce(database.db, clock, retention)).toBeNull();
        expect(await tokensLeft(database, ids)).toBe(3);
      } finally {
        await sql`select pg_advisory_unlock(${housekeepingLockKey}::bigint)`.execute(other);
      }
    });
    expect(await runHousekeepingOnce(database.db, clock, retention)).toEqual({
      ...noneRemoved,
      oidcModels: 3,
    });
    expect(await tokensLeft(database, ids)).toBe(0);
  });

  it('of two jobs on one database, one runs while the other skips', async () => {
    const ids = await seedExpiredTokens(database, 'two-jobs', 2);
    const runs: { job: string; run: HousekeepingJobRun }[] = [];
    const logged: object[] = [];
    const start = (job: string) =>
      startHousekeepingJob({
        db: database.db,
        clock,
        log: { info: (details) => logged.push(details), error: (details) => logged.push(details) },
        eventRetentionDays: 30,
        firstRunDelayMs: 0,
        intervalMs: 60_000,
        onRun: (run) => runs.push({ job, run }),
      });
    const lockHeld = async () => {
      const { rows } = await sql<{ held: number }>`
        select count(*)::int as held from pg_locks
        where locktype = 'advisory' and granted and objid = ${housekeepingLockKey}
          and database = (select oid from pg_database where datname = current_database())`.execute(
        database.db,
      );
      return rows[0]?.held === 1;
    };

    // Another session locks one expired row, so the first job's run holds the job lock while it waits.
    let first: HousekeepingJob | undefined;
    await database.db.transaction().execute(async (blocker) => {
      await sql`select id from oidc_model where id = ${ids[0]} for update`.execute(blocker);
      first = start('first');
      await waitFor(lockHeld);
      const second = start('second');
      await waitFor(async () => runs.length === 1);
      await second.stop();
      expect(runs).toEqual([{ job: 'second', run: { outcome: 'skipped', durationMs: expect.any(Number) } }]);
      // The blocker commits as this callback returns; the first job then finishes.
    });
    await waitFor(async () => runs.length === 2);
    await first?.stop();
    expect(runs[1]).toEqual({ job: 'first', run: { outcome: 'success', durationMs: expect.any(Number) } });
    expect(logged).toEqual([{ ...noneRemoved, oidcModels: 2 }]);
    expect(await tokensLeft(database, ids)).toBe(0);
    expect(await lockHeld()).toBe(false);
  });

  it('logs a failed run instead of throwing, reports it, and stops cleanly', async () => {
    const errors: object[] = [];
    const runs: HousekeepingJobRun[] = [];
    const broken = { connection: () => ({ execute: () => Promise.reject(new Error('database is gone')) }) };
    const job = startHousekeepingJob({
      db: broken as unknown as TestDatabase['db'],
      clock,
      log: { info: () => {}, error: (details) => errors.push(details) },
      eventRetentionDays: 30,
      firstRunDelayMs: 0,
      intervalMs: 1_000,
      onRun: (run) => runs.push(run),
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await job.stop();
    expect(errors).toHaveLength(1);
    expect(runs).toEqual([{ outcome: 'failure', durationMs: expect.any(Number) }]);
  });
});

describe('housekeeping job on the embedded database', () => {
  it('takes the same lock and removes what expired', async () => {
    const database = await openAuthTestDatabase('pglite');
    try {
      const ids = await seedExpiredTokens(database, 'embedded', 2);
      expect(await runHousekeepingOnce(database.db, clock, retention)).toEqual({
        ...noneRemoved,
        oidcModels: 2,
      });
      expect(await runHousekeepingOnce(database.db, clock, retention)).toEqual(noneRemoved);
      expect(await tokensLeft(database, ids)).toBe(0);
    } finally {
      await database.close();
    }
  });
});
