import { type Kysely, sql } from 'kysely';
import type { AuthDatabase } from './database.ts';

/** A live access token with its grant and the current state of its user and subscription. */
export interface AccessTokenRow {
  readonly accountId: string;
  readonly userId: string;
  readonly role: string;
  readonly subscriptionStatus: string;
  /** Space-separated scopes, as oidc-provider stored them. */
  readonly scope: string;
  readonly clientId: string;
  readonly grantId: string;
  readonly expiresAt: Date;
  /** When the grant lapses; null when it does not. */
  readonly grantExpiresAt: Date | null;
  readonly grantLastUsedAt: Date | null;
}

/**
 * The access token whose value hashes to `digest`, if it is live at `now` and was issued for one of
 * `audiences`.
 *
 * One query, every step on a primary key: the token row, its grant row (so a revoked grant kills its
 * tokens even if a token row were left behind), the user and the subscription. Unknown, expired,
 * consumed, wrong-audience tokens and tokens of deleted users all come back as undefined.
 */
export async function findLiveAccessToken(
  db: Kysely<AuthDatabase>,
  digest: string,
  audiences: readonly string[],
  now: Date,
): Promise<AccessTokenRow | undefined> {
  const row = await db
    .selectFrom('oidc_model as token')
    .innerJoin('oidc_model as grant', (join) =>
      join.on('grant.model', '=', 'Grant').onRef('grant.id', '=', 'token.grant_id'),
    )
    .innerJoin('users', 'users.id', 'token.account_id')
    .innerJoin('subscriptions', 'subscriptions.account_id', 'users.account_id')
    .select([
      'users.account_id',
      'users.id as user_id',
      'users.role',
      'subscriptions.status',
      sql<string>`coalesce(token.payload->>'scope', '')`.as('scope'),
      'token.client_id',
      'token.grant_id',
      'token.expires_at',
      'grant.expires_at as grant_expires_at',
      'grant.last_used_at',
    ])
    .where('token.model', '=', 'AccessToken')
    .where('token.id', '=', digest)
    .where('token.expires_at', '>', now)
    .where('token.consumed_at', 'is', null)
    .where(sql<string>`token.payload->>'aud'`, 'in', audiences)
    .where((eb) => eb.or([eb('grant.expires_at', 'is', null), eb('grant.expires_at', '>', now)]))
    .executeTakeFirst();
  if (row === undefined || row.client_id === null || row.grant_id === null || row.expires_at === null) {
    return undefined;
  }
  return {
    accountId: row.account_id,
    userId: row.user_id,
    role: row.role,
    subscriptionStatus: row.status,
    scope: row.scope,
    clientId: row.client_id,
    grantId: row.grant_id,
    expiresAt: row.expires_at,
    grantExpiresAt: row.grant_expires_at,
    grantLastUsedAt: row.last_used_at,
  };
}

/**
 * Records that a grant was used at `now`, unless it was already recorded within `minIntervalMs`. The
 * condition is in the statement, so concurrent requests on many instances write at most once per interval.
 */
export async function touchGrant(
  db: Kysely<AuthDatabase>,
  grantId: string,
  now: Date,
  minIntervalMs: number,
): Promise<void> {
  await db
    .updateTable('oidc_model')
    .set({ last_used_at: now })
    .where('model', '=', 'Grant')
    .where('id', '=', grantId)
    .where((eb) =>
      eb.or([
        eb('last_used_at', 'is', null),
        eb('last_used_at', '<=', new Date(now.getTime() - minIntervalMs)),
      ]),
    )
    .execute();
}
