import { type Kysely, sql } from 'kysely';

// Frozen in time: imports no application types; a later schema change is a new migration beside it.

/**
 * Step-up marks: `/mcp` refused a token of the grant for want of scopes, and the next refresh of that grant
 * is refused so that a client which refreshes instead of authorizing again (MCP SDK 1.x) starts a new
 * authorization with the wider scope. One row per grant, shared by every instance; `scopes` is
 * space-separated, as OAuth writes them. No foreign key, since grants live in `oidc_model` keyed by model
 * and id: the mark of a grant disconnected meanwhile expires after a day like any other.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table oauth_step_up_marks (
      grant_id text primary key,
      scopes text not null,
      marked_at timestamptz not null
    )`.execute(db);
  // Marking a grant also removes the marks that have expired, found by age.
  await sql`create index oauth_step_up_marks_age on oauth_step_up_marks (marked_at)`.execute(db);
}

/** Drops the marks. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists oauth_step_up_marks`.execute(db);
}
