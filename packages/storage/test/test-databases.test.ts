import { randomBytes } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { expect, it } from 'vitest';
import { domainMigrations } from '../src/migrations/index.ts';
import { openTestDatabase } from '../src/testing.ts';

const copies = fileURLToPath(
  new URL('../../../node_modules/.cache/innkeep-test-databases/', import.meta.url),
);
const listCopies = () => {
  try {
    return readdirSync(copies);
  } catch {
    return [];
  }
};

it('opens PGlite test databases from one stored migrated copy, each database its own', async () => {
  // A migration set of its own, so this test makes (and then removes) a copy no other test reads.
  const marker: Migration = {
    up: async (db) => {
      await sql`create table copy_marker (n integer)`.execute(db);
    },
  };
  const migrations = { ...domainMigrations, [`9999_copy_marker_${randomBytes(4).toString('hex')}`]: marker };
  const before = new Set(listCopies());
  const first = await openTestDatabase('pglite', migrations);
  const made = listCopies().filter((name) => !before.has(name));
  const second = await openTestDatabase('pglite', migrations);
  try {
    expect(made).toEqual([expect.stringMatching(/^pglite-[0-9a-f]{16}\.tar$/)]);
    for (const database of [first, second]) {
      const { rows } = await sql<{ ran: number }>`select count(*)::int as ran from kysely_migration`.execute(
        database.db,
      );
      expect(rows[0]?.ran).toBe(Object.keys(migrations).length);
    }
    await sql`insert into copy_marker values (1)`.execute(first.db);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from copy_marker`.execute(second.db);
    expect(rows[0]?.n).toBe(0);
  } finally {
    await first.close();
    await second.close();
    for (const name of made) rmSync(join(copies, name), { force: true });
  }
  expect(listCopies().filter((name) => made.some((copy) => name.startsWith(copy)))).toEqual([]);
});
