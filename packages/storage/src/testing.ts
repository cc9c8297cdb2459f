import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
  if (kind === 'pglite') return openDatabase({ kind: 'pglite', initialData: await migratedCopy(migrations) });
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

// Every test file opens its own PGlite, and an empty one takes some 1.6 s of CPU to create plus 0.5 s to
// migrate; the suites open a few hundred while CI runs them all at once on two cores. So the first file to ask
// for a set of migrations stores a migrated copy, and every later one, in any worker, opens that in ~0.4 s.
// The copy lives beside the installed packages, so a fresh install starts without one.
const migratedCopies = fileURLToPath(
  new URL('../../../node_modules/.cache/innkeep-test-databases/', import.meta.url),
);
const copiesOfThisProcess = new Map<string, Promise<Blob>>();

/** A PGlite database migrated with `migrations`, as {@link DatabaseHandle.dump} makes it. */
function migratedCopy(migrations: Readonly<Record<string, Migration>>): Promise<Blob> {
  const key = migrationSetKey(migrations);
  let copy = copiesOfThisProcess.get(key);
  if (copy === undefined) {
    copy = readOrMakeCopy(join(migratedCopies, `pglite-${key}.tar`), migrations);
    copiesOfThisProcess.set(key, copy);
  }
  return copy;
}

async function readOrMakeCopy(file: string, migrations: Readonly<Record<string, Migration>>): Promise<Blob> {
  await mkdir(dirname(file), { recursive: true });
  // CI starts a worker per core in every package at once, and each would make the same copy; the first to
  // take the lock makes it while the others wait for the file.
  const lock = `${file}.lock`;
  for (;;) {
    const existing = await readIfThere(file);
    if (existing !== undefined) return existing;
    const held = await open(lock, 'wx').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return undefined;
      throw error;
    });
    if (held === undefined) {
      await dropStaleLock(lock);
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    try {
      return (await readIfThere(file)) ?? (await makeCopy(file, migrations));
    } finally {
      await held.close();
      await rm(lock, { force: true });
    }
  }
}

async function readIfThere(file: string): Promise<Blob | undefined> {
  try {
    return new Blob([await readFile(file)]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Removes a lock older than any copy takes to make: its maker died (a test run stopped midway). */
async function dropStaleLock(lock: string): Promise<void> {
  const taken = await stat(lock).catch(() => undefined);
  if (taken !== undefined && Date.now() - taken.mtimeMs > 120_000) await rm(lock, { force: true });
}

async function makeCopy(file: string, migrations: Readonly<Record<string, Migration>>): Promise<Blob> {
  const handle = await openDatabase({ kind: 'pglite' });
  try {
    await migrateToLatest(handle.db, migrations);
    const copy = await (handle.dump as NonNullable<typeof handle.dump>)();
    // Written aside and renamed, so a worker reading meanwhile sees no copy or a whole one, never half.
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    await writeFile(partial, new Uint8Array(await copy.arrayBuffer()));
    await rename(partial, file);
    return copy;
  } finally {
    await handle.close();
  }
}

/**
 * Names the migrated copy by what it holds: each migration's name and code, and the PGlite release, whose
 * copies another release may not read. A migration edited while working gets a copy of its own.
 */
function migrationSetKey(migrations: Readonly<Record<string, Migration>>): string {
  const hash = createHash('sha256').update(pgliteVersion());
  for (const name of Object.keys(migrations).sort()) {
    const migration = migrations[name] as Migration;
    hash.update(`\0${name}\0${migration.up.toString()}\0${migration.down?.toString() ?? ''}`);
  }
  return hash.digest('hex').slice(0, 16);
}

/** The installed PGlite's version, from its package.json beside its entry point (dist/index.cjs). */
function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const manifest = join(dirname(entry), '..', 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}
