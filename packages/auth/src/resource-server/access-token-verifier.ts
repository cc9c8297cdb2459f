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

/** What {@link createAccessTokenVerifier} needs. */
export interface AccessTokenVerifierOptions {
  readonly db: Kysely<AuthDatabase>;
  /** The audience tokens must carry, e.g. `${BASE_URL}/mcp`. */
  readonly resource: string;
  /** Defaults to the system clock; tests pass a fixed one. */
  readonly clock?: Clock;
}

// Our access tokens are 43 characters; anything much longer is junk that need not reach the database.
const maxTokenLength = 512;
// "Connected apps" shows when an app last used its access; a minute is exact enough and keeps the grant
// row from being written on every request.
const lastUsedResolutionMs = 60_000;

/**
 * The Bearer-token check that `/mcp` and `/api` run on every request: one indexed query over the token,
 * its grant, its user and the subscription, so a revoked grant, a deleted user or a lapsed subscription
 * shows at once. It also keeps the grant's `last_used_at` current, writing at most once a minute.
 */
export function createAccessTokenVerifier(options: AccessTokenVerifierOptions): AccessTokenVerifier {
  const { db, resource } = options;
  const clock = options.clock ?? systemClock;
  return {
    async verify(token) {
      if (token.length === 0 || token.length > maxTokenLength) return null;
      const now = clock.now();
      const row = await findLiveAccessToken(db, tokenDigest(token), resource, now);
      if (row === undefined) return null;
      if (
        row.grantLastUsedAt === null ||
        now.getTime() - row.grantLastUsedAt.getTime() >= lastUsedResolutionMs
      ) {
        await touchGrant(db, row.grantId, now, lastUsedResolutionMs);
      }
      return {
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
    },
  };
}
