import { randomBytes } from 'node:crypto';
import type { Migration } from 'kysely/migration';
import pg from 'pg';
import { type DatabaseHandle, openDatabase } from './connection.ts';
import { migrateToLatest } from './migrate.ts';
import { domainMigrations } from './migrations/index.ts';

/** The two databases every domain test runs against. */
export const testDatabaseKinds = ['pglite', 'postgres'] as const;

/** One of {@link testDatabaseKinds}. */
export type TestDatabaseKind = (typeof testDatabaseKinds)[number];

/** PostgreSQL server used by tests; each test file gets its own fresh database on it. */
export const testServerUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A test database; `url` is set for PostgreSQL, so a second server process can share the database. */
export type TestDatabase = DatabaseHandle & { readonly url?: string };

/**
 * A migrated, empty database of the given kind, private to the caller: an in-memory PGlite, or a new
 * database on the test PostgreSQL server that `close()` drops again.
 * @param migrations - what to run; other packages add theirs to the domain's.
 */
export async function openTestDatabase(
  kind: TestDatabaseKind,
  migrations: Readonly<Record<string, Migration>> = domainMigrations,
): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const handle = await openDatabase({ kind: 'pglite' });
    await migrateToLatest(handle.db, migrations);
    return handle;
  }
  const name = `innkeep_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdminClient((client) => client.query(`create database ${name}`));
  const url = new URL(testServerUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 20 });
  await migrateToLatest(handle.db, migrations);
  return {
    db: handle.db,
    kind: 'postgres',
    url: url.toString(),
    close: async () => {
      await handle.close();
      await withAdminClient((client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}

async function withAdminClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: testServerUrl });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `Tests need PostgreSQL at ${testServerUrl} (set TEST_DATABASE_URL to use another). ` +
        'Start it with: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start',
      { cause: error },
    );
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
