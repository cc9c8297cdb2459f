import { hash } from 'node:crypto';
import { type Clock, type IdentityUseCases, systemClock } from '@innkeep/domain';
import type { AccessTokenCacheOptions } from './access-token-verifier.ts';
import { parseAuthNotification } from './auth-notifications.ts';
import { VerificationCache } from './verification-cache.ts';

/** The two lookups of REST's authToken and apiKey credentials. */
export type CredentialLookups = Pick<IdentityUseCases, 'authenticateAuthToken' | 'resolvePartnerApiKey'>;

/** What {@link createCachedCredentialLookups} returns: the lookups, and a listener to close. */
export interface ClosableCredentialLookups extends CredentialLookups {
  /** Stops listening for notifications; the lookups still answer, from the database. */
  close(): Promise<void>;
}

const defaultCacheLimits = { maxEntries: 10_000, maxAgeMs: 30_000 };

/**
 * The authToken and apiKey lookups REST runs on every request, with a per-instance cache of positive
 * answers kept honest by the `innkeep_auth` notifications, as the Bearer-token check is: an authToken's
 * principal is dropped when its user's token, role or membership changes or the account's subscription
 * changes; every apiKey answer when any key is revoked. While the listener is down nothing is cached.
 * Unknown and revoked credentials are never cached, so a new authToken works at once.
 */
export function createCachedCredentialLookups(
  identity: CredentialLookups,
  cacheOptions: AccessTokenCacheOptions,
  clock: Clock = systemClock,
): ClosableCredentialLookups {
  const limits = {
    maxEntries: cacheOptions.maxEntries ?? defaultCacheLimits.maxEntries,
    maxAgeMs: cacheOptions.maxAgeMs ?? defaultCacheLimits.maxAgeMs,
  };
  const principals = new VerificationCache<Awaited<ReturnType<CredentialLookups['authenticateAuthToken']>>>(
    limits,
  );
  const partners = new VerificationCache<Awaited<ReturnType<CredentialLookups['resolvePartnerApiKey']>>>(
    limits,
  );
  const caches = [principals, partners];
  const unsubscribe = cacheOptions.notifications.subscribe(
    (payload) => {
      const invalidation = parseAuthNotification(payload);
      for (const cache of caches) cache.invalidate(invalidation);
    },
    () => {
      for (const cache of caches) cache.disable();
    },
    () => {
      for (const cache of caches) cache.enable();
    },
  );

  return {
    async authenticateAuthToken(authToken) {
      const nowMs = clock.now().getTime();
      const digest = secretDigest(authToken);
      const cached = principals.lookup(digest, nowMs);
      if (cached !== undefined) return cached;
      // Read before the query: a notification that arrives while it runs means its answer may be stale.
      const epoch = principals.epoch;
      const principal = await identity.authenticateAuthToken(authToken);
      if (principal !== null) {
        principals.store(digest, principal, {
          userId: principal.userId,
          accountId: principal.accountId,
          nowMs,
          expiresAtMs: Number.POSITIVE_INFINITY,
          grantUsedAtMs: null,
          epoch,
        });
      }
      return principal;
    },

    async resolvePartnerApiKey(apiKey) {
      const nowMs = clock.now().getTime();
      const digest = secretDigest(apiKey);
      const cached = partners.lookup(digest, nowMs);
      if (cached !== undefined) return cached;
      const epoch = partners.epoch;
      const partner = await identity.resolvePartnerApiKey(apiKey);
      if (partner !== null) {
        partners.store(digest, partner, {
          nowMs,
          expiresAtMs: Number.POSITIVE_INFINITY,
          grantUsedAtMs: null,
          epoch,
        });
      }
      return partner;
    },

    async close() {
      await unsubscribe();
    },
  };
}

/**
 * The cache key of a secret: its SHA-256, so no secret is kept in memory longer than its request. The
 * one-shot `hash` gives the digest `createHash` would at half its cost, which every request pays.
 */
function secretDigest(secret: string): string {
  return hash('sha256', secret, 'base64url');
}
