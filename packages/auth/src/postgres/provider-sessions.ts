import type { Kysely } from 'kysely';
import type { AuthDatabase } from './database.ts';

/**
 * Name of oidc-provider's own session cookie (its default). Its value is the id of the provider's
 * `Session` row; a signature travels beside it in `_session.sig`.
 */
export const providerSessionCookieName = '_session';

/**
 * Ends the provider session a browser's cookie names. The id is the provider's own random session secret,
 * so whoever presents it holds that session already: acting on it without checking the cookie's
 * signature ends nothing its holder could not end.
 */
export async function endProviderSession(
  db: Kysely<AuthDatabase>,
  sessionId: string | undefined,
): Promise<void> {
  if (sessionId === undefined || sessionId.length === 0 || sessionId.length > 128) return;
  await db.deleteFrom('oidc_model').where('model', '=', 'Session').where('id', '=', sessionId).execute();
}

/** Ends every provider session of `userId` except the one `keepSessionId` names (this browser's). */
export async function endOtherProviderSessions(
  db: Kysely<AuthDatabase>,
  userId: string,
  keepSessionId: string | undefined,
): Promise<void> {
  let query = db.deleteFrom('oidc_model').where('model', '=', 'Session').where('account_id', '=', userId);
  if (keepSessionId !== undefined) query = query.where('id', '<>', keepSessionId);
  await query.execute();
}
