import { allScopes, type Clock, type Scope } from '@innkeep/domain';
import { type Kysely, sql } from 'kysely';
import { grantedScopes } from './connected-apps.ts';
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
  /**
   * What the user has allowed the client in every grant still in force (not disconnected, not expired),
   * in catalogue order: the consent page tells these apart from what the client newly asks for.
   */
  allowedScopes(userId: string, clientId: string): Promise<Scope[]>;
}

// Each authorization not remembered makes a grant; the newest are enough to know what was allowed before.
const maxGrantsConsidered = 50;

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

    async allowedScopes(userId, clientId) {
      const now = clock.now();
      const rows = await db
        .selectFrom('oidc_model')
        .select('payload')
        .where('model', '=', 'Grant')
        .where('account_id', '=', userId)
        .where(sql<string>`coalesce(client_id, payload->>'clientId')`, '=', clientId)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
        .orderBy('created_at', 'desc')
        .limit(maxGrantsConsidered)
        .execute();
      const allowed = new Set(rows.flatMap((row) => grantedScopes(row.payload)));
      return allScopes.filter((scope) => allowed.has(scope));
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
