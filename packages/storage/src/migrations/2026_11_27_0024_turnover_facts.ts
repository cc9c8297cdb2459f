import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released.

/**
 * `turnover_facts`: every accepted stay's check-out (`check_out`, its `end_date`) with its listing, account
 * and channel, and `turnaround_days`, the days to the listing's next accepted check-in (null when none yet);
 * and two roll-ups of it by check-out month. `turnover_account_months` counts the check-outs per account,
 * month, channel and turnaround. `turnover_listing_totals` holds a row per listing and channel, and one for
 * all its channels (channel null), with running totals by month: element k of `turnovers` (and of
 * `same_day`, those with a turnaround of 0 days) counts the check-outs of its first k months from
 * `first_month_number` on, so a listing's turnovers in any run of whole months are the difference of two
 * elements.
 *
 * Turnover stats paired a year of check-outs (ninety-five thousand on a 2,000-listing account) with each
 * listing's next check-in on every call, and counting even the stored pairs per listing and per turnaround
 * cost more than the question allows. With the roll-ups, a period's whole months cost a row per listing and
 * a few hundred account rows, whatever their length, and only the check-outs of its partial months are
 * counted one by one.
 *
 * A stay's turnaround changes when the listing's next stay is created, moved, cancelled or deleted, so
 * statement triggers on `reservations` rebuild every listing a statement touched (all its stays, a few dozen
 * a year, and its totals), in the same transaction as the write, whichever code path writes. Only writes
 * that can change a turnover rebuild: of an accepted stay (before or after), changing its listing, account,
 * status, dates or channel; an update of anything else (a note, an access code) rebuilds nothing. Locking
 * those listings' rows first (in id order, `for no key update`, as `calendar_gaps` does) makes concurrent
 * writers to one listing rebuild one after the other, each reading what the previous one committed, so the
 * last rebuild sees every stay. The account roll-up is shared by the account's listings, so a rebuild moves it
 * by the difference between the listings' old and new stays, as upserts that add (they commute) in key order;
 * keys that fall to zero stay, and readers skip them. Accepted stays of a listing never overlap (their holds
 * exclude each other), so in check-out order the next stay is also the next check-in; the reservation id only
 * breaks ties the data cannot have.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table turnover_facts (
      listing_id text not null,
      check_out date not null,
      reservation_id text not null,
      account_id text not null,
      channel text not null,
      turnaround_days integer,
      primary key (listing_id, check_out, reservation_id) include (channel, turnaround_days)
    )`.execute(db);
  // The account's check-outs of a partial month, with everything the count needs, in one index-only range. A
  // listing filter reads the primary key instead.
  await sql`
    create index turnover_facts_account_check_out on turnover_facts (account_id, check_out)
    include (listing_id, channel, turnaround_days)`.execute(db);
  // Months are numbered year × 12 + month − 1, so that a month's place in the arrays is a subtraction.
  await sql`
    create table turnover_listing_totals (
      listing_id text not null,
      account_id text not null,
      channel text,
      first_month_number integer not null,
      turnovers integer[] not null,
      same_day integer[] not null,
      unique nulls not distinct (listing_id, account_id, channel)
    )`.execute(db);
  await sql`
    create index turnover_listing_totals_account on turnover_listing_totals (account_id, channel)`.execute(
    db,
  );
  await sql`
    create table turnover_account_months (
      account_id text not null,
      month date not null,
      channel text not null,
      turnaround_days integer,
      turnovers integer not null,
      unique nulls not distinct (account_id, month, channel, turnaround_days)
    )`.execute(db);
  await sql`
    create function turnover_facts_rebuild(listing_ids text[]) returns void language plpgsql as $$
    begin
      perform 1 from listings where id = any(listing_ids) order by id for no key update;
      -- The difference between the listings' stored stays and their stays now, before the stored ones go.
      insert into turnover_account_months as t (account_id, month, channel, turnaround_days, turnovers)
      select account_id, date_trunc('month', check_out)::date, channel, turnaround_days, sum(sign)
      from (
        select account_id, check_out, channel, turnaround_days, -1 as sign
        from turnover_facts
        where listing_id = any(listing_ids)
        union all
        select account_id, end_date, channel,
          lead(start_date) over (partition by listing_id order by end_date, id) - end_date, 1
        from reservations
        where listing_id = any(listing_ids) and status = 'accepted'
      ) moved
      group by 1, 2, 3, 4
      having sum(sign) <> 0
      order by 1, 2, 3, 4
      on conflict (account_id, month, channel, turnaround_days) do update set
        turnovers = t.turnovers + excluded.turnovers;
      delete from turnover_facts where listing_id = any(listing_ids);
      insert into turnover_facts (listing_id, check_out, reservation_id, account_id, channel, turnaround_days)
      select listing_id, end_date, id, account_id, channel,
        lead(start_date) over (partition by listing_id order by end_date, id) - end_date
      from reservations
      where listing_id = any(listing_ids) and status = 'accepted';
      delete from turnover_listing_totals where listing_id = any(listing_ids);
      with months as (
        select listing_id, account_id, channel,
          extract(year from check_out)::integer * 12 + extract(month from check_out)::integer - 1 as month_number,
          count(*) as turnovers, count(*) filter (where turnaround_days = 0) as same_day
        from turnover_facts
        where listing_id = any(listing_ids)
        group by listing_id, account_id, month_number, grouping sets ((channel), ())
      )
      insert into turnover_listing_totals (listing_id, account_id, channel, first_month_number, turnovers, same_day)
      select listing_id, account_id, channel, min(month_number), array_agg(turnovers order by month_number),
        array_agg(same_day order by month_number)
      from (
        select listing_id, account_id, channel, month_number,
          (sum(sum(turnovers)) over running)::integer as turnovers,
          (sum(sum(same_day)) over running)::integer as same_day
        from (
          select listing_id, account_id, channel, month_number, turnovers, same_day from months
          union all
          -- a zero for every month from the first check-out's to the last one's: those without any count too
          select listing_id, account_id, channel, generate_series(min(month_number), max(month_number)), 0, 0
          from months
          group by listing_id, account_id, channel
        ) counted
        group by listing_id, account_id, channel, month_number
        window running as (partition by listing_id, account_id, channel order by month_number)
      ) running_totals
      group by listing_id, account_id, channel;
    end
    $$`.execute(db);
  // One function for the three statement triggers: each names its transition tables, and only the branch of
  // the firing operation is ever planned.
  await sql`
    create function reservations_rebuild_turnover_facts() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        perform turnover_facts_rebuild(array(
          select distinct listing_id from inserted_reservations where status = 'accepted'));
      elsif tg_op = 'DELETE' then
        perform turnover_facts_rebuild(array(
          select distinct listing_id from deleted_reservations where status = 'accepted'));
      else
        perform turnover_facts_rebuild(array(
          select distinct moved.listing_id
          from deleted_reservations d
          full join inserted_reservations i on i.id = d.id
          cross join lateral (values (d.listing_id), (i.listing_id)) moved (listing_id)
          where (d.status = 'accepted' or i.status = 'accepted')
            and (d.listing_id, d.account_id, d.status, d.start_date, d.end_date, d.channel)
              is distinct from (i.listing_id, i.account_id, i.status, i.start_date, i.end_date, i.channel)
            and moved.listing_id is not null));
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger reservations_turnover_facts_insert
    after insert on reservations
    referencing new table as inserted_reservations
    for each statement execute function reservations_rebuild_turnover_facts()`.execute(db);
  await sql`
    create trigger reservations_turnover_facts_update
    after update on reservations
    referencing old table as deleted_reservations new table as inserted_reservations
    for each statement execute function reservations_rebuild_turnover_facts()`.execute(db);
  await sql`
    create trigger reservations_turnover_facts_delete
    after delete on reservations
    referencing old table as deleted_reservations
    for each statement execute function reservations_rebuild_turnover_facts()`.execute(db);
  await sql`
    create function reservations_clear_turnover_facts() returns trigger language plpgsql as $$
    begin
      delete from turnover_facts;
      delete from turnover_listing_totals;
      delete from turnover_account_months;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger reservations_turnover_facts_truncate
    after truncate on reservations
    for each statement execute function reservations_clear_turnover_facts()`.execute(db);

  // The backfill is the triggers' own rebuild, over every listing with an accepted stay.
  await sql`
    select turnover_facts_rebuild(array(
      select distinct listing_id from reservations where status = 'accepted'))`.execute(db);
}

/** Drops the turnovers, their roll-ups and their triggers. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists reservations_turnover_facts_truncate on reservations`.execute(db);
  await sql`drop trigger if exists reservations_turnover_facts_delete on reservations`.execute(db);
  await sql`drop trigger if exists reservations_turnover_facts_update on reservations`.execute(db);
  await sql`drop trigger if exists reservations_turnover_facts_insert on reservations`.execute(db);
  await sql`drop function if exists reservations_clear_turnover_facts()`.execute(db);
  await sql`drop function if exists reservations_rebuild_turnover_facts()`.execute(db);
  await sql`drop function if exists turnover_facts_rebuild(text[])`.execute(db);
  await sql`drop table if exists turnover_account_months`.execute(db);
  await sql`drop table if exists turnover_listing_totals`.execute(db);
  await sql`drop table if exists turnover_facts`.execute(db);
}
