import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released.

/**
 * `calendar_gaps` by account and date. Listed-price analytics want an account's open runs overlapping a
 * period; keyed by listing alone, that read was a scan of every account's gaps (175,000 on the scale demo),
 * once per half of a year asked. With the account on each gap, the read is two index-only ranges:
 *
 * - `calendar_gaps_account_start`: the account's gaps by first open night. A gap overlapping a period starts
 *   before it ends and ends after it starts; those starting at most 31 nights before the period are one range
 *   of first nights, the others' ends checked on the covered column.
 * - `calendar_gaps_account_long`: the gaps longer than 31 nights, by their end. A gap that starts more than
 *   31 nights before a period and reaches into it is one of them, and they are a few per cent of all gaps.
 *
 * The account is filled by the rebuild function the statement triggers of migration 0011 call, replaced here
 * with one that also copies each hold's account; the backfill is that function over every listing with holds.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table calendar_gaps add column account_id text`.execute(db);
  await sql`
    create or replace function calendar_gaps_rebuild(listing_ids text[]) returns void language plpgsql as $$
    begin
      perform 1 from listings where id = any(listing_ids) order by id for no key update;
      delete from calendar_gaps where listing_id = any(listing_ids);
      insert into calendar_gaps (listing_id, account_id, start_date, end_date)
      select g.listing_id, g.account_id, g.start_date, g.end_date
      from (
        select h.listing_id, h.account_id, upper(h.nights) as start_date,
          lead(lower(h.nights)) over (partition by h.listing_id order by lower(h.nights)) as end_date
        from calendar_holds h
        where h.listing_id = any(listing_ids)
      ) g
      where g.end_date > g.start_date;
    end
    $$`.execute(db);
  await sql`
    select calendar_gaps_rebuild(array(select distinct listing_id from calendar_holds))`.execute(db);
  await sql`alter table calendar_gaps alter column account_id set not null`.execute(db);
  await sql`
    create index calendar_gaps_account_start on calendar_gaps (account_id, start_date)
    include (listing_id, end_date)`.execute(db);
  await sql`
    create index calendar_gaps_account_long on calendar_gaps (account_id, end_date)
    include (listing_id, start_date) where end_date - start_date > 31`.execute(db);
}

/** Drops the account column and its indexes, and restores migration 0011's rebuild function. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists calendar_gaps_account_long`.execute(db);
  await sql`drop index if exists calendar_gaps_account_start`.execute(db);
  await sql`
    create or replace function calendar_gaps_rebuild(listing_ids text[]) returns void language plpgsql as $$
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
  await sql`alter table calendar_gaps drop column account_id`.execute(db);
}
