import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released.

/**
 * `check_in_month_facts`: the check-in cohort rolled up by account, check-in month, channel, live (accepted)
 * or cancelled, and lead time in days (check-in − `booked_on`), with the reservations and their nights.
 * Headline KPIs and channel performance read the cohort of a year (and of its comparison periods) across
 * every listing; a year of a 2,000-listing account is a hundred thousand reservations, but a seventh as many
 * of these rows, and the lead-time median needs only the per-day histogram these rows are.
 *
 * Statement triggers on `reservations` keep it exact in the same transaction as any write of a reservation,
 * whichever code path writes: each statement's rows are added (inserted), subtracted (deleted) or both
 * (updated), grouped by key and applied as upserts that add, which commute, so concurrent writers never lose
 * each other's change. The rows of one statement are applied in key order, so two statements lock shared keys
 * in the same order. An update that moves no reservation to another key touches nothing. Keys that fall to
 * zero stay: the key space is bounded (months × channels × lead days), and readers skip empty keys.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table check_in_month_facts (
      account_id text not null,
      month date not null,
      channel text not null,
      live boolean not null,
      lead_days integer not null,
      reservations integer not null,
      nights integer not null,
      primary key (account_id, month, channel, live, lead_days)
    )`.execute(db);
  // One function for the three statement triggers: each names its transition tables, and only the branch of
  // the firing operation is ever planned. Cohort statuses only: accepted (live) and cancelled.
  await sql`
    create function reservations_move_check_in_facts() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        insert into check_in_month_facts as f
          (account_id, month, channel, live, lead_days, reservations, nights)
        select account_id, date_trunc('month', start_date)::date, channel, status = 'accepted',
          start_date - booked_on, count(*), sum(nights)
        from inserted_reservations
        where status in ('accepted', 'cancelled')
        group by 1, 2, 3, 4, 5
        order by 1, 2, 3, 4, 5
        on conflict (account_id, month, channel, live, lead_days) do update set
          reservations = f.reservations + excluded.reservations, nights = f.nights + excluded.nights;
      elsif tg_op = 'DELETE' then
        insert into check_in_month_facts as f
          (account_id, month, channel, live, lead_days, reservations, nights)
        select account_id, date_trunc('month', start_date)::date, channel, status = 'accepted',
          start_date - booked_on, -count(*), -sum(nights)
        from deleted_reservations
        where status in ('accepted', 'cancelled')
        group by 1, 2, 3, 4, 5
        order by 1, 2, 3, 4, 5
        on conflict (account_id, month, channel, live, lead_days) do update set
          reservations = f.reservations + excluded.reservations, nights = f.nights + excluded.nights;
      else
        insert into check_in_month_facts as f
          (account_id, month, channel, live, lead_days, reservations, nights)
        select account_id, date_trunc('month', start_date)::date, channel, status = 'accepted',
          start_date - booked_on, sum(sign), sum(sign * nights)
        from (
          select account_id, start_date, channel, status, booked_on, nights, 1 as sign from inserted_reservations
          union all
          select account_id, start_date, channel, status, booked_on, nights, -1 from deleted_reservations
        ) moved
        where status in ('accepted', 'cancelled')
        group by 1, 2, 3, 4, 5
        having sum(sign) <> 0 or sum(sign * nights) <> 0
        order by 1, 2, 3, 4, 5
        on conflict (account_id, month, channel, live, lead_days) do update set
          reservations = f.reservations + excluded.reservations, nights = f.nights + excluded.nights;
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger reservations_check_in_facts_insert
    after insert on reservations
    referencing new table as inserted_reservations
    for each statement execute function reservations_move_check_in_facts()`.execute(db);
  await sql`
    create trigger reservations_check_in_facts_update
    after update on reservations
    referencing old table as deleted_reservations new table as inserted_reservations
    for each statement execute function reservations_move_check_in_facts()`.execute(db);
  await sql`
    create trigger reservations_check_in_facts_delete
    after delete on reservations
    referencing old table as deleted_reservations
    for each statement execute function reservations_move_check_in_facts()`.execute(db);
  await sql`
    create function reservations_clear_check_in_facts() returns trigger language plpgsql as $$
    begin
      delete from check_in_month_facts;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger reservations_check_in_facts_truncate
    after truncate on reservations
    for each statement execute function reservations_clear_check_in_facts()`.execute(db);

  await sql`
    insert into check_in_month_facts (account_id, month, channel, live, lead_days, reservations, nights)
    select account_id, date_trunc('month', start_date)::date, channel, status = 'accepted',
      start_date - booked_on, count(*), sum(nights)
    from reservations
    where status in ('accepted', 'cancelled')
    group by 1, 2, 3, 4, 5`.execute(db);
}

/** Drops the roll-up and its triggers. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists reservations_check_in_facts_truncate on reservations`.execute(db);
  await sql`drop trigger if exists reservations_check_in_facts_delete on reservations`.execute(db);
  await sql`drop trigger if exists reservations_check_in_facts_update on reservations`.execute(db);
  await sql`drop trigger if exists reservations_check_in_facts_insert on reservations`.execute(db);
  await sql`drop function if exists reservations_clear_check_in_facts()`.execute(db);
  await sql`drop function if exists reservations_move_check_in_facts()`.execute(db);
  await sql`drop table if exists check_in_month_facts`.execute(db);
}
