import type { Actor, UserRole } from '@innkeep/domain';
import {
  DomainError,
  generateSecretToken,
  hashSecretToken,
  isGoodStanding,
  notFound,
  type Principal,
  type SubscriptionStatus,
} from '@innkeep/domain';
import { sql } from 'kysely';
import type { Executor, UsersTable } from '../database.ts';
import { recordAudit, sqlStateOf } from '../transaction.ts';

/** Readable prefix of authTokens, so a leaked one is recognisable in logs and secret scanners. */
export const authTokenPrefix = 'ik_at_';
/** Readable prefix of partner apiKeys. */
export const apiKeyPrefix = 'ik_pk_';

/** The user and subscription columns a {@link Principal} is made of, in one join. */
export function selectPrincipalRows(db: Executor) {
  return db
    .selectFrom('users')
    .innerJoin('subscriptions', 'subscriptions.account_id', 'users.account_id')
    .select([
      'users.id as user_id',
      'users.account_id',
      'users.role',
      'users.email',
      'users.password_hash',
      'subscriptions.status',
    ]);
}

/** Maps a row of {@link selectPrincipalRows} to a principal. */
export function toPrincipal(row: {
  user_id: string;
  account_id: string;
  role: string;
  email: string;
  status: string;
}): Principal {
  return {
    accountId: row.account_id,
    userId: row.user_id,
    // The schema's check constraints allow only these values.
    role: row.role as UserRole,
    email: row.email,
    subscriptionStatus: row.status as SubscriptionStatus,
    inGoodStanding: isGoodStanding(row.status),
  };
}

/** Matches an email column case-insensitively, the way the `users_email_key` index compares them. */
export function lowerEmail() {
  return sql<string>`lower(users.email)`;
}

/**
 * Inserts a user. The unique index on `lower(email)` decides duplicates, so two concurrent sign-ups with
 * one email cannot both succeed; the loser gets a `conflict` naming the email.
 */
export async function insertUser(
  trx: Executor,
  user: Pick<
    UsersTable,
    'id' | 'account_id' | 'role' | 'email' | 'first_name' | 'last_name' | 'password_hash'
  >,
): Promise<void> {
  try {
    await trx
      .insertInto('users')
      .values({ ...user, auth_token_hash: null, auth_token_created_at: null })
      .execute();
  } catch (error) {
    if (sqlStateOf(error) === '23505') throw emailTaken(user.email);
    throw error;
  }
}

/** The `conflict` for an email another user already signs in with. */
export function emailTaken(email: string): DomainError {
  return new DomainError(
    'conflict',
    `The email ${email} is already taken by another user; use a different email.`,
    { details: { email } },
  );
}

/**
 * Generates a new authToken for a user of `actor`'s account, replacing (and so revoking) the old hash,
 * and audits it in the same transaction. Returns the token, which exists nowhere else from now on.
 */
export async function replaceAuthToken(
  trx: Executor,
  actor: Actor,
  userId: string,
  now: Date,
  action: string,
): Promise<{ authToken: string; createdAt: Date }> {
  const authToken = generateSecretToken(authTokenPrefix);
  const updated = await trx
    .updateTable('users')
    .set({ auth_token_hash: hashSecretToken(authToken), auth_token_created_at: now })
    .where('id', '=', userId)
    .where('account_id', '=', actor.accountId)
    .executeTakeFirst();
  if (updated.numUpdatedRows === 0n) {
    throw notFound('user', userId);
  }
  await recordAudit(trx, actor, { action, targetType: 'user', targetId: userId });
  return { authToken, createdAt: now };
}
