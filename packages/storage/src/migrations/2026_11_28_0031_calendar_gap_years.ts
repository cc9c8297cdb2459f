import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released.

/**
 * `calendar_gap_years`: per listing and calendar year, that listing's `calendar_gaps` starting in the year,
 * packed as one binary string in first-night order: eight bytes a gap, its first open night then its next
 * held night, each a signed big-endian 32-bit day number from 2000-01-01. Listed-price analytics count every
 * open night of a year across a portfolio by weekday and gap length; reading the gaps one row each (about
 * 55,000 a year on the 2,000-listing demo) and packing them on every call took over half of the statement,
 * where a year of these rows is one a listing.
 *
 * Kept in the same transaction as the gaps: the rebuild function the statement triggers on `calendar_holds`
 * call (migrations 0011 and 0025) is replaced with one that, after rebuilding the listings' gaps, rebuilds
 * their years from them, under the same listing locks; the truncate trigger's function clears both. A listing's
 * years go with it (foreign key). Day numbers are the dates minus 2000-01-01, so no time zone enters them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table calendar_gap_years (
      listing_id text not null references listings (id) on delete cascade,
      year integer not null,
      account_id text not null,
      gaps bytea not null,
      primary key (listing_id, year)
    )`.execute(db);
  await sql`create index calendar_gap_years_account on calendar_gap_years (account_id, year)`.execute(db);
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
      delete from calendar_gap_years where listing_id = any(listing_ids);
      insert into calendar_gap_years (listing_id, year, account_id, gaps)
      select listing_id, extract(year from start_date)::integer, min(account_id),
        string_agg(int4send(start_date - date '2000-01-01') || int4send(end_date - date '2000-01-01'),
          ''::bytea order by start_date)
      from calendar_gaps
      where listing_id = any(listing_ids)
      group by listing_id, extract(year from start_date)::integer;
    end
    $$`.execute(db);
  await sql`
    create or replace function calendar_holds_clear_gaps() returns trigger language plpgsql as $$
    begin
      delete from calendar_gaps;
      delete from calendar_gap_years;
      return null;
    end
    $$`.execute(db);
  await sql`
    insert into calendar_gap_years (listing_id, year, account_id, gaps)
    select listing_id, extract(year from start_date)::integer, min(account_id),
      string_agg(int4send(start_date - date '2000-01-01') || int4send(end_date - date '2000-01-01'),
        ''::bytea order by start_date)
    from calendar_gaps
    group by listing_id, extract(year from start_date)::integer`.execute(db);
}

/** Drops the years and restores the rebuild and clear functions of migrations 0025 and 0011. */
export async function down(db: Kysely<unknown>): Promise<void> {
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
    create or replace function calendar_holds_clear_gaps() returns trigger language plpgsql as $$
    begin
      delete from calendar_gaps;
      return null;
    end
    $$`.execute(db);
  await sql`drop table if exists calendar_gap_years`.execute(db);
}
