import { authMigrations } from '@innkeep/auth';
import { demoLogin, scaleDemoOptions, seedDemoData } from '@innkeep/demo';
import {
  createOperatorUseCases,
  type DatabaseHandle,
  domainMigrations,
  migrateToLatest,
  openDatabase,
} from '@innkeep/storage';
import { sql } from 'kysely';
import pg from 'pg';

/** The database the benchmark measures, the demo owner who asks, and how to let go of it. */
export interface BenchDataset {
  readonly handle: DatabaseHandle;
  readonly accountId: string;
  readonly ownerUserId: string;
  /** True when the database was made for this run (and is dropped by {@link BenchDataset.release}). */
  readonly fresh: boolean;
  /** Closes the pool and drops the database when this run created it. */
  release(): Promise<void>;
}

/** Where the dataset comes from: an already seeded database, or a server to create a fresh one on. */
export type DatasetSource =
  | { readonly kind: 'reuse'; readonly url: string }
  | {
      readonly kind: 'fresh';
      readonly serverUrl: string;
      readonly today: string;
      /** Listings to seed; the scale demo's 2,000 when absent. */
      readonly listings?: number;
    };

/**
 * Opens the benchmark's dataset. A reused database is only analysed (fresh planner statistics change no
 * data). A fresh one is created, migrated like the server does (domain then authorization tables), seeded
 * with the scale demo (2,000 listings unless told otherwise, three years of history; about five minutes at
 * 2,000) and vacuumed, and dropped again on release.
 */
export async function openBenchDataset(source: DatasetSource): Promise<BenchDataset> {
  if (source.kind === 'reuse') {
    const handle = await openDatabase({ kind: 'postgres', url: source.url });
    try {
      await sql`analyze`.execute(handle.db);
      const owner = await findDemoOwner(handle);
      return { handle, ...owner, fresh: false, release: () => handle.close() };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  const databaseName = `innkeep_bench_analytics_${process.pid}_${source.listings ?? scaleDemoOptions.listings}`;
  await admin(source.serverUrl, `create database ${databaseName}`);
  const drop = () => admin(source.serverUrl, `drop database if exists ${databaseName} with (force)`);
  let handle: DatabaseHandle | undefined;
  try {
    handle = await openDatabase({ kind: 'postgres', url: withDatabase(source.serverUrl, databaseName) });
    await migrateToLatest(handle.db, { ...domainMigrations, ...authMigrations });
    let lastPrinted = { phase: '', percent: 0 };
    await seedDemoData(handle.db, {
      ...scaleDemoOptions,
      listings: source.listings ?? scaleDemoOptions.listings,
      today: source.today,
      onProgress: ({ phase, done, total }) => {
        // One line per phase and every five percent: enough to see it move without flooding a log.
        const percent = Math.floor((done / total) * 100);
        if (phase === lastPrinted.phase && percent < lastPrinted.percent + 5 && done !== total) return;
        lastPrinted = { phase, percent };
        process.stderr.write(`  seeding ${phase}: ${done}/${total}\n`);
      },
    });
    await sql`vacuum analyze`.execute(handle.db);
    const owner = await findDemoOwner(handle);
    const opened = handle;
    return {
      handle: opened,
      ...owner,
      fresh: true,
      release: async () => {
        await opened.close();
        await drop();
      },
    };
  } catch (error) {
    await handle?.close();
    await drop();
    throw error;
  }
}

/** The demo account and its owner, found by the owner's e-mail. */
async function findDemoOwner(handle: DatabaseHandle): Promise<{ accountId: string; ownerUserId: string }> {
  const clock = { now: () => new Date() };
  const owner = await createOperatorUseCases({ db: handle.db, clock }).findUserByEmail(demoLogin.email);
  if (owner === null)
    throw new Error(`No demo account (${demoLogin.email}) in this database; seed it first.`);
  return { accountId: owner.accountId, ownerUserId: owner.userId };
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

async function admin(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
