import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released.

/**
 * `calendar_gaps`: every run of open nights between two consecutive holds of a listing (`start_date` the
 * first open night, `end_date` the next held one), derived from `calendar_holds`. Gap analysis asks for a
 * year of gaps across thousands of listings; pairing each hold with the next one at query time (a window over
 * a hundred thousand holds) cost more than all the rest of the question, while the gaps themselves are half as
 * many rows and need no pairing.
 *
 * Statement triggers on `calendar_holds` keep it exact in the same transaction as any write of a hold,
 * whichever code path writes (reservations, blocks, the message-rule runner, the demo seeder, cascades from a
 * deleted listing): they rebuild the gaps of every listing the statement touched from its holds. Locking those
 * listings' rows first (in id order; a row lock, so any number of listings fits) makes concurrent writers to
 * one listing rebuild one after the other, each reading the holds the previous one committed (a fresh snapshot
 * per statement under READ COMMITTED), so the last rebuild always sees every hold. The lock is `no key update`:
 * it waits only for other hold writers and listing updates, never for inserts that reference the listing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table calendar_gaps (
      listing_id text not null references listings (id) on delete cascade,
      start_date date not null,
      end_date date not null check (end_date > start_date),
      primary key (listing_id, start_date) include (end_date)
    )`.execute(db);
  await sql`
    create function calendar_gaps_rebuild(listing_ids text[]) returns void language plpgsql as $$
    begin
      perform 1 from listings where id = any(listing_ids) order by id for no key update;
      delete from calendar_gaps where listing_id = any(listing_ids);
      insert into calendar_gaps (listing_id, start_date, end_date)
      select g.listing_id, g.start_date, g.end_date
      from (
        select h.listing_id, upper(h.nights) as start_date,
          lead(lower(h.nights)) over (partition by h.listing_id order by lower(h.nights)) as end_date
        from calendar_holds h
        where h.listing_id = any(listing_ids)
      ) g
      where g.end_date > g.start_date;
    end
    $$`.execute(db);
  // One function for the three statement triggers: each names its transition tables, and only the branch of
  // the firing operation is ever planned.
  await sql`
    create function calendar_holds_rebuild_gaps() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        perform calendar_gaps_rebuild(array(select listing_id from inserted_holds));
      elsif tg_op = 'DELETE' then
        perform calendar_gaps_rebuild(array(select listing_id from deleted_holds));
      else
        perform calendar_gaps_rebuild(array(
          select listing_id from deleted_holds union select listing_id from inserted_holds));
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger calendar_holds_gaps_insert
    after insert on calendar_holds
    referencing new table as inserted_holds
    for each statement execute function calendar_holds_rebuild_gaps()`.execute(db);
  await sql`
    create trigger calendar_holds_gaps_update
    after update on calendar_holds
    referencing old table as deleted_holds new table as inserted_holds
    for each statement execute function calendar_holds_rebuild_gaps()`.execute(db);
  await sql`
    create trigger calendar_holds_gaps_delete
    after delete on calendar_holds
    referencing old table as deleted_holds
    for each statement execute function calendar_holds_rebuild_gaps()`.execute(db);
  await sql`
    create function calendar_holds_clear_gaps() returns trigger language plpgsql as $$
    begin
      delete from calendar_gaps;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger calendar_holds_gaps_truncate
    after truncate on calendar_holds
    for each statement execute function calendar_holds_clear_gaps()`.execute(db);

  // The backfill is the triggers' own rebuild, over every listing that has holds.
  await sql`
    select calendar_gaps_rebuild(array(select distinct listing_id from calendar_holds))`.execute(db);
}

/** Drops the gaps and their triggers. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists calendar_holds_gaps_truncate on calendar_holds`.execute(db);
  await sql`drop trigger if exists calendar_holds_gaps_delete on calendar_holds`.execute(db);
  await sql`drop trigger if exists calendar_holds_gaps_update on calendar_holds`.execute(db);
  await sql`drop trigger if exists calendar_holds_gaps_insert on calendar_holds`.execute(db);
  await sql`drop function if exists calendar_holds_clear_gaps()`.execute(db);
  await sql`drop function if exists calendar_holds_rebuild_gaps()`.execute(db);
  await sql`drop function if exists calendar_gaps_rebuild(text[])`.execute(db);
  await sql`drop table if exists calendar_gaps`.execute(db);
}
