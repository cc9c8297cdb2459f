import {
  type DueMessageEmail,
  type MessageDeliveryQueue,
  type MessageEmailOutcome,
  notDeliveredReasons,
} from '@innkeep/domain';
import { type MessageEmailAddresses, messageEmail } from './message-email.ts';
import { smtpFailureOutcome } from './smtp-outcome.ts';
import { type MessageTransport, smtpTimeoutsMs } from './smtp-transport.ts';

/** Options of {@link runMessageDeliveries}; all but the transport and the addresses have production defaults. */
export interface RunMessageDeliveriesOptions extends MessageEmailAddresses {
  /** Sends each email (see `createSmtpTransport`). */
  readonly transport: MessageTransport;
  /** The time claims and outcomes are stamped with; default the current time. Tests move it by hand. */
  readonly now?: () => Date;
  /** A number in [0, 1) for each retry's jitter; default `Math.random`. */
  readonly random?: () => number;
  /** Messages claimed by one tick; default 50. The rest wait for the next tick. */
  readonly claimLimit?: number;
  /**
   * How long a claim is this sender's; default 5 minutes, well above the transport's timeouts, so a lease only
   * runs out when the sender died, and another sender then makes the attempt. Must exceed one attempt's
   * longest time (the SMTP transport's timeouts added up, 50 s).
   */
  readonly leaseMs?: number;
  /** Emails in flight at once; default 4, the transport's pool of connections. */
  readonly concurrency?: number;
}

/** What one tick did. */
export interface MessageDeliveryTick {
  /** Messages this sender claimed. */
  readonly claimed: number;
  /** Messages the mail server accepted. */
  readonly sent: number;
  /** Messages that failed for now and are scheduled again. */
  readonly retried: number;
  /** Messages given up: refused for good, or retried until the schedule ran out. */
  readonly failed: number;
  /**
   * Claimed messages not tried, because too little of the lease was left for an attempt (a slow mail server);
   * they are due again once the lease runs out.
   */
  readonly deferred: number;
}

/**
 * The longest one attempt may take through the SMTP transport: its connection, greeting and socket timeouts
 * back to back. An attempt starts only while at least this much of the lease is left, so no message is still
 * being sent when its lease runs out and another sender may claim it and send it again.
 */
const attemptLimitMs = smtpTimeoutsMs.connection + smtpTimeoutsMs.greeting + smtpTimeoutsMs.socket;

/**
 * One tick of the sender: claims the queued messages that are due under a lease, emails each to its guest
 * (plain text, from `from`, answers to `replyTo`), and records each outcome: accepted → `sent`; refused for
 * good (5xx) → `failed` with the server's answer; anything else → tried again later, then `failed` once the
 * schedule runs out. Any number of instances may tick at once: the queue gives each message to one of them.
 */
export async function runMessageDeliveries(
  queue: MessageDeliveryQueue,
  options: RunMessageDeliveriesOptions,
): Promise<MessageDeliveryTick> {
  const now = options.now ?? (() => new Date());
  const random = options.random ?? Math.random;
  const leaseMs = options.leaseMs ?? 5 * 60_000;
  if (!(leaseMs > attemptLimitMs)) {
    throw new RangeError(
      `leaseMs must exceed one attempt's longest time, ${attemptLimitMs} ms; got ${leaseMs}`,
    );
  }
  const claimedAt = now();
  const claimed = await queue.claimDue(claimedAt, options.claimLimit ?? 50, leaseMs);
  const lastStart = claimedAt.getTime() + leaseMs - attemptLimitMs;
  const counts = { sent: 0, retried: 0, failed: 0, deferred: 0 };
  let next = 0;
  const worker = async () => {
    for (let message = claimed[next++]; message !== undefined; message = claimed[next++]) {
      if (now().getTime() > lastStart) {
        counts.deferred += 1;
        continue;
      }
      const outcome = await attempt(message, options);
      const recorded = await queue.recordAttempt(message.messageId, outcome, now(), random());
      if (!recorded.recorded) continue;
      if (recorded.deliveryStatus === 'sent') counts.sent += 1;
      else if (recorded.deliveryStatus === 'queued') counts.retried += 1;
      else counts.failed += 1;
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency ?? 4, claimed.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return { claimed: claimed.length, ...counts };
}

/** Emails one message, and says how it went. */
async function attempt(
  message: DueMessageEmail,
  options: RunMessageDeliveriesOptions,
): Promise<MessageEmailOutcome> {
  // The address was removed after the message was queued: there is nobody to send it to.
  if (message.guestEmail === null) return { kind: 'failed', error: notDeliveredReasons.guestHasNoEmail };
  try {
    await options.transport.sendMail(messageEmail(message, message.guestEmail, options));
    return { kind: 'sent' };
  } catch (error) {
    return smtpFailureOutcome(error);
  }
}
