import type {
  DeliveredWebhookAttempt,
  DueWebhookDelivery,
  WebhookAttemptOutcome,
  WebhookDeliveryQueue,
} from '@innkeep/domain';
import { batched } from './batched.ts';
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
  /** Events fanned out before each claim; default 500. */
  readonly dispatchLimit?: number;
  /** Deliveries claimed at once; default 100. */
  readonly claimLimit?: number;
  /**
   * Claims one tick makes at most; default 20. The tick claims again whenever fewer than `concurrency`
   * claimed attempts are left to finish, so the slowest attempts of a batch do not hold up the next, and ends
   * once a claim finds fewer than `claimLimit` due or after this many claims.
   */
  readonly maxClaimsPerTick?: number;
  /**
   * How long a claim is this sender's; default 60 s, well above the send timeout, so a lease only runs out
   * when the sender died, and another sender then makes the attempt.
   */
  readonly leaseMs?: number;
  /** Attempts in flight at once; default 32. */
  readonly concurrency?: number;
  /**
   * Outcomes recorded (and Host Tools bodies read) at once; default 6. Each holds a pooled connection while it
   * runs, and the server's pool has 10 (`openDatabase`'s default): this leaves one for this tick's own fan-out
   * and claims and three for the API's requests, where more attempts recording at once would only queue for
   * a connection, ahead of them.
   */
  readonly databaseConcurrency?: number;
  /** Makes one attempt; default {@link sendWebhook}. */
  readonly send?: (
    delivery: DueWebhookDelivery,
    body: string,
    options: SendWebhookOptions,
  ) => Promise<WebhookAttemptOutcome>;
}

/** Most successful attempts recorded by one statement. */
const successesPerRecord = 200;

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
 * schedules the retry or disables a subscription that failed for a day. While attempts are in flight it fans
 * out and claims again as soon as they run low (see `maxClaimsPerTick`). Any number of instances may tick at
 * once: the queue gives each attempt to one of them. Rejects with the first failure of the queue, once every
 * attempt already claimed has ended.
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
  const dispatchLimit = options.dispatchLimit ?? 500;
  const claimLimit = options.claimLimit ?? 100;
  const maxClaims = options.maxClaimsPerTick ?? 20;
  const leaseMs = options.leaseMs ?? 60_000;
  const concurrency = positiveInteger('concurrency', options.concurrency ?? 32);
  const withConnection = limiter(positiveInteger('databaseConcurrency', options.databaseConcurrency ?? 6));

  const counts = {
    dispatchedEvents: 0,
    createdDeliveries: 0,
    claimed: 0,
    delivered: 0,
    retried: 0,
    failed: 0,
    disabledSubscriptions: 0,
  };
  // Successes, the common case, are recorded many to a statement; a failure's schedule is worked out alone.
  const recordDelivered = batched(
    (attempts: readonly DeliveredWebhookAttempt[]) =>
      withConnection(async () => new Set(await queue.recordDelivered(attempts, now()))),
    successesPerRecord,
  );
  const attempt = async (delivery: DueWebhookDelivery) => {
    const started = performance.now();
    const built = await withConnection(() => buildWebhookBody(delivery, options.hostToolsBody));
    const outcome: WebhookAttemptOutcome = built.ok
      ? await send(delivery, built.body, sendOptions)
      : { ok: false, error: built.error, latencyMs: performance.now() - started };
    if (outcome.ok) {
      const { deliveryId } = delivery;
      const recorded = await recordDelivered({
        deliveryId,
        statusCode: outcome.statusCode,
        latencyMs: outcome.latencyMs,
      });
      if (recorded.has(deliveryId)) counts.delivered += 1;
      return;
    }
    const recorded = await withConnection(() =>
      queue.recordAttempt(delivery.deliveryId, outcome, now(), random()),
    );
    if (!recorded.recorded) return;
    if (recorded.status === 'delivered') counts.delivered += 1;
    else if (recorded.status === 'pending') counts.retried += 1;
    else counts.failed += 1;
    if (recorded.subscriptionDisabled) counts.disabledSubscriptions += 1;
  };

  return new Promise((resolve, reject) => {
    /** Claimed attempts not started yet. */
    const waiting: DueWebhookDelivery[] = [];
    /** Claimed attempts not ended yet: waiting or in flight. */
    let unfinished = 0;
    let inFlight = 0;
    let claims = 0;
    let mayClaimMore = true;
    let claiming = false;
    let firstFailure: { readonly error: unknown } | undefined;

    const fail = (error: unknown) => {
      firstFailure ??= { error };
      mayClaimMore = false;
    };
    const claim = async () => {
      const dispatched = await queue.dispatch(dispatchLimit);
      counts.dispatchedEvents += dispatched.events;
      counts.createdDeliveries += dispatched.deliveries;
      const due = await queue.claimDue(now(), claimLimit, leaseMs);
      claims += 1;
      counts.claimed += due.length;
      unfinished += due.length;
      waiting.push(...due);
      if (due.length < claimLimit || claims >= maxClaims) mayClaimMore = false;
    };
    /** Claims more when few claimed attempts are left, starts what may start, and ends the tick when done. */
    const advance = () => {
      if (!claiming && mayClaimMore && unfinished < concurrency) {
        claiming = true;
        claim()
          .catch(fail)
          .finally(() => {
            claiming = false;
            advance();
          });
      }
      while (inFlight < concurrency && waiting.length > 0) {
        const delivery = waiting.shift() as DueWebhookDelivery;
        inFlight += 1;
        attempt(delivery)
          .catch(fail)
          .finally(() => {
            inFlight -= 1;
            unfinished -= 1;
            advance();
          });
      }
      if (claiming || unfinished > 0) return;
      if (firstFailure !== undefined) reject(firstFailure.error);
      else resolve({ ...counts });
    };
    advance();
  });
}

/** `value`, checked to be a whole number of 1 or more. */
function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be 1 or more, got ${value}.`);
  return value;
}

/** Runs the work it is given at most `limit` at once, the rest in turn as earlier work ends. */
function limiter(limit: number): <T>(work: () => Promise<T>) => Promise<T> {
  let running = 0;
  const queued: (() => void)[] = [];
  return async (work) => {
    if (running >= limit) await new Promise<void>((start) => queued.push(start));
    else running += 1;
    try {
      return await work();
    } finally {
      const next = queued.shift();
      if (next === undefined) running -= 1;
      else next();
    }
  };
}
