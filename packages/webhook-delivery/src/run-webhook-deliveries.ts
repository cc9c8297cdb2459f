import type { DueWebhookDelivery, WebhookAttemptOutcome, WebhookDeliveryQueue } from '@innkeep/domain';
import { type SendWebhookOptions, sendWebhook } from './send-webhook.ts';
import { buildWebhookBody, type HostToolsBodyReader } from './webhook-body.ts';

/** Options of {@link runWebhookDeliveries}; all but `hostToolsBody` have a default fit for production. */
export interface RunWebhookDeliveriesOptions extends SendWebhookOptions {
  /**
   * Reads the `{type, document}` body of a reservation or message delivery to a Host Tools URL when its
   * attempt is made; the app supplies it, since the documents come from the account's data. When it rejects,
   * the attempt fails with the reason and is retried like any other.
   */
  readonly hostToolsBody: HostToolsBodyReader;
  /** The time claims and outcomes are stamped with; default the current time. Tests move it by hand. */
  readonly now?: () => Date;
  /** A number in [0, 1) for each retry's jitter; default `Math.random`. */
  readonly random?: () => number;
  /** Events fanned out per tick; default 500. */
  readonly dispatchLimit?: number;
  /** Deliveries claimed per tick; default 200. */
  readonly claimLimit?: number;
  /**
   * How long a claim is this sender's; default 60 s, well above the send timeout, so a lease only runs out
   * when the sender died, and another sender then makes the attempt.
   */
  readonly leaseMs?: number;
  /** Attempts in flight at once; default 16. */
  readonly concurrency?: number;
  /** Makes one attempt; default {@link sendWebhook}. */
  readonly send?: (
    delivery: DueWebhookDelivery,
    body: string,
    options: SendWebhookOptions,
  ) => Promise<WebhookAttemptOutcome>;
}

/** What one tick did. */
export interface WebhookDeliveryTick {
  /** Events fanned out into deliveries. */
  readonly dispatchedEvents: number;
  /** Deliveries created by that fan-out. */
  readonly createdDeliveries: number;
  /** Attempts this sender claimed. */
  readonly claimed: number;
  /** Attempts a receiver answered 2xx. */
  readonly delivered: number;
  /** Attempts that failed and are scheduled again. */
  readonly retried: number;
  /** Deliveries given up after a day of failures. */
  readonly failed: number;
  /** Subscriptions those give-ups disabled. */
  readonly disabledSubscriptions: number;
}

/**
 * One tick of the sender: fans new events out, claims the due attempts under a lease, sends them (a bounded
 * number at once, each with the body of its subscription's format) and records each outcome, which
 * schedules the retry or disables a subscription that failed for a day. Any number of instances may tick at
 * once: the queue gives each attempt to one of them.
 */
export async function runWebhookDeliveries(
  queue: WebhookDeliveryQueue,
  options: RunWebhookDeliveriesOptions,
): Promise<WebhookDeliveryTick> {
  const now = options.now ?? (() => new Date());
  const random = options.random ?? Math.random;
  const send = options.send ?? sendWebhook;
  const sendOptions: SendWebhookOptions = {
    now,
    ...(options.allowPrivate === undefined ? {} : { allowPrivate: options.allowPrivate }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  };
  const dispatched = await queue.dispatch(options.dispatchLimit ?? 500);
  const claimed = await queue.claimDue(now(), options.claimLimit ?? 200, options.leaseMs ?? 60_000);
  const counts = { delivered: 0, retried: 0, failed: 0, disabledSubscriptions: 0 };
  const attempt = async (delivery: DueWebhookDelivery) => {
    const started = performance.now();
    const built = await buildWebhookBody(delivery, options.hostToolsBody);
    const outcome: WebhookAttemptOutcome = built.ok
      ? await send(delivery, built.body, sendOptions)
      : { ok: false, error: built.error, latencyMs: performance.now() - started };
    const recorded = await queue.recordAttempt(delivery.deliveryId, outcome, now(), random());
    if (!recorded.recorded) return;
    if (recorded.status === 'delivered') counts.delivered += 1;
    else if (recorded.status === 'pending') counts.retried += 1;
    else counts.failed += 1;
    if (recorded.subscriptionDisabled) counts.disabledSubscriptions += 1;
  };
  await inParallel(claimed, options.concurrency ?? 16, attempt);
  return {
    dispatchedEvents: dispatched.events,
    createdDeliveries: dispatched.deliveries,
    claimed: claimed.length,
    ...counts,
  };
}

/** Runs `work` on every item, at most `limit` at once; rejects with the first failure once all have ended. */
async function inParallel<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`concurrency must be 1 or more, got ${limit}.`);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await work(item);
    }
  };
  const results = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, worker));
  const rejected = results.find((result) => result.status === 'rejected');
  if (rejected) throw rejected.reason;
}
