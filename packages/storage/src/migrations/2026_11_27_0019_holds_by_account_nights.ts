import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released.

/**
 * `calendar_holds_account_nights`: an account's holds by the nights they take. "Which listings are free on
 * every night of this window" is one anti-join of the account's listings against its holds overlapping the
 * window; with only the exclusion constraint's (listing_id, nights) index, finding those holds meant either
 * a probe per listing or reading every account's holds overlapping the window. With this index the read is
 * the account's overlapping holds and nothing else, however many accounts share the table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index calendar_holds_account_nights on calendar_holds using gist (account_id, nights)`.execute(db);
}

/** Drops the index. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists calendar_holds_account_nights`.execute(db);
}
