import { type Kysely, sql } from 'kysely';

// Frozen in time: imports no application types; a later change is a new migration beside it.

/**
 * Extends the `innkeep_auth` notifications to the REST credentials, so per-instance caches of authToken and
 * apiKey checks drop what is no longer true at once:
 *
 * - `user:<id>` also when the user's authToken changes (generated anew, which revokes the old one).
 * - `reset` when a partner apiKey is revoked, changed or deleted, or the table is truncated: rare operator
 *   commands, for which forgetting every cached check is cheaper than a message kind of their own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create trigger users_notify_auth_token after update of auth_token_hash on users
    for each row when (old.auth_token_hash is distinct from new.auth_token_hash)
    execute function innkeep_notify_auth_user()`.execute(db);
  await sql`
    create trigger partner_api_keys_notify_auth_update after update or delete on partner_api_keys
    for each statement execute function innkeep_notify_auth_reset()`.execute(db);
  await sql`
    create trigger partner_api_keys_notify_auth_truncate after truncate on partner_api_keys
    for each statement execute function innkeep_notify_auth_reset()`.execute(db);
}

/** Removes the triggers. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists partner_api_keys_notify_auth_truncate on partner_api_keys`.execute(db);
  await sql`drop trigger if exists partner_api_keys_notify_auth_update on partner_api_keys`.execute(db);
  await sql`drop trigger if exists users_notify_auth_token on users`.execute(db);
}
