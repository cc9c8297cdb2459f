import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released.

/**
 * `reservation_month_facts`: every reservation, request and inquiry rolled up by account, check-in month,
 * channel, currency, status and who cancelled, with their count, nights and rent as booked
 * (`accommodation_minor`). get_cancellation_stats and get_reservation_status_stats both group a year of
 * check-ins (about 110,000 reservations of the 2,000-listing demo) by these columns; here a year is a few
 * hundred rows, and their number hardly grows with the listings. `cancelled_by` is '' rather than null for
 * reservations nobody cancelled, so it can sit in the primary key (the reservations' own check allows no
 * ''). The key includes the sums, so readers scan the primary key alone.
 *
 * Statement triggers on `reservations` keep it exact in the same transaction as any write, as for
 * `booking_pattern_facts`: each statement's rows are added (inserted), subtracted (deleted) or both
 * (updated), grouped by key and applied as upserts that add, which commute, so concurrent writers never lose
 * each other's change; keys are applied in order, so two statements lock shared keys in the same order. An
 * update moves only the reservations whose counted columns changed, so a bulk update of other columns (a
 * rename, a reply) touches no key. Keys that fall to zero stay (the key space is bounded) and readers skip
 * them. `reservation_month_key` is the one definition of a reservation's key, shared by the triggers and the
 * backfill.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table reservation_month_facts (
      account_id text not null,
      month date not null,
      channel text not null,
      currency text not null,
      status text not null,
      cancelled_by text not null,
      reservations integer not null,
      nights bigint not null,
      rent_minor bigint not null,
      primary key (account_id, month, channel, currency, status, cancelled_by)
        include (reservations, nights, rent_minor)
    )`.execute(db);
  // Months are truncated on timestamps without a zone, so the function stays immutable and can be inlined.
  await sql`
    create function reservation_month_key(check_in date, cancelled_by text)
    returns table (month date, cancelled_by text)
    language sql immutable as $$
      select date_trunc('month', check_in::timestamp)::date, coalesce(cancelled_by, '')
    $$`.execute(db);
  // One function for the three statement triggers: each names its transition tables, and only the branch of
  // the firing operation is ever planned.
  await sql`
    create function reservations_move_reservation_month_facts() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        insert into reservation_month_facts as f
          (account_id, month, channel, currency, status, cancelled_by, reservations, nights, rent_minor)
        select r.account_id, k.month, r.channel, r.currency, r.status, k.cancelled_by,
          count(*), sum(r.nights), sum(r.accommodation_minor)
        from inserted_reservations r
        cross join lateral reservation_month_key(r.start_date, r.cancelled_by) k
        group by 1, 2, 3, 4, 5, 6
        order by 1, 2, 3, 4, 5, 6
        on conflict (account_id, month, channel, currency, status, cancelled_by) do update
        set reservations = f.reservations + excluded.reservations, nights = f.nights + excluded.nights,
          rent_minor = f.rent_minor + excluded.rent_minor;
      elsif tg_op = 'DELETE' then
        insert into reservation_month_facts as f
          (account_id, month, channel, currency, status, cancelled_by, reservations, nights, rent_minor)
        select r.account_id, k.month, r.channel, r.currency, r.status, k.cancelled_by,
          -count(*), -sum(r.nights), -sum(r.accommodation_minor)
        from deleted_reservations r
        cross join lateral reservation_month_key(r.start_date, r.cancelled_by) k
        group by 1, 2, 3, 4, 5, 6
        order by 1, 2, 3, 4, 5, 6
        on conflict (account_id, month, channel, currency, status, cancelled_by) do update
        set reservations = f.reservations + excluded.reservations, nights = f.nights + excluded.nights,
          rent_minor = f.rent_minor + excluded.rent_minor;
      else
        insert into reservation_month_facts as f
          (account_id, month, channel, currency, status, cancelled_by, reservations, nights, rent_minor)
        select r.account_id, k.month, r.channel, r.currency, r.status, k.cancelled_by,
          sum(r.sign), sum(r.sign * r.nights), sum(r.sign * r.accommodation_minor)
        from (
          select id, account_id, channel, currency, status, cancelled_by, start_date, nights,
            accommodation_minor, 1 as sign
          from inserted_reservations
          union all
          select id, account_id, channel, currency, status, cancelled_by, start_date, nights,
            accommodation_minor, -1
          from deleted_reservations
        ) r
        cross join lateral reservation_month_key(r.start_date, r.cancelled_by) k
        -- A reservation whose counted columns kept their values would add what it subtracts: skipped.
        where r.id not in (
          select n.id
          from inserted_reservations n
          join deleted_reservations o on o.id = n.id
          where (n.account_id, n.channel, n.currency, n.status, n.cancelled_by, n.start_date, n.nights,
              n.accommodation_minor)
            is not distinct from
            (o.account_id, o.channel, o.currency, o.status, o.cancelled_by, o.start_date, o.nights,
              o.accommodation_minor))
        group by 1, 2, 3, 4, 5, 6
        having sum(r.sign) <> 0 or sum(r.sign * r.nights) <> 0 or sum(r.sign * r.accommodation_minor) <> 0
        order by 1, 2, 3, 4, 5, 6
        on conflict (account_id, month, channel, currency, status, cancelled_by) do update
        set reservations = f.reservations + excluded.reservations, nights = f.nights + excluded.nights,
          rent_minor = f.rent_minor + excluded.rent_minor;
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger reservations_reservation_month_facts_insert
    after insert on reservations
    referencing new table as inserted_reservations
    for each statement execute function reservations_move_reservation_month_facts()`.execute(db);
  await sql`
    create trigger reservations_reservation_month_facts_update
    after update on reservations
    referencing old table as deleted_reservations new table as inserted_reservations
    for each statement execute function reservations_move_reservation_month_facts()`.execute(db);
  await sql`
    create trigger reservations_reservation_month_facts_delete
    after delete on reservations
    referencing old table as deleted_reservations
    for each statement execute function reservations_move_reservation_month_facts()`.execute(db);
  await sql`
    create function reservations_clear_reservation_month_facts() returns trigger language plpgsql as $$
    begin
      delete from reservation_month_facts;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger reservations_reservation_month_facts_truncate
    after truncate on reservations
    for each statement execute function reservations_clear_reservation_month_facts()`.execute(db);

  await sql`
    insert into reservation_month_facts
      (account_id, month, channel, currency, status, cancelled_by, reservations, nights, rent_minor)
    select r.account_id, k.month, r.channel, r.currency, r.status, k.cancelled_by,
      count(*), sum(r.nights), sum(r.accommodation_minor)
    from reservations r
    cross join lateral reservation_month_key(r.start_date, r.cancelled_by) k
    group by 1, 2, 3, 4, 5, 6`.execute(db);
}

/** Drops the roll-up, its triggers and its functions. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists reservations_reservation_month_facts_truncate on reservations`.execute(db);
  await sql`drop trigger if exists reservations_reservation_month_facts_delete on reservations`.execute(db);
  await sql`drop trigger if exists reservations_reservation_month_facts_update on reservations`.execute(db);
  await sql`drop trigger if exists reservations_reservation_month_facts_insert on reservations`.execute(db);
  await sql`drop function if exists reservations_clear_reservation_month_facts()`.execute(db);
  await sql`drop function if exists reservations_move_reservation_month_facts()`.execute(db);
  await sql`drop function if exists reservation_month_key(date, text)`.execute(db);
  await sql`drop table if exists reservation_month_facts`.execute(db);
}
