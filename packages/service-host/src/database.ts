import { join, resolve } from 'node:path';
import { authMigrations } from '@innkeep/auth';
import {
  type DatabaseHandle,
  domainMigrations,
  type HelpSyncResult,
  migrateToLatest,
  openDatabase,
  syncHelpArticles,
} from '@innkeep/storage';
import { z } from 'zod';
import { lockDataDir } from './data-dir-lock.ts';

/** Where the account data lives: a PostgreSQL server, or the embedded database in a directory. */
export type DatabaseConfig =
  | { readonly kind: 'postgres'; readonly url: string }
  | {
      readonly kind: 'pglite';
      /** DATA_DIR: holds the database (in `pglite/`), the generated secret keys and the lock file. */
      readonly dataDir: string;
    };

/** DATABASE_URL, or the embedded database in DATA_DIR without it. */
export const databaseShape = {
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' })
    .optional(),
  DATA_DIR: z.string().optional(),
};

/** The {@link DatabaseConfig} of an environment parsed with {@link databaseShape}. */
export function databaseConfig(
  parsed: { DATABASE_URL?: string | undefined; DATA_DIR?: string | undefined },
  defaultDataDir: string,
): DatabaseConfig {
  return parsed.DATABASE_URL !== undefined
    ? { kind: 'postgres', url: parsed.DATABASE_URL }
    : { kind: 'pglite', dataDir: resolve(parsed.DATA_DIR ?? defaultDataDir) };
}

/** What {@link openConfiguredDatabase} tells its caller. */
export interface OpenDatabaseOptions {
  /** PostgreSQL only: told once per pooled connection that was lost (see `DatabaseTarget`). */
  readonly onConnectionError?: ((error: Error) => void) | undefined;
}

/**
 * Opens the configured database. The embedded one is locked to this process until `close()`, because two
 * processes on one PGlite directory corrupt it.
 *
 * @throws {@link DataDirInUseError} when another live process has the embedded database open.
 */
export async function openConfiguredDatabase(
  config: DatabaseConfig,
  options: OpenDatabaseOptions = {},
): Promise<DatabaseHandle> {
  if (config.kind === 'postgres') {
    return openDatabase({ ...config, onConnectionError: options.onConnectionError });
  }
  const release = lockDataDir(config.dataDir);
  try {
    const handle = await openDatabase({ kind: 'pglite', dataDir: join(config.dataDir, 'pglite') });
    return {
      db: handle.db,
      kind: handle.kind,
      close: async () => {
        try {
          await handle.close();
        } finally {
          release();
        }
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

/**
 * Brings the schema to the latest migration: the domain's tables, then the authorization server's. Safe
 * for several processes at once (the migrator locks).
 *
 * @returns the names of the migrations that ran now; empty when the schema was current.
 */
export function migrateDatabase(db: DatabaseHandle['db']): Promise<string[]> {
  return migrateToLatest(db, { ...domainMigrations, ...authMigrations });
}

/** What {@link prepareDatabase} changed. */
export interface DatabasePreparation {
  /** Names of the migrations that ran now; empty when the schema was current. */
  readonly migrations: readonly string[];
  /** Help article slugs added, updated and removed to match this release. */
  readonly helpArticles: HelpSyncResult;
}

/**
 * Brings a database up to date: the schema ({@link migrateDatabase}), then the help articles to the ones
 * this release ships. The Innkeep server runs it on every start and the CLI before every command, so an
 * operator never has to remember a separate step; both parts do nothing when nothing changed.
 */
export async function prepareDatabase(db: DatabaseHandle['db']): Promise<DatabasePreparation> {
  const migrations = await migrateDatabase(db);
  const helpArticles = await syncHelpArticles(db);
  return { migrations, helpArticles };
}

/**
 * A sentence for the failures an operator fixes in DATABASE_URL or on the database server, so they need no
 * stack trace; undefined for anything else.
 */
export function explainDatabaseError(error: unknown): string | undefined {
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  switch (code) {
    case 'ECONNREFUSED':
      return 'the PostgreSQL server in DATABASE_URL refused the connection; is it running, on that host and port?';
    case 'ENOTFOUND':
      return 'the host in DATABASE_URL was not found; check its spelling.';
    case '28P01':
    case '28000':
      return 'PostgreSQL refused the user or password in DATABASE_URL.';
    case '3D000':
      return 'the database named in DATABASE_URL does not exist; create it first (e.g. with createdb).';
    default:
      return undefined;
  }
}
