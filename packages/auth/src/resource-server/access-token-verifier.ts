import {
  type Clock,
  isGoodStanding,
  isScope,
  type Scope,
  type SubscriptionStatus,
  systemClock,
  type UserRole,
} from '@innkeep/domain';
import type { Kysely } from 'kysely';
import { findLiveAccessToken, touchGrant } from '../postgres/access-tokens.ts';
import type { AuthDatabase } from '../postgres/database.ts';
import { tokenDigest } from '../postgres/token-hash.ts';
import { acceptedAudiences } from '../provider/resource.ts';
import { type AuthNotifications, parseAuthNotification } from './auth-notifications.ts';
import { VerificationCache } from './verification-cache.ts';

/** Who an access token speaks for, and what it may do, as of the moment it was checked. */
export interface VerifiedAccessToken {
  readonly accountId: string;
  readonly userId: string;
  /** The user's role now; `/mcp` accepts only `owner`. */
  readonly role: UserRole;
  readonly subscriptionStatus: SubscriptionStatus;
  readonly inGoodStanding: boolean;
  /** The granted scopes that Innkeep knows, in the order stored. */
  readonly scopes: readonly Scope[];
  /** The OAuth client the token was issued to. */
  readonly clientId: string;
  /** The grant (connected app) the token belongs to. */
  readonly grantId: string;
  readonly expiresAt: Date;
}

/** Checks Bearer access tokens for one resource (audience). */
export interface AccessTokenVerifier {
  /**
   * The token's facts, or null when it is unknown, expired, consumed or revoked, was issued for another
   * resource, or its user no longer exists. Callers decide what the role and subscription allow.
   */
  verify(token: string): Promise<VerifiedAccessToken | null>;
}

/** What {@link createAccessTokenVerifier} returns: a verifier that holds a listener while it caches. */
export interface ClosableAccessTokenVerifier extends AccessTokenVerifier {
  /** Stops listening for notifications (when caching); the verifier still answers, from the database. */
  close(): Promise<void>;
}

/** A per-instance cache of positive checks, kept honest by notifications. */
export interface AccessTokenCacheOptions {
  /** What says that a grant, a user or a subscription changed; without it nothing is cached. */
  readonly notifications: AuthNotifications;
  /** Entries kept at most (default 10,000; the least recently used goes first). */
  readonly maxEntries?: number;
  /** Longest use of an entry (default 30 s), however far off the token's expiry is. */
  readonly maxAgeMs?: number;
  /** Told when recording a grant's last use in the background failed; the request it came from is served. */
  readonly onBackgroundError?: (error: unknown) => void;
}

/** What {@link createAccessTokenVerifier} needs. */
export interface AccessTokenVerifierOptions {
  readonly db: Kysely<AuthDatabase>;
  /**
   * The resource guarded, e.g. `${BASE_URL}/mcp`: tokens must be bound to it, or to `${BASE_URL}` (asked
   * for without a resource indicator, so valid on every resource).
   */
  readonly resource: string;
  /** Defaults to the system clock; tests pass a fixed one. */
  readonly clock?: Clock;
  /**
   * Cache positive checks on this instance. Only where notifications reach every instance (PostgreSQL);
   * without it every check reads the database.
   */
  readonly cache?: AccessTokenCacheOptions;
}

// Our access tokens are 43 characters; anything much longer is junk that need not reach the database.
const maxTokenLength = 512;
// "Connected apps" shows when an app last used its access; a minute is exact enough and keeps the grant
// row from being written on every request.
const lastUsedResolutionMs = 60_000;
const defaultCacheLimits = { maxEntries: 10_000, maxAgeMs: 30_000 };

/**
 * The Bearer-token check that `/mcp` and `/api` run on every request: one indexed query over the token,
 * its grant, its user and the subscription, so a revoked grant, a deleted user or a lapsed subscription
 * shows at once. It also keeps the grant's `last_used_at` current, writing at most once a minute.
 *
 * With `cache`, a positive answer is reused on this instance for up to 30 s (never past the token's or
 * the grant's expiry), and dropped as soon as a notification says its grant was revoked or disconnected,
 * its user's role changed or the user went, or its account's subscription changed. While the listener is
 * down nothing is cached and every check reads the database; unknown, expired and revoked tokens are
 * never cached. Role and subscription are still judged on every request, by the caller, from facts that
 * are current in this sense.
 */
export function createAccessTokenVerifier(options: AccessTokenVerifierOptions): ClosableAccessTokenVerifier {
  const { db } = options;
  const audiences = acceptedAudiences(options.resource);
  const clock = options.clock ?? systemClock;
  const cacheOptions = options.cache;
  const cache =
    cacheOptions === undefined
      ? undefined
      : new VerificationCache<VerifiedAccessToken>({
          maxEntries: cacheOptions.maxEntries ?? defaultCacheLimits.maxEntries,
          maxAgeMs: cacheOptions.maxAgeMs ?? defaultCacheLimits.maxAgeMs,
        });
  const unsubscribe =
    cache === undefined || cacheOptions === undefined
      ? undefined
      : cacheOptions.notifications.subscribe(
          (payload) => cache.invalidate(parseAuthNotification(payload)),
          () => cache.disable(),
          () => cache.enable(),
        );

  /** Records a use of a cached token's grant without holding up the request. */
  const touchInBackground = (grantId: string, now: Date) => {
    touchGrant(db, grantId, now, lastUsedResolutionMs).catch((error: unknown) =>
      cacheOptions?.onBackgroundError?.(error),
    );
  };

  return {
    async verify(token) {
      if (token.length === 0 || token.length > maxTokenLength) return null;
      const now = clock.now();
      const digest = tokenDigest(token);
      const cached = cache?.lookup(digest, now.getTime());
      if (cached !== undefined) {
        if (cache?.claimGrantUse(cached.grantId, now.getTime(), lastUsedResolutionMs) === true) {
          touchInBackground(cached.grantId, now);
        }
        return cached;
      }
      // Read before the query: a notification that arrives while it runs means its answer may be stale.
      const epoch = cache?.epoch ?? 0;
      const row = await findLiveAccessToken(db, digest, audiences, now);
      if (row === undefined) return null;
      const touch =
        row.grantLastUsedAt === null || now.getTime() - row.grantLastUsedAt.getTime() >= lastUsedResolutionMs;
      if (touch) await touchGrant(db, row.grantId, now, lastUsedResolutionMs);
      const verified: VerifiedAccessToken = {
        accountId: row.accountId,
        userId: row.userId,
        // The schema's check constraints allow only the known roles and statuses.
        role: row.role as UserRole,
        subscriptionStatus: row.subscriptionStatus as SubscriptionStatus,
        inGoodStanding: isGoodStanding(row.subscriptionStatus),
        scopes: row.scope.split(' ').filter(isScope),
        clientId: row.clientId,
        grantId: row.grantId,
        expiresAt: row.expiresAt,
      };
      cache?.store(digest, verified, {
        grantId: row.grantId,
        userId: row.userId,
        accountId: row.accountId,
        nowMs: now.getTime(),
        expiresAtMs: Math.min(
          row.expiresAt.getTime(),
          row.grantExpiresAt?.getTime() ?? Number.POSITIVE_INFINITY,
        ),
        grantUsedAtMs: touch ? now.getTime() : (row.grantLastUsedAt?.getTime() ?? null),
        epoch,
      });
      return verified;
    },

    async close() {
      await unsubscribe?.();
    },
  };
}
