import type { Clock } from '@innkeep/domain';
import type { Kysely } from 'kysely';
import type { AuthDatabase, AuthExecutor } from './database.ts';

/**
 * "Remember this decision": the grant a user approved for a client, kept in PostgreSQL so that any
 * instance, and any browser the user signs in from, finds it again.
 */
export interface ConsentStore {
  /** The grant id remembered for (user, client), or undefined when the user asked not to be remembered. */
  rememberedGrantId(userId: string, clientId: string): Promise<string | undefined>;
  /** Remembers `grantId` for (user, client), replacing an earlier decision. */
  remember(userId: string, clientId: string, grantId: string): Promise<void>;
}

/** The consent store over `oauth_consents`. */
export function createConsentStore(db: Kysely<AuthDatabase>, clock: Clock): ConsentStore {
  return {
    async rememberedGrantId(userId, clientId) {
      const row = await db
        .selectFrom('oauth_consents')
        .select('grant_id')
        .where('user_id', '=', userId)
        .where('client_id', '=', clientId)
        .executeTakeFirst();
      return row?.grant_id;
    },

    async remember(userId, clientId, grantId) {
      const now = clock.now();
      await db
        .insertInto('oauth_consents')
        .values({ user_id: userId, client_id: clientId, grant_id: grantId, updated_at: now })
        .onConflict((conflict) =>
          conflict.columns(['user_id', 'client_id']).doUpdateSet({ grant_id: grantId, updated_at: now }),
        )
        .execute();
    },
  };
}

/**
 * Forgets every remembered decision that points at `grantId`. A revoked grant must not be found again,
 * or the user would silently skip consent onto a grant that no longer exists.
 */
export async function forgetConsentsForGrant(db: AuthExecutor, grantId: string): Promise<void> {
  await db.deleteFrom('oauth_consents').where('grant_id', '=', grantId).execute();
}
