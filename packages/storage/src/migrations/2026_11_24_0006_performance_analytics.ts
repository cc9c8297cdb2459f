import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released.

/**
 * Performance analytics subtract blocked nights (owner, maintenance, manual) from every listing's calendar
 * for each period they report, so they look up an account's blocks overlapping a date range. Blocks are a
 * small share of `calendar_holds` (reservations hold most rows), so without this index that lookup reads
 * the account's whole calendar. The partial GiST index answers `account_id = … and nights && range` over
 * the blocks alone, and covers the columns the lookup needs (an index-only scan).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // `if not exists`: the index was first created by hand on the benchmark copy to measure it.
  await sql`
    create index if not exists calendar_holds_account_blocks on calendar_holds
    using gist (account_id, nights) include (listing_id, block_reason)
    where kind = 'block'`.execute(db);
}

/** Drops the index. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists calendar_holds_account_blocks`.execute(db);
}
