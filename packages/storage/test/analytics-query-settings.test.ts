import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAnalyticsStatement } from '../src/analytics/analytics-query-settings.ts';
import type { DatabaseHandle } from '../src/connection.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';

// Analytics statements sent on their own must get custom plans (a generic plan cannot see the period) and the
// analytics work memory; inside a caller's transaction they run as the caller set it up.

describe.each(testDatabaseKinds)('analytics statement settings on %s', (kind) => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
  }, 180_000);
  afterAll(async () => handle?.close());

  const settings = sql<{ plan_cache_mode: string; work_mem: string }>`
    select current_setting('plan_cache_mode') as plan_cache_mode, current_setting('work_mem') as work_mem`;

  it('runs a statement sent on its own with custom plans and the analytics work memory', async () => {
    const { rows } = await runAnalyticsStatement(handle.db, settings);
    expect(rows).toEqual([{ plan_cache_mode: 'force_custom_plan', work_mem: '64MB' }]);
    // The settings ended with the statement's transaction.
    const after = await settings.execute(handle.db);
    expect(after.rows[0]?.plan_cache_mode).toBe('auto');
  });

  it('runs a statement inside the caller’s transaction as the caller set it up', async () => {
    const rows = await handle.db.transaction().execute(async (trx) => {
      await sql`select set_config('work_mem', '8MB', true)`.execute(trx);
      return (await runAnalyticsStatement(trx, settings)).rows;
    });
    expect(rows).toEqual([{ plan_cache_mode: 'auto', work_mem: '8MB' }]);
  });
});
