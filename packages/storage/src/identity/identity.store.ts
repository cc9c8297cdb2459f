import {
  type Actor,
  assertOwner,
  changePasswordInputSchema,
  DomainError,
  decodeCursor,
  generateSecretToken,
  hashPassword,
  hashSecretToken,
  type IdentityUseCases,
  isGoodStanding,
  listUsersInputSchema,
  loginInputSchema,
  notFound,
  parseInput,
  type SubscriptionStatus,
  type TeamMember,
  toPage,
  type UserProfile,
  type UserRole,
  updateProfileInputSchema,
  verifyPassword,
} from '@innkeep/domain';
import type { Executor } from '../database.ts';
import type { StoreDeps } from '../store-deps.ts';
import { inTransaction, recordAudit } from '../transaction.ts';
import { lowerEmail, replaceAuthToken, selectPrincipalRows, toPrincipal } from './identity-queries.ts';

// Longer strings cannot be tokens we issued; refusing them early keeps junk headers away from the database.
const maxSecretLength = 512;

/** Identity use cases over PostgreSQL. */
export function createIdentityUseCases({ db, clock }: StoreDeps): IdentityUseCases {
  // A real scrypt hash of a password nobody knows. Logins for unknown emails are checked against it, so
  // they cost the same scrypt work as logins for known ones. Made on first use, then reused.
  let decoyHash: Promise<string> | undefined;
  const decoy = () => {
    decoyHash ??= hashPassword(generateSecretToken('decoy_'));
    return decoyHash;
  };

  return {
    async authenticateAuthToken(authToken) {
      if (authToken.length === 0 || authToken.length > maxSecretLength) return null;
      // One query on the unique index of auth_token_hash: this runs on every REST request.
      const row = await selectPrincipalRows(db)
        .where('users.auth_token_hash', '=', hashSecretToken(authToken))
        .executeTakeFirst();
      return row ? toPrincipal(row) : null;
    },

    async verifyLogin(rawInput) {
      const parsed = loginInputSchema.safeParse(rawInput);
      if (!parsed.success) return null;
      const { email, password } = parsed.data;
      const row = await selectPrincipalRows(db)
        .where(lowerEmail(), '=', email.toLowerCase())
        .executeTakeFirst();
      const storedHash = row?.password_hash ?? null;
      const matches = await verifyPassword(password, storedHash ?? (await decoy()));
      return row && storedHash !== null && matches ? toPrincipal(row) : null;
    },

    async findPrincipal(userId) {
      const row = await selectPrincipalRows(db).where('users.id', '=', userId).executeTakeFirst();
      return row ? toPrincipal(row) : null;
    },

    async resolvePartnerApiKey(apiKey) {
      if (apiKey.length === 0 || apiKey.length > maxSecretLength) return null;
      const row = await db
        .selectFrom('partner_api_keys')
        .select(['id', 'partner_name'])
        .where('key_hash', '=', hashSecretToken(apiKey))
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return row ? { id: row.id, partnerName: row.partner_name } : null;
    },

    async rotateAuthToken(actor) {
      const userId = requireUser(actor);
      const issued = await inTransaction(db, (trx) =>
        replaceAuthToken(trx, actor, userId, clock.now(), 'user.auth_token.rotate'),
      );
      return { authToken: issued.authToken, createdAt: issued.createdAt.toISOString() };
    },

    async getUser(actor) {
      return loadProfileOrThrow(db, actor, requireUser(actor));
    },

    async listUsers(actor, rawInput = {}) {
      assertOwner(actor);
      const input = parseInput(listUsersInputSchema, rawInput);
      let query = db
        .selectFrom('users')
        .select([
          'id',
          'email',
          'first_name',
          'last_name',
          'role',
          'auth_token_created_at',
          'created_at',
          lowerEmail().as('email_key'),
        ])
        .where('account_id', '=', actor.accountId);
      if (input.cursor !== undefined) {
        const [email, id] = decodeCursor(input.cursor, 2);
        query = query.where((eb) =>
          eb.or([
            eb(lowerEmail(), '>', String(email)),
            eb.and([eb(lowerEmail(), '=', String(email)), eb('id', '>', String(id))]),
          ]),
        );
      }
      const rows = await query
        .orderBy(lowerEmail())
        .orderBy('id')
        .limit(input.limit + 1)
        .execute();
      return toPage(
        rows,
        input.limit,
        (row): TeamMember => ({
          id: row.id,
          email: row.email,
          firstName: row.first_name,
          lastName: row.last_name,
          role: row.role as UserRole,
          authToken: row.auth_token_created_at
            ? { createdAt: row.auth_token_created_at.toISOString() }
            : null,
          createdAt: row.created_at.toISOString(),
        }),
        (row) => [row.email_key, row.id],
      );
    },

    async updateProfile(actor, rawInput) {
      const userId = requireUser(actor);
      const input = parseInput(updateProfileInputSchema, rawInput);
      return inTransaction(db, async (trx) => {
        const updated = await trx
          .updateTable('users')
          .set({ first_name: input.firstName, last_name: input.lastName })
          .where('id', '=', userId)
          .where('account_id', '=', actor.accountId)
          .executeTakeFirst();
        if (updated.numUpdatedRows === 0n) throw notFound('user', userId);
        await recordAudit(trx, actor, {
          action: 'user.update_profile',
          targetType: 'user',
          targetId: userId,
          details: { changed: input },
        });
        return loadProfileOrThrow(trx, actor, userId);
      });
    },

    async changePassword(actor, rawInput) {
      const userId = requireUser(actor);
      const input = parseInput(changePasswordInputSchema, rawInput);
      const row = await db
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', userId)
        .where('account_id', '=', actor.accountId)
        .executeTakeFirst();
      if (!row) throw notFound('user', userId);
      const currentHash = row.password_hash;
      if (currentHash === null) {
        throw new DomainError(
          'failed_precondition',
          'This user has no password to change; they sign in with an authToken only.',
        );
      }
      if (!(await verifyPassword(input.currentPassword, currentHash))) {
        throw new DomainError(
          'permission_denied',
          'The current password is not correct; nothing was changed.',
        );
      }
      // Hashing takes tens of milliseconds; do it before the transaction so no row lock is held meanwhile.
      const newHash = await hashPassword(input.newPassword);
      await inTransaction(db, async (trx) => {
        // Only replace the hash that was verified: a concurrent change must not be silently overwritten.
        const updated = await trx
          .updateTable('users')
          .set({ password_hash: newHash })
          .where('id', '=', userId)
          .where('account_id', '=', actor.accountId)
          .where('password_hash', '=', currentHash)
          .executeTakeFirst();
        if (updated.numUpdatedRows === 0n) {
          throw new DomainError(
            'conflict',
            'The password was changed by another request meanwhile; sign in again and retry.',
          );
        }
        await recordAudit(trx, actor, {
          action: 'user.change_password',
          targetType: 'user',
          targetId: userId,
        });
      });
    },
  };
}

/** The acting user's id; the profile operations make no sense for operator commands or background jobs. */
function requireUser(actor: Actor): string {
  if (actor.userId === null) {
    throw new DomainError(
      'failed_precondition',
      'This operation is about a signed-in user, and this request has none; call it with a user’s credentials.',
    );
  }
  return actor.userId;
}

async function loadProfileOrThrow(db: Executor, actor: Actor, userId: string): Promise<UserProfile> {
  const row = await db
    .selectFrom('users')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .innerJoin('subscriptions', 'subscriptions.account_id', 'users.account_id')
    .select([
      'users.id',
      'users.email',
      'users.first_name',
      'users.last_name',
      'users.role',
      'users.auth_token_created_at',
      'users.created_at',
      'accounts.id as account_id',
      'accounts.name as account_name',
      'accounts.time_zone',
      'accounts.currency',
      'subscriptions.plan',
      'subscriptions.status',
      'subscriptions.current_period_end',
    ])
    .where('users.id', '=', userId)
    .where('users.account_id', '=', actor.accountId)
    .executeTakeFirst();
  if (!row) throw notFound('user', userId);
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    role: row.role as UserRole,
    account: { id: row.account_id, name: row.account_name, timeZone: row.time_zone, currency: row.currency },
    subscription: {
      plan: row.plan,
      status: row.status as SubscriptionStatus,
      inGoodStanding: isGoodStanding(row.status),
      currentPeriodEnd: row.current_period_end?.toISOString() ?? null,
    },
    authToken: row.auth_token_created_at ? { createdAt: row.auth_token_created_at.toISOString() } : null,
    createdAt: row.created_at.toISOString(),
  };
}
