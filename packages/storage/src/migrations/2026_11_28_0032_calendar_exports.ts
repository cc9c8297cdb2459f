import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released.

/**
 * Calendar exports: the secret iCal feed of each channel link, and what its `Last-Modified` is made of.
 *
 * `listing_channel_links.calendar_export_token` is the feed's secret, 64 hex digits of two random UUIDs (244
 * random bits), drawn by PostgreSQL for every link, the existing ones included (a volatile default is
 * evaluated row by row). Reissuing a link's URL sets it back to its default, so no application code draws it.
 *
 * `listing_hold_changes`: per listing, when its holds last changed, so a feed's `Last-Modified` moves forward
 * when a block is added, shrunk or removed and when a reservation is booked, moved or cancelled (a cancelled
 * reservation's hold is deleted: nothing left in `calendar_holds` shows it). Statement triggers on
 * `calendar_holds`, like those of `calendar_gaps` (migration 0011), stamp it in the same transaction as any
 * hold write, whichever code path writes. The stamp is `clock_timestamp()`, read after the gaps trigger has
 * locked the listing (triggers fire in name order, and this one's name sorts after it), so it is later than
 * the stamp of any write committed before: `now()`, the transaction's start, could be earlier than a stamp a
 * poller has already seen. A separate table, not a column of `listings`: a listing's deletion deletes its
 * blocks from a row trigger on `listings` (migration 0030), and updating the listing row being deleted there
 * would fail the deletion. Only listings that still exist are stamped, so the cascade of a deletion never
 * inserts a row that names a deleted listing. Every existing listing is stamped now, when its feed is born.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table listing_channel_links add column calendar_export_token text not null
      default (replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''))`.execute(
    db,
  );
  await sql`
    create unique index listing_channel_links_calendar_export_token
    on listing_channel_links (calendar_export_token)`.execute(db);

  await sql`
    create table listing_hold_changes (
      listing_id text primary key references listings (id) on delete cascade,
      changed_at timestamptz not null
    )`.execute(db);
  await sql`
    create function listing_hold_changes_stamp(listing_ids text[]) returns void language plpgsql as $$
    begin
      insert into listing_hold_changes (listing_id, changed_at)
      select id, clock_timestamp() from listings where id = any(listing_ids) order by id
      on conflict (listing_id) do update set changed_at = excluded.changed_at;
    end
    $$`.execute(db);
  await sql`
    create function calendar_holds_stamp_feed() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        perform listing_hold_changes_stamp(array(select distinct listing_id from inserted_holds));
      elsif tg_op = 'DELETE' then
        perform listing_hold_changes_stamp(array(select distinct listing_id from deleted_holds));
      else
        perform listing_hold_changes_stamp(array(
          select listing_id from deleted_holds union select listing_id from inserted_holds));
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger calendar_holds_stamp_feed_insert
    after insert on calendar_holds
    referencing new table as inserted_holds
    for each statement execute function calendar_holds_stamp_feed()`.execute(db);
  await sql`
    create trigger calendar_holds_stamp_feed_update
    after update on calendar_holds
    referencing old table as deleted_holds new table as inserted_holds
    for each statement execute function calendar_holds_stamp_feed()`.execute(db);
  await sql`
    create trigger calendar_holds_stamp_feed_delete
    after delete on calendar_holds
    referencing old table as deleted_holds
    for each statement execute function calendar_holds_stamp_feed()`.execute(db);
  await sql`
    create function calendar_holds_stamp_every_feed() returns trigger language plpgsql as $$
    begin
      perform listing_hold_changes_stamp(array(select id from listings));
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger calendar_holds_stamp_feed_truncate
    after truncate on calendar_holds
    for each statement execute function calendar_holds_stamp_every_feed()`.execute(db);

  await sql`insert into listing_hold_changes (listing_id, changed_at) select id, now() from listings`.execute(
    db,
  );
}

/** Drops the stamps, their triggers and the export tokens. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists calendar_holds_stamp_feed_truncate on calendar_holds`.execute(db);
  await sql`drop trigger if exists calendar_holds_stamp_feed_delete on calendar_holds`.execute(db);
  await sql`drop trigger if exists calendar_holds_stamp_feed_update on calendar_holds`.execute(db);
  await sql`drop trigger if exists calendar_holds_stamp_feed_insert on calendar_holds`.execute(db);
  await sql`drop function if exists calendar_holds_stamp_every_feed()`.execute(db);
  await sql`drop function if exists calendar_holds_stamp_feed()`.execute(db);
  await sql`drop function if exists listing_hold_changes_stamp(text[])`.execute(db);
  await sql`drop table if exists listing_hold_changes`.execute(db);
  await sql`drop index if exists listing_channel_links_calendar_export_token`.execute(db);
  await sql`alter table listing_channel_links drop column if exists calendar_export_token`.execute(db);
}
