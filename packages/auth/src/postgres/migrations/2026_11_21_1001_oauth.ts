import { type Kysely, sql } from 'kysely';

// Frozen in time: imports no application types; a later schema change is a new migration beside it.

/** The authorization server's state: every oidc-provider model, remembered consents, login throttling. */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One table for every oidc-provider model (Client, Session, Interaction, Grant, AuthorizationCode,
  // AccessToken, RefreshToken). Token ids are stored as SHA-256 of the token value, never the value itself.
  await sql`
    create table oidc_model (
      model text not null,
      id text not null,
      payload jsonb not null,
      grant_id text,
      uid text,
      user_code text,
      account_id text,
      client_id text,
      expires_at timestamptz,
      consumed_at timestamptz,
      last_used_at timestamptz,
      created_at timestamptz not null default now(),
      primary key (model, id)
    )`.execute(db);
  await sql`create index oidc_model_grant on oidc_model (grant_id) where grant_id is not null`.execute(db);
  await sql`create unique index oidc_model_uid on oidc_model (model, uid) where uid is not null`.execute(db);
  await sql`create index oidc_model_expiry on oidc_model (expires_at) where expires_at is not null`.execute(
    db,
  );
  await sql`create index oidc_model_account on oidc_model (account_id, model) where account_id is not null`.execute(
    db,
  );

  // "Remember this decision": the grant a user approved for a client, found again on any instance.
  await sql`
    create table oauth_consents (
      user_id text not null references users (id) on delete cascade,
      client_id text not null,
      grant_id text not null,
      updated_at timestamptz not null default now(),
      primary key (user_id, client_id)
    )`.execute(db);

  // Failed sign-ins per key (an email, an address), shared by every instance.
  await sql`
    create table login_throttle (
      key text primary key,
      failures integer not null,
      window_started_at timestamptz not null,
      locked_until timestamptz
    )`.execute(db);
}

/** Drops the authorization server's tables. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists login_throttle`.execute(db);
  await sql`drop table if exists oauth_consents`.execute(db);
  await sql`drop table if exists oidc_model`.execute(db);
}
