import type { Database, DatabaseHandle } from '@innkeep/storage';
import { openTestDatabase, testDatabaseKinds } from '@innkeep/storage/testing';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoDerivedTables } from '../src/demo-statistics.ts';
import { demoTables } from '../src/demo-writer.ts';
import { type DemoSummary, seedDemoData } from '../src/seed-demo-data.ts';

const today = '2026-11-21';
// The planner's estimate may differ from the truth by this fraction and still be "close".
const tolerance = 0.2;

/** Rows per table of the current schema. */
async function rowCounts(db: Kysely<Database>): Promise<Map<string, number>> {
  const { rows: tables } = await sql<{ name: string }>`
    select tablename as name from pg_tables where schemaname = current_schema() order by tablename`.execute(
    db,
  );
  const counts = new Map<string, number>();
  for (const { name } of tables) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(name)}`.execute(db);
    counts.set(name, rows[0]?.n ?? 0);
  }
  return counts;
}

/** The planner's row estimate for a query, from its plan's top node. */
async function estimatedRows(db: Kysely<Database>, query: RawBuilder<unknown>): Promise<number> {
  const { rows } = await sql<{ 'QUERY PLAN': unknown }>`explain (format json) ${query}`.execute(db);
  const plan = rows[0]?.['QUERY PLAN'];
  // pg parses the json column; PGlite may hand it over as text.
  const parsed = (typeof plan === 'string' ? JSON.parse(plan) : plan) as { Plan: { 'Plan Rows': number } }[];
  return parsed[0]?.Plan['Plan Rows'] ?? Number.NaN;
}

function expectClose(estimate: number, actual: number, what: string): void {
  expect(actual, `${what}: rows`).toBeGreaterThan(0);
  expect(
    Math.abs(estimate - actual) / actual,
    `${what}: estimate ${estimate} for ${actual} rows`,
  ).toBeLessThanOrEqual(tolerance);
}

describe.each(testDatabaseKinds)('planner statistics right after seeding on %s', (kind) => {
  let database: DatabaseHandle;
  let db: Kysely<Database>;
  let summary: DemoSummary;
  let before: Map<string, number>;
  let after: Map<string, number>;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    db = database.db;
    before = await rowCounts(db);
    summary = await seedDemoData(db, { today, listings: 4, historyYears: 1, forwardMonths: 6 });
    after = await rowCounts(db);
  }, 180_000);

  afterAll(async () => {
    await database?.close();
  });

  it('gives the planner a row count close to the real one for every derived table', async () => {
    for (const table of demoDerivedTables) {
      const { rows } = await sql<{ reltuples: number }>`
        select reltuples::float8 as reltuples from pg_class
        where oid = to_regclass(${table})`.execute(db);
      expectClose(Number(rows[0]?.reltuples), after.get(table) ?? 0, `${table} reltuples`);
      expectClose(
        await estimatedRows(db, sql`select * from ${sql.table(table)}`),
        after.get(table) ?? 0,
        table,
      );
    }
  });

  it('leaves the derived tables’ pages all-visible, so their index-only scans read no table pages', async () => {
    for (const table of demoDerivedTables) {
      if ((after.get(table) ?? 0) === 0) continue;
      const { rows } = await sql<{ pages: number; visible: number }>`
        select relpages::int as pages, relallvisible::int as visible from pg_class
        where oid = to_regclass(${table})`.execute(db);
      expect(rows[0]?.visible, `${table} all-visible pages`).toBe(rows[0]?.pages);
    }
  });

  it('lets the planner tell the demo account’s stay nights from the lapsed account’s', async () => {
    // Column statistics, not just a table size: with none, the planner guesses an equality matches 0.5 % of
    // the rows, when nearly all of them are the demo account's.
    for (const accountId of [summary.accountId, summary.lapsedAccountId]) {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from stay_night_facts where account_id = ${accountId}`.execute(db);
      const estimate = await estimatedRows(
        db,
        sql`select * from stay_night_facts where account_id = ${sql.lit(accountId)}`,
      );
      expectClose(estimate, rows[0]?.n ?? 0, `stay_night_facts of ${accountId}`);
    }
  });

  it('has gathered statistics for every table the load wrote, and names only tables it fills', async () => {
    const written = [...after]
      .filter(([table, rows]) => rows > (before.get(table) ?? 0))
      .map(([table]) => table);
    const { rows } = await sql<{ name: string }>`
      select distinct tablename as name from pg_stats where schemaname = current_schema()`.execute(db);
    const withStatistics = new Set(rows.map((row) => row.name));
    expect(written.filter((table) => !withStatistics.has(table))).toEqual([]);
    for (const table of [...demoTables, ...demoDerivedTables]) expect(written, table).toContain(table);
  });
});
