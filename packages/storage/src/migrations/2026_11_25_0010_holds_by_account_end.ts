import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released.

/**
 * `calendar_holds_account_end`: an account's holds by the date they end, with their listing and nights.
 * Listed-price analytics find every listing's open runs around a year of nights from all holds overlapping
 * it, a third of a three-year calendar; without this index that read is a scan of every account's holds.
 * Holds always have both ends, so those overlapping a window are those ending after it starts (the index
 * range) and starting before it ends (checked on the covered nights), read in an index-only scan.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index calendar_holds_account_end on calendar_holds (account_id, upper(nights))
    include (listing_id, nights)`.execute(db);
}

/** Drops the index. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists calendar_holds_account_end`.execute(db);
}
