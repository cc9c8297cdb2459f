import { DomainError } from '@innkeep/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type LoginThrottle, loginThrottleKeys, signInResetKeys } from '../postgres/login-throttle.ts';
import { cookieAttributes } from './forms.ts';
import {
  isKnownDevice,
  knownDeviceCookieName,
  knownDeviceLifetimeSeconds,
  knownDeviceToken,
} from './known-device.ts';

/** How a password check behind the throttle ended. */
export type GuardedCheck<T> =
  | { readonly kind: 'passed'; readonly value: T }
  | { readonly kind: 'failed' }
  | { readonly kind: 'locked'; readonly retryAfterSeconds: number; readonly message: string };

/**
 * The sign-in throttle around every password check of the web pages (sign-in on /login, sign-in during an
 * authorization, the current password when changing it), with the known-device cookie that lets the
 * owner's own browsers past a lock someone else caused on their email.
 */
export interface SignInGuard {
  /**
   * Runs `check` for `email` unless a throttle key of the attempt is locked. `check` answers null for a
   * wrong password, which counts a failure; a non-null value forgets the email's failures.
   */
  run<T>(request: FastifyRequest, email: string, check: () => Promise<T | null>): Promise<GuardedCheck<T>>;
  /** Marks the browser as one `email` signed in on (call it after a successful sign-in). */
  rememberDevice(reply: FastifyReply, email: string): void;
}

/** The guard over `throttle`; `secretKeys` sign the known-device cookie. */
export function createSignInGuard(options: {
  throttle: LoginThrottle;
  secretKeys: readonly string[];
  secureCookies: boolean;
}): SignInGuard {
  const { throttle, secretKeys, secureCookies } = options;
  return {
    async run(request, email, check) {
      const knownDevice = isKnownDevice(request.cookies[knownDeviceCookieName], email, secretKeys);
      const keys = loginThrottleKeys({ email, ip: request.ip, knownDevice });
      try {
        await throttle.assertAllowed(keys);
      } catch (error) {
        if (!(error instanceof DomainError && error.code === 'rate_limited')) throw error;
        const retryAfterSeconds = Number(error.details?.retryAfterSeconds ?? 900);
        return { kind: 'locked', retryAfterSeconds, message: error.message };
      }
      const value = await check();
      if (value === null) {
        await throttle.recordFailure(keys);
        return { kind: 'failed' };
      }
      await throttle.reset(signInResetKeys(keys));
      return { kind: 'passed', value };
    },

    rememberDevice(reply, email) {
      reply.setCookie(knownDeviceCookieName, knownDeviceToken(email, secretKeys), {
        ...cookieAttributes(secureCookies),
        maxAge: knownDeviceLifetimeSeconds,
      });
    },
  };
}
