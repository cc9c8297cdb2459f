import type { Clock, RunDueMessageRulesResult } from '@innkeep/domain';
import { createMessageRuleRunner, type DatabaseHandle } from '@innkeep/storage';
import { sql } from 'kysely';

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
): Promise<RunDueMessageRulesResult | null> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ locked: boolean }>`
      select pg_try_advisory_xact_lock(${messageRuleLockKey}::bigint) as locked`.execute(trx);
    if (rows[0]?.locked !== true) return null;
    return createMessageRuleRunner({ db: trx, clock }).runDue();
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
  /** Time between runs; default one minute. */
  readonly intervalMs?: number;
  /** Time from start to the first run, so startup is not slowed by it; default 10 seconds. */
  readonly firstRunDelayMs?: number;
  /** Told how each run ended and how long it took (the metrics count them). */
  readonly onRun?: (run: MessageRuleJobRun) => void;
}

/** One finished run of the job; `skipped` when another instance held the lock and ran it instead. */
export interface MessageRuleJobRun {
  readonly outcome: 'success' | 'failure' | 'skipped';
  readonly durationMs: number;
}

/** The background job that sends due message rules. */
export interface MessageRuleJob {
  /** Stops scheduling runs and waits for a run in progress, so the database can close after it. */
  stop(): Promise<void>;
}

/**
 * Runs {@link runMessageRulesOnce} in the background every minute. Its timers do not keep the process alive,
 * a run still going when the next is due is not doubled, and a failed run is logged and retried at the next
 * tick rather than ending the server.
 */
export function startMessageRuleJob(options: MessageRuleJobOptions): MessageRuleJob {
  const { db, clock, log } = options;
  let running: Promise<void> | undefined;
  let interval: NodeJS.Timeout | undefined;

  const tick = () => {
    if (running !== undefined) return;
    const startedAt = performance.now();
    const report = (outcome: MessageRuleJobRun['outcome']) =>
      options.onRun?.({ outcome, durationMs: performance.now() - startedAt });
    running = runMessageRulesOnce(db, clock)
      .then((result) => {
        if (result !== null && result.sent + result.skipped > 0) {
          log.info({ sent: result.sent, skipped: result.skipped }, 'Sent due message rules');
        }
        report(result === null ? 'skipped' : 'success');
      })
      .catch((error: unknown) => {
        log.error({ err: error }, 'Sending due message rules failed; retrying at the next run');
        report('failure');
      })
      .finally(() => {
        running = undefined;
      });
  };

  const first = setTimeout(() => {
    tick();
    interval = setInterval(tick, options.intervalMs ?? 60_000);
    interval.unref();
  }, options.firstRunDelayMs ?? 10_000);
  first.unref();

  return {
    async stop() {
      clearTimeout(first);
      clearInterval(interval);
      await running;
    },
  };
}
