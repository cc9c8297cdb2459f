/** One finished run of a periodic job; `skipped` when another instance held the job's lock and ran it. */
export interface PeriodicJobRun {
  readonly outcome: 'success' | 'failure' | 'skipped';
  readonly durationMs: number;
}

/** What {@link startPeriodicJob} runs, and when. */
export interface PeriodicJobOptions {
  /** One run: `skipped` when another instance holds the lock. A rejection is a failed run. */
  readonly run: () => Promise<'success' | 'skipped'>;
  readonly intervalMs: number;
  /** Time from start to the first run, so startup is not slowed by it. */
  readonly firstRunDelayMs: number;
  /** Told of a failed run; the job goes on at the next tick. */
  readonly onFailure: (error: unknown) => void;
  /** Told how each run ended and how long it took (the metrics count them). */
  readonly onRun?: ((run: PeriodicJobRun) => void) | undefined;
}

/** A background job started by {@link startPeriodicJob}. */
export interface PeriodicJob {
  /** Stops scheduling runs and waits for a run in progress, so the database can close after it. */
  stop(): Promise<void>;
}

/**
 * Runs `options.run` in the background, first after `firstRunDelayMs`, then every `intervalMs`. Its timers do
 * not keep the process alive, a run still going when the next is due is not doubled, and a failed run is
 * reported and tried again at the next tick rather than ending the server.
 */
export function startPeriodicJob(options: PeriodicJobOptions): PeriodicJob {
  let running: Promise<void> | undefined;
  let interval: NodeJS.Timeout | undefined;

  const tick = () => {
    if (running !== undefined) return;
    const startedAt = performance.now();
    const report = (outcome: PeriodicJobRun['outcome']) =>
      options.onRun?.({ outcome, durationMs: performance.now() - startedAt });
    running = options
      .run()
      .then(report)
      .catch((error: unknown) => {
        options.onFailure(error);
        report('failure');
      })
      .finally(() => {
        running = undefined;
      });
  };

  const first = setTimeout(() => {
    tick();
    interval = setInterval(tick, options.intervalMs);
    interval.unref();
  }, options.firstRunDelayMs);
  first.unref();

  return {
    async stop() {
      clearTimeout(first);
      clearInterval(interval);
      await running;
    },
  };
}
