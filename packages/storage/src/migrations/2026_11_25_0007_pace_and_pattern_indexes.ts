import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released.

/**
 * Booking pace and booking patterns read a year of a large portfolio per question, so each gets index-only
 * ranges over exactly the rows it adds up:
 *
 * - `reservation_changes_books`: the accepted snapshots by check-in date with what the books add up. The
 *   books of a period are the snapshots overlapping it, i.e. checking in from (period start − the longest
 *   accepted stay) to the period end: a range bounded on both sides. It replaces
 *   `reservation_changes_on_the_books` (keyed on check-out), whose range ran on through every later booking.
 * - `reservation_changes_accepted_length`: the longest accepted snapshot of an account in one probe, the
 *   bound above. Snapshots keep the dates they had, so a shortened stay's old snapshot can be longer than
 *   any reservation is now, and the reservations' own longest stay is no bound for them.
 * - `reservation_changes_accepted_at` and `reservation_changes_superseded_at`: the accepted snapshots that
 *   began, and those that were replaced, in a window of time (the pickup windows; the span between the
 *   readings of the books): a few hundred rows instead of a scan of the period's books.
 * - `reservations_accepted_check_in`: the accepted stays by check-in date with the columns the booking
 *   patterns group by (stay length, booking date, party size), narrower than `reservations_account_check_in`
 *   (every status, every column the other reservation tools need).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index reservation_changes_books on reservation_changes (account_id, start_date)
    include (end_date, changed_at, valid_until, accommodation_minor, currency, listing_id, channel)
    where status = 'accepted'`.execute(db);
  await sql`
    create index reservation_changes_accepted_length on reservation_changes (account_id, (end_date - start_date))
    where status = 'accepted'`.execute(db);
  await sql`
    create index reservation_changes_accepted_at on reservation_changes (account_id, changed_at)
    include (valid_until, start_date, end_date, accommodation_minor, currency, reservation_id, listing_id, channel)
    where status = 'accepted'`.execute(db);
  await sql`
    create index reservation_changes_superseded_at on reservation_changes (account_id, valid_until)
    include (changed_at, start_date, end_date, accommodation_minor, currency, reservation_id, listing_id, channel)
    where status = 'accepted' and valid_until is not null`.execute(db);
  await sql`drop index if exists reservation_changes_on_the_books`.execute(db);
  await sql`
    create index reservations_accepted_check_in on reservations (account_id, start_date)
    include (nights, booked_on, adults, children, listing_id, channel)
    where status = 'accepted'`.execute(db);
}

/** Drops the indexes and restores the check-out-keyed index of the books. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists reservations_accepted_check_in`.execute(db);
  await sql`
    create index if not exists reservation_changes_on_the_books on reservation_changes (account_id, end_date)
    include (start_date, listing_id, channel, changed_at, valid_until, accommodation_minor, currency, reservation_id)
    where status = 'accepted'`.execute(db);
  await sql`drop index if exists reservation_changes_superseded_at`.execute(db);
  await sql`drop index if exists reservation_changes_accepted_at`.execute(db);
  await sql`drop index if exists reservation_changes_accepted_length`.execute(db);
  await sql`drop index if exists reservation_changes_books`.execute(db);
}
