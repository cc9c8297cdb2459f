import type { Actor, UserRole } from '@innkeep/domain';
import {
  addSubUserInputSchema,
  createOwnerAccountInputSchema,
  DomainError,
  generateSecretToken,
  hashPassword,
  hashSecretToken,
  isGoodStanding,
  issueAuthTokenInputSchema,
  issuePartnerApiKeyInputSchema,
  newId,
  notFound,
  type OperatorUseCases,
  parseInput,
  revokePartnerApiKeyInputSchema,
  setSubscriptionStatusInputSchema,
  type UserLookup,
} from '@innkeep/domain';
import type { Executor } from '../database.ts';
import type { StoreDeps } from '../store-deps.ts';
import { inTransaction, recordAudit } from '../transaction.ts';
import { apiKeyPrefix, emailTaken, insertUser, lowerEmail, replaceAuthToken } from './identity-queries.ts';

/** Operator (CLI) commands over PostgreSQL. */
export function createOperatorUseCases({ db, clock }: StoreDeps): OperatorUseCases {
  return {
    async createOwnerAccount(rawInput) {
      const input = parseInput(createOwnerAccountInputSchema, rawInput);
      // Checked before the slow password hash for a quick answer; insertUser's unique index settles races.
      await assertEmailFree(db, input.email);
      const passwordHash = await hashPassword(input.password);
      const accountId = newId('account');
      const userId = newId('user');
      const now = clock.now();
      await inTransaction(db, async (trx) => {
        await trx
          .insertInto('accounts')
          .values({
            id: accountId,
            name: input.accountName,
            time_zone: input.timeZone,
            currency: input.currency,
            created_at: now,
          })
          .execute();
        await trx
          .insertInto('subscriptions')
          .values({
            account_id: accountId,
            plan: input.plan,
            status: input.subscriptionStatus,
            current_period_end: null,
            updated_at: now,
          })
          .execute();
        await insertUser(trx, {
          id: userId,
          account_id: accountId,
          role: 'owner',
          email: input.email,
          first_name: input.firstName,
          last_name: input.lastName,
          password_hash: passwordHash,
        });
        await recordAudit(trx, operatorActor(accountId), {
          action: 'account.create',
          targetType: 'account',
          targetId: accountId,
          details: {
            ownerUserId: userId,
            ownerEmail: input.email,
            plan: input.plan,
            subscriptionStatus: input.subscriptionStatus,
          },
        });
      });
      return { accountId, userId };
    },

    async addSubUser(rawInput) {
      const input = parseInput(addSubUserInputSchema, rawInput);
      await assertEmailFree(db, input.email);
      const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
      const userId = newId('user');
      await inTransaction(db, async (trx) => {
        const account = await trx
          .selectFrom('accounts')
          .select('id')
          .where('id', '=', input.accountId)
          .executeTakeFirst();
        if (!account) throw notFound('account', input.accountId);
        await insertUser(trx, {
          id: userId,
          account_id: input.accountId,
          role: input.role,
          email: input.email,
          first_name: input.firstName,
          last_name: input.lastName,
          password_hash: passwordHash,
        });
        await recordAudit(trx, operatorActor(input.accountId), {
          action: 'user.create',
          targetType: 'user',
          targetId: userId,
          details: { email: input.email, role: input.role },
        });
      });
      return { userId };
    },

    async setSubscriptionStatus(rawInput) {
      const input = parseInput(setSubscriptionStatusInputSchema, rawInput);
      return inTransaction(db, async (trx) => {
        const current = await trx
          .selectFrom('subscriptions')
          .select(['status', 'current_period_end'])
          .where('account_id', '=', input.accountId)
          .forUpdate()
          .executeTakeFirst();
        if (!current) throw notFound('account', input.accountId);
        const periodEnd =
          input.currentPeriodEnd === undefined
            ? current.current_period_end
            : input.currentPeriodEnd === null
              ? null
              : new Date(input.currentPeriodEnd);
        await trx
          .updateTable('subscriptions')
          .set({ status: input.status, current_period_end: periodEnd, updated_at: clock.now() })
          .where('account_id', '=', input.accountId)
          .execute();
        await recordAudit(trx, operatorActor(input.accountId), {
          action: 'subscription.update',
          targetType: 'account',
          targetId: input.accountId,
          details: {
            from: current.status,
            to: input.status,
            currentPeriodEnd: periodEnd?.toISOString() ?? null,
          },
        });
        return {
          accountId: input.accountId,
          status: input.status,
          inGoodStanding: isGoodStanding(input.status),
        };
      });
    },

    async issuePartnerApiKey(rawInput) {
      const input = parseInput(issuePartnerApiKeyInputSchema, rawInput);
      const id = newId('apiKey');
      const apiKey = generateSecretToken(apiKeyPrefix);
      // Partner keys belong to no account, and the audit log is per account; the row itself (created_at,
      // revoked_at) is the record of who holds a key.
      await db
        .insertInto('partner_api_keys')
        .values({
          id,
          partner_name: input.partnerName,
          contact_email: input.contactEmail ?? null,
          key_hash: hashSecretToken(apiKey),
          created_at: clock.now(),
          revoked_at: null,
        })
        .execute();
      return { id, apiKey };
    },

    async revokePartnerApiKey(rawInput) {
      const input = parseInput(revokePartnerApiKeyInputSchema, rawInput);
      const row = await db
        .updateTable('partner_api_keys')
        // Keeps the first revocation time when the command is repeated.
        .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(clock.now())) }))
        .where('id', '=', input.id)
        .returning('id')
        .executeTakeFirst();
      if (!row) {
        throw new DomainError('not_found', `No partner apiKey with id ${input.id}.`, {
          details: { kind: 'apiKey', id: input.id },
        });
      }
    },

    async issueAuthToken(rawInput) {
      const input = parseInput(issueAuthTokenInputSchema, rawInput);
      const user = await findUser(db, input.email);
      if (!user) {
        throw new DomainError('not_found', `No user signs in with ${input.email}.`, {
          details: { kind: 'user', email: input.email },
        });
      }
      const { authToken } = await inTransaction(db, (trx) =>
        replaceAuthToken(
          trx,
          operatorActor(user.accountId),
          user.userId,
          clock.now(),
          'user.auth_token.issue',
        ),
      );
      return { userId: user.userId, authToken };
    },

    async findUserByEmail(email) {
      return findUser(db, email);
    },
  };
}

/** The actor operator commands are audited as: the CLI, acting on `accountId`, with no user. */
function operatorActor(accountId: string): Actor {
  return { accountId, userId: null, role: 'owner', via: 'cli', clientId: null };
}

/** The user signing in with `email`, compared case-insensitively. */
async function findUser(db: Executor, email: string): Promise<UserLookup | null> {
  const row = await db
    .selectFrom('users')
    .select(['id', 'account_id', 'role'])
    .where(lowerEmail(), '=', email.trim().toLowerCase())
    .executeTakeFirst();
  return row ? { userId: row.id, accountId: row.account_id, role: row.role as UserRole } : null;
}

async function assertEmailFree(db: Executor, email: string): Promise<void> {
  if (await findUser(db, email)) throw emailTaken(email);
}
