import type { Clock, RunDueMessageRulesResult } from '@innkeep/domain';
import { createMessageRuleRunner, type DatabaseHandle } from '@innkeep/storage';
import { sql } from 'kysely';
import { type PeriodicJob, type PeriodicJobRun, startPeriodicJob } from './periodic-job.ts';

/**
 * The advisory lock key the message rule runner holds while it runs ("IKMR" in ASCII), so that of several
 * instances on one database only one sends at a time. Any other user of advisory locks must pick another.
 */
export const messageRuleLockKey = 0x494b_4d52;

/**
 * Sends the message rules that are due, once, while holding {@link messageRuleLockKey} for the length of one
 * transaction; the lock ends with it, so a crashed run never leaves it held.
 *
 * @returns what was sent, or `null` when another instance is running right now (it sends the same messages).
 */
export async function runMessageRulesOnce(
  db: DatabaseHandle['db'],
  clock: Clock,
  emailDelivery: boolean,
): Promise<RunDueMessageRulesResult | null> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ locked: boolean }>`
      select pg_try_advisory_xact_lock(${messageRuleLockKey}::bigint) as locked`.execute(trx);
    if (rows[0]?.locked !== true) return null;
    return createMessageRuleRunner({ db: trx, clock, emailDelivery }).runDue();
  });
}

/** Where the job reports; Fastify's logger fits. */
export interface JobLogger {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** Options of {@link startMessageRuleJob}; the delays are for tests. */
export interface MessageRuleJobOptions {
  readonly db: DatabaseHandle['db'];
  readonly clock: Clock;
  readonly log: JobLogger;
  /** Whether the messages it writes to direct guests are emailed (SMTP_URL is set). */
  readonly emailDelivery: boolean;
  /** Time between runs; default one minute. */
  readonly intervalMs?: number;
  /** Time from start to the first run, so startup is not slowed by it; default 10 seconds. */
  readonly firstRunDelayMs?: number;
  /** Told how each run ended and how long it took (the metrics count them). */
  readonly onRun?: (run: MessageRuleJobRun) => void;
}

/** One finished run of the job; `skipped` when another instance held the lock and ran it instead. */
export type MessageRuleJobRun = PeriodicJobRun;

/** The background job that sends due message rules. */
export type MessageRuleJob = PeriodicJob;

/**
 * Runs {@link runMessageRulesOnce} in the background every minute, first 10 seconds after start (see
 * {@link startPeriodicJob}).
 */
export function startMessageRuleJob(options: MessageRuleJobOptions): MessageRuleJob {
  const { db, clock, log } = options;
  return startPeriodicJob({
    async run() {
      const result = await runMessageRulesOnce(db, clock, options.emailDelivery);
      if (result === null) return 'skipped';
      if (result.sent + result.skipped > 0) {
        log.info({ sent: result.sent, skipped: result.skipped }, 'Sent due message rules');
      }
      return 'success';
    },
    intervalMs: options.intervalMs ?? 60_000,
    firstRunDelayMs: options.firstRunDelayMs ?? 10_000,
    onFailure: (error) =>
      log.error({ err: error }, 'Sending due message rules failed; retrying at the next run'),
    onRun: options.onRun,
  });
}
