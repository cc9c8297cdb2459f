import { type CalendarImportTick, runCalendarImports } from '@innkeep/calendar-feeds';
import type { Clock } from '@innkeep/domain';
import { createCalendarImportQueue, type DatabaseHandle } from '@innkeep/storage';
import type { JobLogger } from './message-rule-job.ts';
import { type PeriodicJob, type PeriodicJobRun, startPeriodicJob } from './periodic-job.ts';

/** Options of {@link startCalendarImportJob}; the delays and the timeout are for tests. */
export interface CalendarImportJobOptions {
  readonly db: DatabaseHandle['db'];
  readonly clock: Clock;
  readonly log: JobLogger;
  /** Minutes between two polls of one link's calendar (CALENDAR_IMPORT_INTERVAL_MINUTES). */
  readonly pollIntervalMinutes: number;
  /** Fetch over http and from private addresses too (CALENDAR_IMPORT_ALLOW_PRIVATE). */
  readonly allowPrivate: boolean;
  /** How long one fetch may take; default the fetcher's 20 seconds. */
  readonly timeoutMs?: number;
  /**
   * Time between ticks; default 10 seconds. A tick only claims links whose next poll is due, so this bounds
   * how late a poll can start (and how soon a newly set URL is first read), not how often a feed is fetched.
   */
  readonly intervalMs?: number;
  /** Time from start to the first tick, so startup is not slowed by it; default 5 seconds. */
  readonly firstRunDelayMs?: number;
  /** Told how each tick ended and how long it took (the metrics count them). */
  readonly onRun?: (run: PeriodicJobRun) => void;
}

/**
 * Polls the channel calendars of channel links in the background (see `runCalendarImports`). Every instance
 * runs it; the queue's leases give each due link to one instance, and each link's next poll is stored with
 * it, so a restart loses nothing: what was due is claimed by the next tick of any instance, and a poll cut
 * short is claimed again when its lease runs out. A failed tick is logged and tried again at the next one.
 */
export function startCalendarImportJob(options: CalendarImportJobOptions): PeriodicJob {
  const { db, clock, log } = options;
  const queue = createCalendarImportQueue({ db, clock });
  return startPeriodicJob({
    async run() {
      const tick = await runCalendarImports(queue, {
        intervalMs: options.pollIntervalMinutes * 60_000,
        allowPrivate: options.allowPrivate,
        now: () => clock.now(),
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      });
      logNotable(log, tick);
      return 'success';
    },
    intervalMs: options.intervalMs ?? 10_000,
    firstRunDelayMs: options.firstRunDelayMs ?? 5_000,
    onFailure: (error) =>
      log.error({ err: error }, 'Polling channel calendars failed; retrying at the next tick'),
    onRun: options.onRun,
  });
}

/** Logs what the operator may need to know about: feeds that failed, and links the queue could not record. */
function logNotable(log: JobLogger, tick: CalendarImportTick): void {
  if (tick.failed + tick.errors > 0) {
    log.info(
      { imported: tick.imported, unchanged: tick.unchanged, failed: tick.failed, errors: tick.errors },
      'Some channel calendars could not be imported; see the links’ calendarImport.lastError',
    );
  }
}
