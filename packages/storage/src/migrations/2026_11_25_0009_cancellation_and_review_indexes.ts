import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released.

/**
 * Cancellation and review analytics over a year of a large portfolio:
 *
 * - `reservations_account_cancelled`: the cancellations of an account by check-in date, with what the
 *   cancellation timings need (listing for its time zone, channel, booking and cancellation dates). They are
 *   a tenth of the reservations, so reading them alone beats filtering the whole check-in index.
 * - `reviews.local_date`: the listing-local date a review was submitted. Review figures select the period and
 *   bucket the trend by it, and converting every review's timestamp into its listing's zone at query time
 *   costs more than the rest of the query. A trigger keeps it right in the same statement as any write of
 *   `submitted_at` or `listing_id` (and of a listing's time zone), whichever code path writes, the same way
 *   `reservations.booked_on` is kept.
 * - `reviews_account_local_date`: the period's reviews with their ratings and response in an index-only scan.
 * - `reservations.reviewed`: whether the stay has a review (of its own account). The review rate counts the
 *   completed stays of a period that got one; finding that by joining a year of stays to every review of the
 *   account costs far more than the rest of review stats. Statement triggers on `reviews` recompute it for
 *   the reservations each insert, update or delete of reviews touches, in the same statement.
 * - `reservations_account_check_out_reviewed`: sold stays by check-out date with `reviewed`, so the review
 *   rate is one index-only count.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index reservations_account_cancelled on reservations (account_id, start_date)
    include (listing_id, channel, booked_on, cancelled_at)
    where status = 'cancelled'`.execute(db);

  await sql`alter table reviews add column local_date date`.execute(db);
  await sql`
    create function reviews_set_local_date() returns trigger language plpgsql as $$
    begin
      new.local_date := (new.submitted_at at time zone (select time_zone from listings where id = new.listing_id))::date;
      return new;
    end
    $$`.execute(db);
  await sql`
    create trigger reviews_local_date
    before insert or update of submitted_at, listing_id on reviews
    for each row execute function reviews_set_local_date()`.execute(db);
  await sql`
    create function listings_reset_review_local_date() returns trigger language plpgsql as $$
    begin
      update reviews
      set local_date = (submitted_at at time zone new.time_zone)::date
      where listing_id = new.id;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger listings_review_local_date
    after update of time_zone on listings
    for each row when (old.time_zone is distinct from new.time_zone)
    execute function listings_reset_review_local_date()`.execute(db);
  await sql`
    update reviews v
    set local_date = (v.submitted_at at time zone l.time_zone)::date
    from listings l
    where l.id = v.listing_id`.execute(db);
  await sql`alter table reviews alter column local_date set not null`.execute(db);
  await sql`
    create index reviews_account_local_date on reviews (account_id, local_date)
    include (listing_id, channel, overall_rating, cleanliness_rating, accuracy_rating, check_in_rating,
      communication_rating, location_rating, value_rating, submitted_at, responded_at)`.execute(db);

  await sql`alter table reservations add column reviewed boolean not null default false`.execute(db);
  await sql`
    create function reservations_set_reviewed() returns trigger language plpgsql as $$
    begin
      update reservations r
      set reviewed = exists (select from reviews v where v.reservation_id = r.id and v.account_id = r.account_id)
      where r.id in (select reservation_id from changed_reviews)
        and r.reviewed is distinct from
          exists (select from reviews v where v.reservation_id = r.id and v.account_id = r.account_id);
      return null;
    end
    $$`.execute(db);
  // A trigger with transition tables takes one event and one side, so an update has one per side: the
  // reservation a review leaves and the one it joins.
  await sql`
    create trigger reviews_reviewed_insert after insert on reviews
    referencing new table as changed_reviews
    for each statement execute function reservations_set_reviewed()`.execute(db);
  await sql`
    create trigger reviews_reviewed_delete after delete on reviews
    referencing old table as changed_reviews
    for each statement execute function reservations_set_reviewed()`.execute(db);
  await sql`
    create trigger reviews_reviewed_update_old after update on reviews
    referencing old table as changed_reviews
    for each statement execute function reservations_set_reviewed()`.execute(db);
  await sql`
    create trigger reviews_reviewed_update_new after update on reviews
    referencing new table as changed_reviews
    for each statement execute function reservations_set_reviewed()`.execute(db);
  await sql`
    update reservations r
    set reviewed = true
    where exists (
      select from reviews v where v.reservation_id = r.id and v.account_id = r.account_id
    )`.execute(db);
  await sql`
    create index reservations_account_check_out_reviewed on reservations (account_id, end_date)
    include (listing_id, channel, reviewed) where status = 'accepted'`.execute(db);
}

/** Drops the indexes, the derived columns and their triggers. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists reservations_account_check_out_reviewed`.execute(db);
  for (const trigger of ['insert', 'delete', 'update_old', 'update_new']) {
    await sql`drop trigger if exists ${sql.raw(`reviews_reviewed_${trigger}`)} on reviews`.execute(db);
  }
  await sql`drop function if exists reservations_set_reviewed()`.execute(db);
  await sql`alter table reservations drop column if exists reviewed`.execute(db);
  await sql`drop index if exists reviews_account_local_date`.execute(db);
  await sql`drop trigger if exists listings_review_local_date on listings`.execute(db);
  await sql`drop function if exists listings_reset_review_local_date()`.execute(db);
  await sql`drop trigger if exists reviews_local_date on reviews`.execute(db);
  await sql`drop function if exists reviews_set_local_date()`.execute(db);
  await sql`alter table reviews drop column if exists local_date`.execute(db);
  await sql`drop index if exists reservations_account_cancelled`.execute(db);
}
