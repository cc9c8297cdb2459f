import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released.

/**
 * `calendar_hold_spans`: per listing with holds, its first held night (`first_night`) and the night after its
 * last held one (`end_night`), derived from `calendar_holds`. Listed-price analytics need every open run of a
 * year of a large portfolio: `calendar_gaps` holds the runs between two holds, and these spans give the rest
 * (the run before a listing's first hold, the one after its last, and, by their absence, listings without
 * holds) in one row per listing, where finding them from the holds took two index probes per listing.
 *
 * Statement triggers on `calendar_holds` keep it exact in the same transaction as any write of a hold,
 * whichever code path writes, as they keep `calendar_gaps`: they rebuild the spans of every listing the
 * statement touched from its holds, after locking those listings' rows in id order (`no key update`, the lock
 * the gaps' triggers take too; a transaction holding it already takes it again at no cost), so concurrent
 * writers to one listing rebuild one after the other and the last rebuild sees every committed hold.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table calendar_hold_spans (
      listing_id text primary key references listings (id) on delete cascade,
      account_id text not null,
      first_night date not null,
      end_night date not null check (end_night > first_night)
    )`.execute(db);
  // Analytics read an account's spans; without this they would scan every account's.
  await sql`
    create index calendar_hold_spans_account on calendar_hold_spans (account_id)
    include (listing_id, first_night, end_night)`.execute(db);
  // Holds never overlap, so the hold starting last also ends last: both ends are one index probe each.
  await sql`
    create function calendar_hold_spans_rebuild(listing_ids text[]) returns void language plpgsql as $$
    begin
      perform 1 from listings where id = any(listing_ids) order by id for no key update;
      delete from calendar_hold_spans where listing_id = any(listing_ids);
      insert into calendar_hold_spans (listing_id, account_id, first_night, end_night)
      select first_hold.listing_id, first_hold.account_id, lower(first_hold.nights), upper(last_hold.nights)
      from (select distinct unnest(listing_ids) as id) l
      cross join lateral (
        select h.listing_id, h.account_id, h.nights from calendar_holds h
        where h.listing_id = l.id order by lower(h.nights) limit 1
      ) first_hold
      cross join lateral (
        select h.nights from calendar_holds h
        where h.listing_id = l.id order by lower(h.nights) desc limit 1
      ) last_hold;
    end
    $$`.execute(db);
  await sql`
    create function calendar_holds_rebuild_spans() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        perform calendar_hold_spans_rebuild(array(select listing_id from inserted_holds));
      elsif tg_op = 'DELETE' then
        perform calendar_hold_spans_rebuild(array(select listing_id from deleted_holds));
      else
        perform calendar_hold_spans_rebuild(array(
          select listing_id from deleted_holds union select listing_id from inserted_holds));
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger calendar_holds_spans_insert
    after insert on calendar_holds
    referencing new table as inserted_holds
    for each statement execute function calendar_holds_rebuild_spans()`.execute(db);
  await sql`
    create trigger calendar_holds_spans_update
    after update on calendar_holds
    referencing old table as deleted_holds new table as inserted_holds
    for each statement execute function calendar_holds_rebuild_spans()`.execute(db);
  await sql`
    create trigger calendar_holds_spans_delete
    after delete on calendar_holds
    referencing old table as deleted_holds
    for each statement execute function calendar_holds_rebuild_spans()`.execute(db);
  await sql`
    create function calendar_holds_clear_spans() returns trigger language plpgsql as $$
    begin
      delete from calendar_hold_spans;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger calendar_holds_spans_truncate
    after truncate on calendar_holds
    for each statement execute function calendar_holds_clear_spans()`.execute(db);

  // The backfill is the triggers' own rebuild, over every listing that has holds.
  await sql`
    select calendar_hold_spans_rebuild(array(select distinct listing_id from calendar_holds))`.execute(db);
}

/** Drops the spans and their triggers. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists calendar_holds_spans_truncate on calendar_holds`.execute(db);
  await sql`drop trigger if exists calendar_holds_spans_delete on calendar_holds`.execute(db);
  await sql`drop trigger if exists calendar_holds_spans_update on calendar_holds`.execute(db);
  await sql`drop trigger if exists calendar_holds_spans_insert on calendar_holds`.execute(db);
  await sql`drop function if exists calendar_holds_clear_spans()`.execute(db);
  await sql`drop function if exists calendar_holds_rebuild_spans()`.execute(db);
  await sql`drop function if exists calendar_hold_spans_rebuild(text[])`.execute(db);
  await sql`drop table if exists calendar_hold_spans`.execute(db);
}
