import { type Clock, DomainError } from '@innkeep/domain';
import { createWebhookDeliveryStore, type DatabaseHandle } from '@innkeep/storage';
import {
  type HostToolsBodyReader,
  runWebhookDeliveries,
  type WebhookDeliveryTick,
} from '@innkeep/webhook-delivery';
import type { JobLogger } from './message-rule-job.ts';

/** Options of {@link startWebhookDeliveryJob}; the delays and the timeout are for tests. */
export interface WebhookDeliveryJobOptions {
  readonly db: DatabaseHandle['db'];
  readonly clock: Clock;
  readonly log: JobLogger;
  /** Reads the `{type, document}` of deliveries to Host Tools URLs (see `hostToolsWebhookDocuments`). */
  readonly hostToolsBody: HostToolsBodyReader;
  /** Deliver over http and to private addresses too (`WEBHOOK_ALLOW_PRIVATE`). */
  readonly allowPrivate: boolean;
  /**
   * Time between ticks when the last one found nothing to do; default {@link webhookIdleIntervalMs}. A tick
   * that found work is followed by the next on the next turn of the event loop.
   */
  readonly intervalMs?: number;
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
 * How long an idle job waits before looking again: an event committed meanwhile waits half of it on average
 * for its fan-out. Each look costs 4 statements (dispatch: begin, select, commit; claim: one update), so
 * an idle instance makes 16 a second, each an index probe of the empty undispatched or due set.
 */
const webhookIdleIntervalMs = 250;

/**
 * Runs {@link runWebhookDeliveries} in the background: every {@link webhookIdleIntervalMs} while there is
 * nothing to send, and again on the next turn of the event loop while a tick found work. Such a tick awaits
 * the database and the receivers throughout, so back-to-back ticks never hold the event loop; starting the
 * next one from a timer lets the I/O and timers already waiting run first. Every instance runs it; the
 * queue's leases give each attempt to one instance. Its timers do not keep the process alive, and a failed
 * tick is logged and tried again after the idle interval rather than ending the server.
 */
export function startWebhookDeliveryJob(options: WebhookDeliveryJobOptions): WebhookDeliveryJob {
  const { db, clock, log } = options;
  const queue = createWebhookDeliveryStore({ db, clock });
  const hostToolsBody = loggingFailedReads(options.hostToolsBody, log);
  const intervalMs = options.intervalMs ?? webhookIdleIntervalMs;
  let stopped = false;
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
      hostToolsBody,
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
      .then((foundWork) => schedule(foundWork ? 0 : intervalMs))
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

/**
 * `read`, logging the cause of a failure other than a domain error: the delivery log shows only that the read
 * failed (its message may carry internals), so the server log is where the operator finds why.
 */
function loggingFailedReads(read: HostToolsBodyReader, log: JobLogger): HostToolsBodyReader {
  return (delivery) =>
    read(delivery).catch((error: unknown) => {
      if (!(error instanceof DomainError)) {
        log.error(
          { err: error, deliveryId: delivery.deliveryId },
          'Reading a Host Tools webhook document failed; the attempt is retried on its schedule',
        );
      }
      throw error;
    });
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
