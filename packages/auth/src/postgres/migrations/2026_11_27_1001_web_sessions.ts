import { type Kysely, sql } from 'kysely';

// Frozen in time: imports no application types; a later schema change is a new migration beside it.

/**
 * Signed-in browsers of the account pages and the OAuth sign-in, one row per session, shared by every
 * instance: signing out deletes the row, so a copied cookie stops working everywhere at once. The cookie
 * carries a random id; the row keeps only its SHA-256, so a database backup holds no usable session.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table web_sessions (
      id_hash text primary key,
      user_id text not null references users (id) on delete cascade,
      created_at timestamptz not null,
      last_seen_at timestamptz not null,
      expires_at timestamptz not null,
      user_agent text not null,
      ip_address text not null
    )`.execute(db);
  // The settings page lists a user's sessions and ends all but one of them.
  await sql`create index web_sessions_user on web_sessions (user_id)`.execute(db);
}

/** Drops the sessions table. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists web_sessions`.execute(db);
}
