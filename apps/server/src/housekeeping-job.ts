import { type RemovedAuthRows, removeExpiredAuthRows, withAuthTables } from '@innkeep/auth';
import type { Clock } from '@innkeep/domain';
import {
  type DatabaseHandle,
  type RemovedRows,
  type RemoveExpiredRowsOptions,
  removeExpiredRows,
} from '@innkeep/storage';
import { sql } from 'kysely';
import type { JobLogger } from './message-rule-job.ts';
import { type PeriodicJob, type PeriodicJobRun, startPeriodicJob } from './periodic-job.ts';

/**
 * The advisory lock key the housekeeping job holds while it runs ("IKHK" in ASCII), so that of several
 * instances on one database only one removes expired rows at a time. Any other user of advisory locks must
 * pick another (the message rule job holds "IKMR").
 */
export const housekeepingLockKey = 0x494b_484b;

/** What one run removed, by kind. */
export interface HousekeepingResult extends RemovedAuthRows, RemovedRows {}

/**
 * Removes every kind of expired row once, while holding {@link housekeepingLockKey}. The lock is a session
 * lock on one connection, which runs the deletes too: each batch commits on its own, so no transaction spans
 * the run and no row stays locked longer than its batch, while the lock still spans the whole run. It ends
 * with the session if the process dies mid-run.
 *
 * @returns what was removed, or `null` when another instance is running right now.
 */
export async function runHousekeepingOnce(
  db: DatabaseHandle['db'],
  clock: Clock,
  options: RemoveExpiredRowsOptions,
): Promise<HousekeepingResult | null> {
  return db.connection().execute(async (connection) => {
    const { rows } = await sql<{ locked: boolean }>`
      select pg_try_advisory_lock(${housekeepingLockKey}::bigint) as locked`.execute(connection);
    if (rows[0]?.locked !== true) return null;
    try {
      const now = clock.now();
      const auth = await removeExpiredAuthRows(withAuthTables(connection), now);
      const storage = await removeExpiredRows(connection, now, options);
      return { ...auth, ...storage };
    } finally {
      await sql`select pg_advisory_unlock(${housekeepingLockKey}::bigint)`.execute(connection);
    }
  });
}

/** Options of {@link startHousekeepingJob}; the delays are for tests. */
export interface HousekeepingJobOptions {
  readonly db: DatabaseHandle['db'];
  readonly clock: Clock;
  readonly log: JobLogger;
  /** Days delivered webhook events are kept (`WEBHOOK_EVENT_RETENTION_DAYS`). */
  readonly eventRetentionDays: number;
  /** Time between runs; default one hour. */
  readonly intervalMs?: number;
  /** Time from start to the first run, so startup is not slowed by it; default one minute. */
  readonly firstRunDelayMs?: number;
  /** Told how each run ended and how long it took (the metrics count them). */
  readonly onRun?: (run: HousekeepingJobRun) => void;
}

/** One finished run of the job; `skipped` when another instance held the lock and ran it instead. */
export type HousekeepingJobRun = PeriodicJobRun;

/** The background job that removes expired rows. */
export type HousekeepingJob = PeriodicJob;

/**
 * Runs {@link runHousekeepingOnce} in the background every hour, first a minute after start (see
 * {@link startPeriodicJob}).
 */
export function startHousekeepingJob(options: HousekeepingJobOptions): HousekeepingJob {
  const { db, clock, log, eventRetentionDays } = options;
  return startPeriodicJob({
    async run() {
      const result = await runHousekeepingOnce(db, clock, { eventRetentionDays });
      if (result === null) return 'skipped';
      if (Object.values(result).some((count) => count > 0)) log.info(result, 'Removed expired rows');
      return 'success';
    },
    intervalMs: options.intervalMs ?? 60 * 60_000,
    firstRunDelayMs: options.firstRunDelayMs ?? 60_000,
    onFailure: (error) => log.error({ err: error }, 'Removing expired rows failed; retrying at the next run'),
    onRun: options.onRun,
  });
}
