import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released.

/**
 * Reservation analytics read the check-in cohort of a period (check-ins, stay lengths, lead times,
 * cancellations) for a year of thousands of listings at a time, so:
 *
 * - `reservations.booked_on`: the listing-local date the reservation was confirmed (else created). Lead time
 *   and booking weekday need it for every reservation of the cohort, and converting each timestamp into its
 *   listing's zone at query time costs more than the rest of the query. A trigger keeps it right in the same
 *   statement as any write of `confirmed_at`, `created_at` or `listing_id` (and of a listing's time zone),
 *   whichever code path writes, so no caller can forget it.
 * - `reservations_account_check_in`: a covering index on check-in date with the columns the cohort reads (also
 *   the currency, rent and cancellation the status and cancellation breakdowns need), so the cohort is an
 *   index-only scan rather than a read of the wide reservation rows.
 * - `reservations_account_nights`: the account's longest stay in one probe. A stay touching a period began
 *   at most that many nights before it, which bounds the check-in range such questions scan.
 * - `reservations_listing_accepted`: a listing's next accepted check-in after a date in one probe
 *   (turnarounds past a period's end).
 * - `reservation_changes.valid_until` (the next snapshot's `changed_at`; null for the current one),
 *   `listing_id` and `channel`: booking pace asks what was on the books at several moments, which is each
 *   reservation's snapshot valid then. With the end of its validity on the row, that is a plain filter
 *   (`changed_at < t <= valid_until`) over an index of accepted snapshots, instead of a sort of the whole log
 *   per question. A statement trigger fills the three columns for every insert into the log.
 * - `calendar_holds_listing_start`: a listing's holds by first night, for finding calendar gaps.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table reservations add column booked_on date`.execute(db);
  await sql`
    create function reservations_set_booked_on() returns trigger language plpgsql as $$
    begin
      new.booked_on := (coalesce(new.confirmed_at, new.created_at)
        at time zone (select time_zone from listings where id = new.listing_id))::date;
      return new;
    end
    $$`.execute(db);
  await sql`
    create trigger reservations_booked_on
    before insert or update of confirmed_at, created_at, listing_id on reservations
    for each row execute function reservations_set_booked_on()`.execute(db);
  await sql`
    create function listings_reset_booked_on() returns trigger language plpgsql as $$
    begin
      update reservations
      set booked_on = (coalesce(confirmed_at, created_at) at time zone new.time_zone)::date
      where listing_id = new.id;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger listings_booked_on
    after update of time_zone on listings
    for each row when (old.time_zone is distinct from new.time_zone)
    execute function listings_reset_booked_on()`.execute(db);

  await sql`
    update reservations r
    set booked_on = (coalesce(r.confirmed_at, r.created_at) at time zone l.time_zone)::date
    from listings l
    where l.id = r.listing_id`.execute(db);
  await sql`alter table reservations alter column booked_on set not null`.execute(db);
  await sql`
    create index reservations_account_check_in on reservations (account_id, start_date)
    include (status, listing_id, channel, nights, booked_on, adults, children, currency, accommodation_minor,
      cancelled_by, cancelled_at)`.execute(db);
  await sql`create index reservations_account_nights on reservations (account_id, nights)`.execute(db);
  await sql`
    create index reservations_listing_accepted on reservations (listing_id, start_date) where status = 'accepted'
  `.execute(db);

  await sql`
    alter table reservation_changes
      add column listing_id text,
      add column channel text,
      add column valid_until timestamptz`.execute(db);
  // Snapshots are ordered by (changed_at, id); an earlier snapshot with the same changed_at is valid for no
  // time at all. Recomputing every snapshot of the touched reservations also handles a snapshot inserted
  // out of order.
  await sql`
    create function reservation_changes_set_spans() returns trigger language plpgsql as $$
    begin
      update reservation_changes rc
      set listing_id = s.listing_id, channel = s.channel, valid_until = s.next_changed_at
      from (
        select c.id, r.listing_id, r.channel,
          lead(c.changed_at) over (partition by c.reservation_id order by c.changed_at, c.id) as next_changed_at
        from reservation_changes c
        join reservations r on r.id = c.reservation_id
        where c.reservation_id in (select reservation_id from inserted)
      ) s
      where rc.id = s.id
        and (rc.listing_id is null or rc.valid_until is distinct from s.next_changed_at);
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger reservation_changes_spans
    after insert on reservation_changes
    referencing new table as inserted
    for each statement execute function reservation_changes_set_spans()`.execute(db);
  await sql`
    update reservation_changes rc
    set listing_id = s.listing_id, channel = s.channel, valid_until = s.next_changed_at
    from (
      select c.id, r.listing_id, r.channel,
        lead(c.changed_at) over (partition by c.reservation_id order by c.changed_at, c.id) as next_changed_at
      from reservation_changes c
      join reservations r on r.id = c.reservation_id
    ) s
    where rc.id = s.id`.execute(db);
  // Stays are booked at most a year or two ahead, so keyed on the check-out date an index range "ends after the
  // period starts" reads the period and the bookings beyond it, never the years of history before it.
  await sql`
    create index reservation_changes_on_the_books on reservation_changes (account_id, end_date)
    include (start_date, listing_id, channel, changed_at, valid_until, accommodation_minor, currency, reservation_id)
    where status = 'accepted'`.execute(db);

  // Gap analysis reads each listing's holds from the last one starting before a period to the first one
  // starting after it: two one-row probes and a range per listing, index-only thanks to the included range.
  await sql`
    create index calendar_holds_listing_start on calendar_holds (listing_id, lower(nights)) include (nights)
  `.execute(db);
}

/** Drops the derived columns, their triggers and the indexes. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists calendar_holds_listing_start`.execute(db);
  await sql`drop index if exists reservation_changes_on_the_books`.execute(db);
  await sql`drop trigger if exists reservation_changes_spans on reservation_changes`.execute(db);
  await sql`drop function if exists reservation_changes_set_spans()`.execute(db);
  await sql`
    alter table reservation_changes
      drop column if exists listing_id,
      drop column if exists channel,
      drop column if exists valid_until`.execute(db);
  await sql`drop index if exists reservations_listing_accepted`.execute(db);
  await sql`drop index if exists reservations_account_nights`.execute(db);
  await sql`drop index if exists reservations_account_check_in`.execute(db);
  await sql`drop trigger if exists listings_booked_on on listings`.execute(db);
  await sql`drop function if exists listings_reset_booked_on()`.execute(db);
  await sql`drop trigger if exists reservations_booked_on on reservations`.execute(db);
  await sql`drop function if exists reservations_set_booked_on()`.execute(db);
  await sql`alter table reservations drop column if exists booked_on`.execute(db);
}
