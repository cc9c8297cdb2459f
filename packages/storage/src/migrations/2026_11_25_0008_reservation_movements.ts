import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released.

/**
 * `reservations_listing_check_out`: a listing's accepted stays in check-out order, with the check-in and
 * channel included. Turnover stats read each listing's check-outs in a period and pair each with the next
 * check-in: accepted stays of a listing never overlap, so in check-out order the next check-in is the next
 * row's, and the whole question is one index-only range per listing with no sort.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index if not exists reservations_listing_check_out on reservations (listing_id, end_date)
    include (start_date, channel)
    where status = 'accepted'`.execute(db);
}

/** Drops the index. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists reservations_listing_check_out`.execute(db);
}
