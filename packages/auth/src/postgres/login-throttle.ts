import { type Clock, DomainError } from '@innkeep/domain';
import { type Kysely, sql } from 'kysely';
import type { AuthDatabase } from './database.ts';

/** How many failures within a window lock a key, and for how long. */
export interface ThrottleRule {
  readonly maxFailures: number;
  readonly windowMs: number;
  readonly lockMs: number;
}

const fifteenMinutesMs = 15 * 60 * 1000;

/**
 * Sign-in throttling policy by key kind:
 *
 * - `emailAddress` (one email from one address): 5 failures lock that pair, which stops guessing one
 *   person's password from one place without keeping the person out from anywhere else.
 * - `email` (one email from browsers it never signed in on): 20 failures lock it, which stops guessing
 *   spread over many addresses. Browsers that signed in to the email before carry a known-device cookie
 *   and skip this key, so even this lock cannot keep the owner out of their own browsers. One address can
 *   add at most 5 failures to it per window (its pair locks first), so locking it takes several addresses.
 * - `ip` (one address, any email): 50, since an office or a carrier NAT puts many people behind one.
 */
export const loginThrottlePolicy: Readonly<Record<'emailAddress' | 'email' | 'ip', ThrottleRule>> = {
  emailAddress: { maxFailures: 5, windowMs: fifteenMinutesMs, lockMs: fifteenMinutesMs },
  email: { maxFailures: 20, windowMs: fifteenMinutesMs, lockMs: fifteenMinutesMs },
  ip: { maxFailures: 50, windowMs: fifteenMinutesMs, lockMs: fifteenMinutesMs },
};

/** Throttling of failed sign-ins, shared by every instance through the `login_throttle` table. */
export interface LoginThrottle {
  /**
   * Throws `rate_limited` (with `details.retryAfterSeconds`) when any of `keys` is locked. Call it before
   * checking the password, so a locked key costs no password work and reveals nothing.
   */
  assertAllowed(keys: readonly string[]): Promise<void>;
  /** Counts one failed sign-in against each key, locking those that reach their limit. */
  recordFailure(keys: readonly string[]): Promise<void>;
  /**
   * Forgets the failures of `keys`. After a successful sign-in reset only the email keys
   * ({@link signInResetKeys}): resetting the address would let anyone with one valid account keep
   * guessing other people's passwords from it.
   */
  reset(keys: readonly string[]): Promise<void>;
}

/**
 * The throttle keys of a sign-in attempt: `email-ip:<lower-case email> <address>`, `ip:<address>` and,
 * unless the browser is a known device of that email, `email:<lower-case email>`.
 */
export function loginThrottleKeys(attempt: { email: string; ip: string; knownDevice: boolean }): string[] {
  const email = attempt.email.trim().toLowerCase();
  const keys = [`email-ip:${email} ${attempt.ip}`, `ip:${attempt.ip}`];
  return attempt.knownDevice ? keys : [`email:${email}`, ...keys];
}

/** The keys of {@link loginThrottleKeys} a successful sign-in forgets: all but the address's own. */
export function signInResetKeys(keys: readonly string[]): string[] {
  return keys.filter((key) => !key.startsWith('ip:'));
}

function ruleFor(key: string): ThrottleRule {
  if (key.startsWith('email-ip:')) return loginThrottlePolicy.emailAddress;
  if (key.startsWith('email:')) return loginThrottlePolicy.email;
  if (key.startsWith('ip:')) return loginThrottlePolicy.ip;
  throw new Error(`Login throttle keys start with "email-ip:", "email:" or "ip:"; got "${key.slice(0, 40)}"`);
}

/** The login throttle over the `login_throttle` table; `clock` decides what "now" is. */
export function createLoginThrottle(db: Kysely<AuthDatabase>, clock: Clock): LoginThrottle {
  return {
    async assertAllowed(keys) {
      if (keys.length === 0) return;
      const now = clock.now();
      const locked = await db
        .selectFrom('login_throttle')
        .select('locked_until')
        .where('key', 'in', [...keys])
        .where('locked_until', '>', now)
        .execute();
      const until = Math.max(...locked.map((row) => row.locked_until?.getTime() ?? 0));
      if (until <= now.getTime()) return;
      const retryAfterSeconds = Math.ceil((until - now.getTime()) / 1000);
      throw new DomainError(
        'rate_limited',
        `Too many failed sign-in attempts. Wait ${Math.ceil(retryAfterSeconds / 60)} minutes, then try again.`,
        { details: { retryAfterSeconds } },
      );
    },

    async recordFailure(keys) {
      const now = clock.now();
      for (const key of new Set(keys)) {
        const rule = ruleFor(key);
        const windowStart = new Date(now.getTime() - rule.windowMs);
        const lockedUntil = new Date(now.getTime() + rule.lockMs);
        // One statement per key, so concurrent failures on any instance each count exactly once.
        const windowOver = sql<boolean>`login_throttle.window_started_at <= ${windowStart}`;
        const failures = sql<number>`case when ${windowOver} then 1 else login_throttle.failures + 1 end`;
        await db
          .insertInto('login_throttle')
          .values({
            key,
            failures: 1,
            window_started_at: now,
            locked_until: rule.maxFailures <= 1 ? lockedUntil : null,
          })
          .onConflict((conflict) =>
            conflict.column('key').doUpdateSet({
              failures,
              window_started_at: sql<Date>`case when ${windowOver} then ${now} else login_throttle.window_started_at end`,
              locked_until: sql<Date | null>`case
                when ${failures} >= ${rule.maxFailures} then ${lockedUntil}
                when ${windowOver} then null
                else login_throttle.locked_until end`,
            }),
          )
          .execute();
      }
    },

    async reset(keys) {
      if (keys.length === 0) return;
      await db
        .deleteFrom('login_throttle')
        .where('key', 'in', [...keys])
        .execute();
    },
  };
}
