import type { Database as DomainDatabase } from '@innkeep/storage';
import type { ColumnType, Kysely, Transaction } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** One oidc-provider model row. `id` is SHA-256 of the token for token models. */
export interface OidcModelTable {
  model: string;
  id: string;
  payload: ColumnType<Record<string, unknown>, string, string>;
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
  /** oidc-provider's accountId: an Innkeep user id. */
  account_id: string | null;
  client_id: string | null;
  expires_at: Date | null;
  consumed_at: Date | null;
  last_used_at: Date | null;
  created_at: Timestamp;
}

export interface OauthConsentsTable {
  user_id: string;
  client_id: string;
  grant_id: string;
  updated_at: Timestamp;
}

export interface LoginThrottleTable {
  key: string;
  failures: number;
  window_started_at: Date;
  locked_until: Date | null;
}

/** One signed-in browser; `id_hash` is SHA-256 of the random id its cookie carries. */
export interface WebSessionsTable {
  id_hash: string;
  user_id: string;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  /** A short label such as "Firefox on Windows", never the raw header. */
  user_agent: string;
  ip_address: string;
}

/**
 * A step-up mark: `/mcp` refused a token of the grant for want of scopes, and the grant's next refresh is
 * refused so that the client authorizes again with `scopes` (space-separated).
 */
export interface StepUpMarksTable {
  grant_id: string;
  scopes: string;
  marked_at: Date;
}

/** The domain's tables plus the authorization server's. */
export interface AuthDatabase extends DomainDatabase {
  oidc_model: OidcModelTable;
  oauth_consents: OauthConsentsTable;
  login_throttle: LoginThrottleTable;
  web_sessions: WebSessionsTable;
  oauth_step_up_marks: StepUpMarksTable;
}

/** A connection or an open transaction over {@link AuthDatabase}. */
export type AuthExecutor = Kysely<AuthDatabase> | Transaction<AuthDatabase>;
