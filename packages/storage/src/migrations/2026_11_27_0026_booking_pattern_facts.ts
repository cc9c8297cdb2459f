import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released.

/**
 * `booking_pattern_facts`: the histograms of get_booking_pattern_stats rolled up by account, month and
 * channel, over accepted reservations only. Each row counts one `value` of one `kind`:
 *
 * - `check_in_weekday`, `booking_weekday` (ISO weekday of `booked_on`), `nights` and `guests` (adults +
 *   children): one per reservation, in the month of its check-in;
 * - `booked_nights`: ISO weekday of each of its nights, in the month of that night, so a stay across a month
 *   end counts in both months.
 *
 * Lead times are not repeated here: `check_in_month_facts` already holds their per-day histogram, and the
 * index below reads a year of it off the index alone. A year of the 2,000-listing demo is about 95,000
 * check-ins and 430,000 stay nights; here it is about 2,300 rows, and their number hardly grows with the
 * listings, since every kind has a few dozen values at most. The key includes the tally, so readers scan the
 * primary key alone.
 *
 * Statement triggers on `reservations` keep it exact in the same transaction as any write, as for
 * `check_in_month_facts`: each statement's rows are added (inserted), subtracted (deleted) or both
 * (updated), grouped by key and applied as upserts that add, which commute, so concurrent writers never lose
 * each other's change; keys are applied in order, so two statements lock shared keys in the same order. An
 * update moves only the reservations whose counted columns changed, so a bulk update of other columns (a
 * rename, a reply) expands no nights. Keys that fall to zero stay (the key space is bounded) and readers skip
 * them. `booking_pattern_tallies` is the one definition of what a reservation adds, shared by the triggers
 * and the backfill.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table booking_pattern_facts (
      account_id text not null,
      month date not null,
      channel text not null,
      kind text not null
        check (kind in ('check_in_weekday', 'booking_weekday', 'nights', 'guests', 'booked_nights')),
      value integer not null,
      tally integer not null,
      primary key (account_id, month, channel, kind, value) include (tally)
    )`.execute(db);
  // Whole months of the live cohort's lead times, read off the index alone: without it, a year's ten
  // thousand rows of a large account came from a scan of every year of the table.
  await sql`
    create index check_in_month_facts_live_months on check_in_month_facts (account_id, month)
    include (channel, lead_days, reservations)
    where live`.execute(db);
  // Months are truncated on timestamps without a zone, so the function stays immutable and can be inlined.
  await sql`
    create function booking_pattern_tallies(check_in date, booked_on date, nights integer, guests integer)
    returns table (month date, kind text, value integer, tally integer)
    language sql immutable as $$
      select date_trunc('month', check_in::timestamp)::date, 'check_in_weekday',
        extract(isodow from check_in)::integer, 1
      union all
      select date_trunc('month', check_in::timestamp)::date, 'booking_weekday',
        extract(isodow from booked_on)::integer, 1
      union all
      select date_trunc('month', check_in::timestamp)::date, 'nights', nights, 1
      union all
      select date_trunc('month', check_in::timestamp)::date, 'guests', guests, 1
      union all
      select date_trunc('month', (check_in + night)::timestamp)::date, 'booked_nights',
        extract(isodow from check_in + night)::integer, 1
      from generate_series(0, nights - 1) as night
    $$`.execute(db);
  // One function for the three statement triggers: each names its transition tables, and only the branch of
  // the firing operation is ever planned.
  await sql`
    create function reservations_move_booking_pattern_facts() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        insert into booking_pattern_facts as f (account_id, month, channel, kind, value, tally)
        select r.account_id, t.month, r.channel, t.kind, t.value, sum(t.tally)
        from inserted_reservations r
        cross join lateral booking_pattern_tallies(r.start_date, r.booked_on, r.nights, r.adults + r.children) t
        where r.status = 'accepted'
        group by 1, 2, 3, 4, 5
        order by 1, 2, 3, 4, 5
        on conflict (account_id, month, channel, kind, value) do update set tally = f.tally + excluded.tally;
      elsif tg_op = 'DELETE' then
        insert into booking_pattern_facts as f (account_id, month, channel, kind, value, tally)
        select r.account_id, t.month, r.channel, t.kind, t.value, -sum(t.tally)
        from deleted_reservations r
        cross join lateral booking_pattern_tallies(r.start_date, r.booked_on, r.nights, r.adults + r.children) t
        where r.status = 'accepted'
        group by 1, 2, 3, 4, 5
        order by 1, 2, 3, 4, 5
        on conflict (account_id, month, channel, kind, value) do update set tally = f.tally + excluded.tally;
      else
        insert into booking_pattern_facts as f (account_id, month, channel, kind, value, tally)
        select r.account_id, t.month, r.channel, t.kind, t.value, sum(r.sign * t.tally)
        from (
          select id, account_id, channel, status, start_date, booked_on, nights, adults + children as guests,
            1 as sign
          from inserted_reservations
          union all
          select id, account_id, channel, status, start_date, booked_on, nights, adults + children, -1
          from deleted_reservations
        ) r
        cross join lateral booking_pattern_tallies(r.start_date, r.booked_on, r.nights, r.guests) t
        -- A reservation whose counted columns kept their values would add what it subtracts: skipped, so
        -- its nights are never expanded.
        where r.status = 'accepted'
          and r.id not in (
            select n.id
            from inserted_reservations n
            join deleted_reservations o on o.id = n.id
            where (n.account_id, n.channel, n.status, n.start_date, n.nights, n.booked_on, n.adults, n.children)
              is not distinct from
              (o.account_id, o.channel, o.status, o.start_date, o.nights, o.booked_on, o.adults, o.children))
        group by 1, 2, 3, 4, 5
        having sum(r.sign * t.tally) <> 0
        order by 1, 2, 3, 4, 5
        on conflict (account_id, month, channel, kind, value) do update set tally = f.tally + excluded.tally;
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger reservations_booking_pattern_facts_insert
    after insert on reservations
    referencing new table as inserted_reservations
    for each statement execute function reservations_move_booking_pattern_facts()`.execute(db);
  await sql`
    create trigger reservations_booking_pattern_facts_update
    after update on reservations
    referencing old table as deleted_reservations new table as inserted_reservations
    for each statement execute function reservations_move_booking_pattern_facts()`.execute(db);
  await sql`
    create trigger reservations_booking_pattern_facts_delete
    after delete on reservations
    referencing old table as deleted_reservations
    for each statement execute function reservations_move_booking_pattern_facts()`.execute(db);
  await sql`
    create function reservations_clear_booking_pattern_facts() returns trigger language plpgsql as $$
    begin
      delete from booking_pattern_facts;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger reservations_booking_pattern_facts_truncate
    after truncate on reservations
    for each statement execute function reservations_clear_booking_pattern_facts()`.execute(db);

  await sql`
    insert into booking_pattern_facts (account_id, month, channel, kind, value, tally)
    select r.account_id, t.month, r.channel, t.kind, t.value, sum(t.tally)
    from reservations r
    cross join lateral booking_pattern_tallies(r.start_date, r.booked_on, r.nights, r.adults + r.children) t
    where r.status = 'accepted'
    group by 1, 2, 3, 4, 5`.execute(db);
}

/** Drops the roll-up, its triggers, its functions and the lead-time index. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists reservations_booking_pattern_facts_truncate on reservations`.execute(db);
  await sql`drop trigger if exists reservations_booking_pattern_facts_delete on reservations`.execute(db);
  await sql`drop trigger if exists reservations_booking_pattern_facts_update on reservations`.execute(db);
  await sql`drop trigger if exists reservations_booking_pattern_facts_insert on reservations`.execute(db);
  await sql`drop function if exists reservations_clear_booking_pattern_facts()`.execute(db);
  await sql`drop function if exists reservations_move_booking_pattern_facts()`.execute(db);
  await sql`drop function if exists booking_pattern_tallies(date, date, integer, integer)`.execute(db);
  await sql`drop table if exists booking_pattern_facts`.execute(db);
  await sql`drop index if exists check_in_month_facts_live_months`.execute(db);
}
