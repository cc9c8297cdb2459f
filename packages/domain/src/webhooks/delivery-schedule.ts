// When a failed webhook delivery is tried again, and when Innkeep stops trying. Pure: the caller passes the
// time and the random number, so the schedule is the same on every instance and in tests.

/** The longest wait before the first retry; each further retry may wait twice as long, up to the cap. */
export const webhookRetryBaseMs = 10_000;

/** The longest wait between two attempts, so a receiver that comes back is found again within the hour. */
export const webhookRetryCapMs = 60 * 60_000;

/**
 * How long a delivery is retried after its first failed attempt. Retries stop only once this much time has
 * passed, whatever the delays, so every delivery is tried for at least this long.
 */
export const webhookGiveUpAfterMs = 24 * 60 * 60_000;

/**
 * The wait after failed attempt `attempt` (1 for the first): exponential backoff with equal jitter. The
 * ceiling doubles from {@link webhookRetryBaseMs} up to {@link webhookRetryCapMs}; the wait is half the
 * ceiling plus `random` times the other half, so instances that failed together spread out, yet never retry
 * at once.
 * @param random - a number in [0, 1), e.g. `Math.random()`.
 */
export function webhookRetryDelayMs(attempt: number, random: number): number {
  if (!Number.isInteger(attempt) || attempt < 1) {
    throw new RangeError(`attempt must be a whole number from 1, got ${attempt}.`);
  }
  if (!(random >= 0 && random < 1)) throw new RangeError(`random must be in [0, 1), got ${random}.`);
  // Past 2^9 the doubling is above the cap anyway; the bound keeps 2 ** attempt finite for any attempt.
  const ceiling = Math.min(webhookRetryCapMs, webhookRetryBaseMs * 2 ** Math.min(attempt - 1, 30));
  return Math.round(ceiling / 2 + (ceiling / 2) * random);
}

/** What follows a failed attempt: another attempt at `nextAttemptAt`, or giving the delivery up. */
export type AfterFailedAttempt =
  | { readonly kind: 'retry'; readonly nextAttemptAt: Date }
  | { readonly kind: 'give-up' };

/** The facts {@link afterFailedAttempt} decides on. */
export interface FailedAttempt {
  /** Attempts made so far in this schedule, the one that just failed included (1 or more). */
  readonly attempts: number;
  /** When the schedule's first attempt was made. */
  readonly firstAttemptAt: Date;
  /** When the attempt that just failed ended. */
  readonly now: Date;
  /** A number in [0, 1) for the jitter. */
  readonly random: number;
}

/**
 * Retry after {@link webhookRetryDelayMs}, until the first attempt failed more than
 * {@link webhookGiveUpAfterMs} ago: then the delivery is given up.
 */
export function afterFailedAttempt({
  attempts,
  firstAttemptAt,
  now,
  random,
}: FailedAttempt): AfterFailedAttempt {
  if (now.getTime() - firstAttemptAt.getTime() > webhookGiveUpAfterMs) return { kind: 'give-up' };
  return { kind: 'retry', nextAttemptAt: new Date(now.getTime() + webhookRetryDelayMs(attempts, random)) };
}

/** Longest part of a receiver's error quoted in a disabled subscription's reason. */
const quotedErrorLength = 200;

/**
 * Why a subscription was disabled after a delivery failed for {@link webhookGiveUpAfterMs} with no success in
 * between, quoting the last failure so the host sees what to fix.
 */
export function failingSubscriptionReason(lastFailure: {
  readonly statusCode?: number | undefined;
  readonly error: string;
}): string {
  const error =
    lastFailure.error.length > quotedErrorLength
      ? `${lastFailure.error.slice(0, quotedErrorLength - 1)}…`
      : lastFailure.error;
  const last = lastFailure.statusCode === undefined ? error : `HTTP ${lastFailure.statusCode}: ${error}`;
  return `Every delivery failed for ${webhookGiveUpAfterMs / 3_600_000} hours; last: ${last}. Set active to true to resume deliveries.`;
}
