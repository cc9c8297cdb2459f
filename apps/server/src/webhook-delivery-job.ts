import type { Clock } from '@innkeep/domain';
import { createWebhookDeliveryStore, type DatabaseHandle } from '@innkeep/storage';
import { runWebhookDeliveries, type WebhookDeliveryTick } from '@innkeep/webhook-delivery';
import type { JobLogger } from './message-rule-job.ts';

/** Options of {@link startWebhookDeliveryJob}; the delays and the timeout are for tests. */
export interface WebhookDeliveryJobOptions {
  readonly db: DatabaseHandle['db'];
  readonly clock: Clock;
  readonly log: JobLogger;
  /** Deliver over http and to private addresses too (`WEBHOOK_ALLOW_PRIVATE`). */
  readonly allowPrivate: boolean;
  /** Time between ticks when the last one found nothing to do; default 2 seconds. */
  readonly intervalMs?: number;
  /** Ticks run back to back while each finds work, before waiting the interval anyway; default 20. */
  readonly maxBackToBackTicks?: number;
  /** How long one attempt may take; default the sender's 10 seconds. */
  readonly timeoutMs?: number;
  /** Told how each tick ended and how long it took (the metrics count them). */
  readonly onRun?: (run: WebhookDeliveryJobRun) => void;
}

/** One finished tick of the job. */
export interface WebhookDeliveryJobRun {
  readonly outcome: 'success' | 'failure';
  readonly durationMs: number;
}

/** The background job that delivers webhooks. */
export interface WebhookDeliveryJob {
  /** Stops scheduling ticks and waits for a tick in progress, so the database can close after it. */
  stop(): Promise<void>;
}

/**
 * Runs {@link runWebhookDeliveries} in the background: every couple of seconds, and again at once while a
 * tick found work (up to a bound, so a flood of events does not starve the rest of the process). Every
 * instance runs it; the queue's leases give each attempt to one instance. Its timers do not keep the process
 * alive, and a failed tick is logged and tried again at the next one rather than ending the server.
 */
export function startWebhookDeliveryJob(options: WebhookDeliveryJobOptions): WebhookDeliveryJob {
  const { db, clock, log } = options;
  const queue = createWebhookDeliveryStore({ db, clock });
  const intervalMs = options.intervalMs ?? 2_000;
  const maxBackToBackTicks = options.maxBackToBackTicks ?? 20;
  let stopped = false;
  let backToBack = 0;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const schedule = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(tick, delayMs);
    timer.unref();
  };

  const tick = () => {
    const startedAt = performance.now();
    const report = (outcome: WebhookDeliveryJobRun['outcome']) =>
      options.onRun?.({ outcome, durationMs: performance.now() - startedAt });
    running = runWebhookDeliveries(queue, {
      allowPrivate: options.allowPrivate,
      now: () => clock.now(),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    })
      .then((result) => {
        logNotable(log, result);
        report('success');
        return result.dispatchedEvents + result.claimed > 0;
      })
      .catch((error: unknown) => {
        log.error({ err: error }, 'Delivering webhooks failed; retrying at the next tick');
        report('failure');
        return false;
      })
      .then((foundWork) => {
        backToBack = foundWork && backToBack < maxBackToBackTicks ? backToBack + 1 : 0;
        schedule(backToBack > 0 ? 0 : intervalMs);
      })
      .finally(() => {
        running = undefined;
      });
  };

  schedule(0);

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/** Logs what the host may need to know about: deliveries given up and subscriptions disabled. */
function logNotable(log: JobLogger, tick: WebhookDeliveryTick): void {
  if (tick.failed > 0) {
    log.info(
      { failed: tick.failed, disabledSubscriptions: tick.disabledSubscriptions },
      'Gave up webhook deliveries that failed for a day',
    );
  }
}
