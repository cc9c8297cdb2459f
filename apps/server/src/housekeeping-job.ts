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
export interface HousekeepingJobRun {
  readonly outcome: 'success' | 'failure' | 'skipped';
  readonly durationMs: number;
}

/** The background job that removes expired rows. */
export interface HousekeepingJob {
  /** Stops scheduling runs and waits for a run in progress, so the database can close after it. */
  stop(): Promise<void>;
}

/**
 * Runs {@link runHousekeepingOnce} in the background every hour, and once shortly after start. Its timers do
 * not keep the process alive, a run still going when the next is due is not doubled, and a failed run is
 * logged and tried again at the next one rather than ending the server.
 */
export function startHousekeepingJob(options: HousekeepingJobOptions): HousekeepingJob {
  const { db, clock, log, eventRetentionDays } = options;
  let running: Promise<void> | undefined;
  let interval: NodeJS.Timeout | undefined;

  const tick = () => {
    if (running !== undefined) return;
    const startedAt = performance.now();
    const report = (outcome: HousekeepingJobRun['outcome']) =>
      options.onRun?.({ outcome, durationMs: performance.now() - startedAt });
    running = runHousekeepingOnce(db, clock, { eventRetentionDays })
      .then((result) => {
        if (result !== null && Object.values(result).some((count) => count > 0)) {
          log.info(result, 'Removed expired rows');
        }
        report(result === null ? 'skipped' : 'success');
      })
      .catch((error: unknown) => {
        log.error({ err: error }, 'Removing expired rows failed; retrying at the next run');
        report('failure');
      })
      .finally(() => {
        running = undefined;
      });
  };

  const first = setTimeout(() => {
    tick();
    interval = setInterval(tick, options.intervalMs ?? 60 * 60_000);
    interval.unref();
  }, options.firstRunDelayMs ?? 60_000);
  first.unref();

  return {
    async stop() {
      clearTimeout(first);
      clearInterval(interval);
      await running;
    },
  };
}
