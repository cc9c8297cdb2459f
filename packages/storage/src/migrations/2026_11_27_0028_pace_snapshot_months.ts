import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released.

/**
 * `pace_snapshot_months`: the accepted change-log snapshots (`reservation_changes`) rolled up by account,
 * currency, stay month, the ISO week (UTC) the snapshot began in (`changed_at`) and the one it was replaced in
 * (`valid_until`; 'infinity' while it is still valid), with what booking pace adds up for the snapshot's
 * nights inside the month: the nights, the stay's rent spread evenly over them (each night's even share, plus
 * one spare cent on each of the stay's first mod(rent, nights) nights, so the months of a stay add up to its
 * rent), the snapshots checking in that month, and those that checked in earlier and cross into it.
 *
 * The books at a moment are the snapshots that began before it and were not yet replaced: pace read them raw,
 * a hundred thousand index entries per reading of a year. Here every snapshot that began before the moment's
 * week and was replaced after it (or never) is in a few thousand of these rows; only the snapshots that began
 * or were replaced in that very week are read raw.
 *
 * Statement triggers on `reservation_changes` keep it exact in the same transaction as any write of a
 * snapshot, whichever code path writes (the reservation store, the spans trigger setting `valid_until` when a
 * later snapshot replaces one, cascades from a deleted reservation, the demo seeder): each statement's
 * accepted rows are added (inserted), subtracted (deleted) or both (updated), grouped by key and applied as
 * upserts that add, which commute, so concurrent writers never lose each other's change. The rows of one
 * statement are applied in key order, so two statements lock shared keys in the same order. An update that
 * moves no snapshot to another key (the spans trigger setting `listing_id`) touches nothing. Keys that fall to
 * zero stay: the key space is bounded (months × weeks × weeks), and they add nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table pace_snapshot_months (
      account_id text not null,
      stay_month date not null,
      began_week date not null,
      replaced_week date not null,
      currency character(3) not null,
      nights bigint not null,
      rent_minor bigint not null,
      checks_in integer not null,
      crosses_in integer not null,
      -- Readers take a range of months and keep the weeks around one moment: index-only, with the sums.
      primary key (account_id, stay_month, began_week, replaced_week, currency)
        include (nights, rent_minor, checks_in, crosses_in)
    )`.execute(db);
  // A snapshot's share of each month it has nights in. Plain SQL over immutable functions, so the planner
  // inlines it into the statements below. Date arithmetic on `timestamp` (not `timestamptz`) keeps month
  // boundaries independent of the session's time zone.
  await sql`
    create function pace_snapshot_month_shares(check_in date, check_out date, rent integer)
    returns table (stay_month date, nights integer, rent_minor bigint, checks_in integer, crosses_in integer)
    language sql immutable as $$
      select m.first_night,
        least(check_out, m.next_month) - greatest(check_in, m.first_night),
        (least(check_out, m.next_month) - greatest(check_in, m.first_night))::bigint * (rent / (check_out - check_in))
          + greatest(0, least(least(check_out, m.next_month) - check_in, rent % (check_out - check_in))
            - (greatest(check_in, m.first_night) - check_in)),
        (check_in >= m.first_night)::integer,
        (check_in < m.first_night)::integer
      from generate_series(date_trunc('month', check_in::timestamp), date_trunc('month', (check_out - 1)::timestamp),
        interval '1 month') as month_start,
        lateral (select month_start::date as first_night, (month_start + interval '1 month')::date as next_month) m
    $$`.execute(db);
  await sql`
    create function pace_snapshot_week(moment timestamptz) returns date language sql immutable as $$
      select coalesce(date_trunc('week', moment at time zone 'UTC')::date, 'infinity'::date)
    $$`.execute(db);
  // One function for the three statement triggers: each names its transition tables, and only the branch of
  // the firing operation is ever planned.
  await sql`
    create function reservation_changes_move_pace_months() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        insert into pace_snapshot_months as f
          (account_id, stay_month, began_week, replaced_week, currency, nights, rent_minor, checks_in, crosses_in)
        select s.account_id, p.stay_month, pace_snapshot_week(s.changed_at), pace_snapshot_week(s.valid_until),
          s.currency, sum(p.nights), sum(p.rent_minor), sum(p.checks_in), sum(p.crosses_in)
        from inserted_changes s
        cross join lateral pace_snapshot_month_shares(s.start_date, s.end_date, s.accommodation_minor) p
        where s.status = 'accepted'
        group by 1, 2, 3, 4, 5
        order by 1, 2, 3, 4, 5
        on conflict (account_id, stay_month, began_week, replaced_week, currency) do update set
          nights = f.nights + excluded.nights, rent_minor = f.rent_minor + excluded.rent_minor,
          checks_in = f.checks_in + excluded.checks_in, crosses_in = f.crosses_in + excluded.crosses_in;
      elsif tg_op = 'DELETE' then
        insert into pace_snapshot_months as f
          (account_id, stay_month, began_week, replaced_week, currency, nights, rent_minor, checks_in, crosses_in)
        select s.account_id, p.stay_month, pace_snapshot_week(s.changed_at), pace_snapshot_week(s.valid_until),
          s.currency, -sum(p.nights), -sum(p.rent_minor), -sum(p.checks_in), -sum(p.crosses_in)
        from deleted_changes s
        cross join lateral pace_snapshot_month_shares(s.start_date, s.end_date, s.accommodation_minor) p
        where s.status = 'accepted'
        group by 1, 2, 3, 4, 5
        order by 1, 2, 3, 4, 5
        on conflict (account_id, stay_month, began_week, replaced_week, currency) do update set
          nights = f.nights + excluded.nights, rent_minor = f.rent_minor + excluded.rent_minor,
          checks_in = f.checks_in + excluded.checks_in, crosses_in = f.crosses_in + excluded.crosses_in;
      else
        insert into pace_snapshot_months as f
          (account_id, stay_month, began_week, replaced_week, currency, nights, rent_minor, checks_in, crosses_in)
        select s.account_id, p.stay_month, pace_snapshot_week(s.changed_at), pace_snapshot_week(s.valid_until),
          s.currency, sum(s.sign * p.nights), sum(s.sign * p.rent_minor), sum(s.sign * p.checks_in),
          sum(s.sign * p.crosses_in)
        from (
          select account_id, status, changed_at, valid_until, currency, start_date, end_date, accommodation_minor,
            1 as sign
          from inserted_changes
          union all
          select account_id, status, changed_at, valid_until, currency, start_date, end_date, accommodation_minor,
            -1
          from deleted_changes
        ) s
        cross join lateral pace_snapshot_month_shares(s.start_date, s.end_date, s.accommodation_minor) p
        where s.status = 'accepted'
        group by 1, 2, 3, 4, 5
        having sum(s.sign * p.checks_in) <> 0 or sum(s.sign * p.crosses_in) <> 0 or sum(s.sign * p.nights) <> 0
          or sum(s.sign * p.rent_minor) <> 0
        order by 1, 2, 3, 4, 5
        on conflict (account_id, stay_month, began_week, replaced_week, currency) do update set
          nights = f.nights + excluded.nights, rent_minor = f.rent_minor + excluded.rent_minor,
          checks_in = f.checks_in + excluded.checks_in, crosses_in = f.crosses_in + excluded.crosses_in;
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger reservation_changes_pace_months_insert
    after insert on reservation_changes
    referencing new table as inserted_changes
    for each statement execute function reservation_changes_move_pace_months()`.execute(db);
  await sql`
    create trigger reservation_changes_pace_months_update
    after update on reservation_changes
    referencing old table as deleted_changes new table as inserted_changes
    for each statement execute function reservation_changes_move_pace_months()`.execute(db);
  await sql`
    create trigger reservation_changes_pace_months_delete
    after delete on reservation_changes
    referencing old table as deleted_changes
    for each statement execute function reservation_changes_move_pace_months()`.execute(db);
  await sql`
    create function reservation_changes_clear_pace_months() returns trigger language plpgsql as $$
    begin
      delete from pace_snapshot_months;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger reservation_changes_pace_months_truncate
    after truncate on reservation_changes
    for each statement execute function reservation_changes_clear_pace_months()`.execute(db);

  await sql`
    insert into pace_snapshot_months
      (account_id, stay_month, began_week, replaced_week, currency, nights, rent_minor, checks_in, crosses_in)
    select s.account_id, p.stay_month, pace_snapshot_week(s.changed_at), pace_snapshot_week(s.valid_until),
      s.currency, sum(p.nights), sum(p.rent_minor), sum(p.checks_in), sum(p.crosses_in)
    from reservation_changes s
    cross join lateral pace_snapshot_month_shares(s.start_date, s.end_date, s.accommodation_minor) p
    where s.status = 'accepted'
    group by 1, 2, 3, 4, 5`.execute(db);
}

/** Drops the roll-up, its triggers and functions. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists reservation_changes_pace_months_truncate on reservation_changes`.execute(
    db,
  );
  await sql`drop trigger if exists reservation_changes_pace_months_delete on reservation_changes`.execute(db);
  await sql`drop trigger if exists reservation_changes_pace_months_update on reservation_changes`.execute(db);
  await sql`drop trigger if exists reservation_changes_pace_months_insert on reservation_changes`.execute(db);
  await sql`drop function if exists reservation_changes_clear_pace_months()`.execute(db);
  await sql`drop function if exists reservation_changes_move_pace_months()`.execute(db);
  await sql`drop function if exists pace_snapshot_week(timestamptz)`.execute(db);
  await sql`drop function if exists pace_snapshot_month_shares(date, date, integer)`.execute(db);
  await sql`drop table if exists pace_snapshot_months`.execute(db);
}
