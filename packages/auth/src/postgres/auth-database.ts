import type { Database as DomainDatabase } from '@innkeep/storage';
import type { Kysely } from 'kysely';
import type { AuthDatabase } from './database.ts';

/**
 * The same connection, typed with the authorization server's tables too. The app migrates the domain's
 * and the auth package's tables into one database, so one pool serves both.
 */
export function withAuthTables(db: Kysely<DomainDatabase>): Kysely<AuthDatabase> {
  return db.withTables<
    Pick<
      AuthDatabase,
      'oidc_model' | 'oauth_consents' | 'login_throttle' | 'web_sessions' | 'oauth_step_up_marks'
    >
  >();
}
