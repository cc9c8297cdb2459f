import { type Kysely, sql } from 'kysely';

// Frozen in time: imports no application types; a later change is a new migration beside it.

/**
 * Tells every listening instance, on channel `innkeep_auth`, when a fact an access-token check relies on
 * changes, so per-instance caches of those checks can drop what is no longer true at once:
 *
 * - `grant:<id>`: a Grant, or an access or refresh token of it, was deleted (revocation, disconnect,
 *   refresh-token reuse), or a Grant or access-token row was rewritten (its expiry, payload or owner).
 * - `user:<id>`: the user's role changed, or the user was deleted.
 * - `account:<id>`: the account's subscription status changed, or the subscription was deleted.
 * - `reset`: one of these tables was truncated; forget everything.
 *
 * Notifications go out when the changing transaction commits, and not at all when it rolls back. Deleting
 * an account cascades to its users and subscription, whose row triggers fire too. `last_used_at` bumps are
 * left out on purpose: they change nothing a check decides on, and happen once a minute per grant.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function innkeep_notify_auth_grant() returns trigger language plpgsql as $$
    begin
      if old.model = 'Grant' then
        perform pg_notify('innkeep_auth', 'grant:' || old.id);
      elsif old.grant_id is not null then
        perform pg_notify('innkeep_auth', 'grant:' || old.grant_id);
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger oidc_model_notify_auth_delete after delete on oidc_model
    for each row when (old.model in ('AccessToken', 'RefreshToken', 'Grant'))
    execute function innkeep_notify_auth_grant()`.execute(db);
  // oidc-provider rewrites a row with an upsert (insert … on conflict do update), which fires this too.
  await sql`
    create trigger oidc_model_notify_auth_update
    after update of payload, expires_at, consumed_at, grant_id, account_id, client_id on oidc_model
    for each row when (old.model in ('AccessToken', 'Grant'))
    execute function innkeep_notify_auth_grant()`.execute(db);

  await sql`
    create function innkeep_notify_auth_user() returns trigger language plpgsql as $$
    begin
      perform pg_notify('innkeep_auth', 'user:' || old.id);
      return null;
    end $$`.execute(db);
  await sql`
    create trigger users_notify_auth_update after update of role, account_id on users
    for each row when (old.role is distinct from new.role or old.account_id is distinct from new.account_id)
    execute function innkeep_notify_auth_user()`.execute(db);
  await sql`
    create trigger users_notify_auth_delete after delete on users
    for each row execute function innkeep_notify_auth_user()`.execute(db);

  await sql`
    create function innkeep_notify_auth_account() returns trigger language plpgsql as $$
    begin
      perform pg_notify('innkeep_auth', 'account:' || old.account_id);
      return null;
    end $$`.execute(db);
  await sql`
    create trigger subscriptions_notify_auth_update after update of status, account_id on subscriptions
    for each row when (old.status is distinct from new.status or old.account_id is distinct from new.account_id)
    execute function innkeep_notify_auth_account()`.execute(db);
  await sql`
    create trigger subscriptions_notify_auth_delete after delete on subscriptions
    for each row execute function innkeep_notify_auth_account()`.execute(db);

  await sql`
    create function innkeep_notify_auth_reset() returns trigger language plpgsql as $$
    begin
      perform pg_notify('innkeep_auth', 'reset');
      return null;
    end $$`.execute(db);
  for (const table of ['oidc_model', 'users', 'subscriptions']) {
    await sql`
      create trigger ${sql.id(`${table}_notify_auth_truncate`)} after truncate on ${sql.table(table)}
      for each statement execute function innkeep_notify_auth_reset()`.execute(db);
  }
}

/** Removes the triggers and their functions. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['oidc_model', 'users', 'subscriptions']) {
    await sql`drop trigger if exists ${sql.id(`${table}_notify_auth_truncate`)} on ${sql.table(table)}`.execute(
      db,
    );
  }
  await sql`drop trigger if exists subscriptions_notify_auth_delete on subscriptions`.execute(db);
  await sql`drop trigger if exists subscriptions_notify_auth_update on subscriptions`.execute(db);
  await sql`drop trigger if exists users_notify_auth_delete on users`.execute(db);
  await sql`drop trigger if exists users_notify_auth_update on users`.execute(db);
  await sql`drop trigger if exists oidc_model_notify_auth_update on oidc_model`.execute(db);
  await sql`drop trigger if exists oidc_model_notify_auth_delete on oidc_model`.execute(db);
  await sql`drop function if exists innkeep_notify_auth_reset()`.execute(db);
  await sql`drop function if exists innkeep_notify_auth_account()`.execute(db);
  await sql`drop function if exists innkeep_notify_auth_user()`.execute(db);
  await sql`drop function if exists innkeep_notify_auth_grant()`.execute(db);
}
