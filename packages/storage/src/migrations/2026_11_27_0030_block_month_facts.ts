import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released.

/**
 * `block_month_facts`: the nights of calendar blocks per account, month, listing currency and reason. Every
 * occupancy figure takes the blocked nights out of the supply; summing them block by block read every block of
 * the period (11,000 a year on the 2,000-listing demo, through a GiST index) on every call, where a year of
 * these rows is a few dozen. Readers take whole months from here and the days around them from the blocks.
 *
 * Statement triggers on `calendar_holds` keep it exact in the same transaction as any block write, whichever
 * code path writes: each statement's blocks are added (inserted), subtracted (deleted) or both (updated),
 * grouped by key and applied as upserts that add, in key order, so concurrent writers never lose each other's
 * change and lock shared keys in the same order. A block's currency is its listing's, which never changes; a
 * listing is deleted only after its blocks (a row trigger on `listings` deletes them first, while the listing
 * still names its currency). Keys that fall to zero stay, as do a deleted account's, at zero: no foreign key,
 * like the other roll-ups, so an account's deletion never inserts a row that names it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table block_month_facts (
      account_id text not null,
      month date not null,
      currency character(3) not null,
      reason text not null,
      nights integer not null,
      primary key (account_id, month, currency, reason) include (nights)
    )`.execute(db);
  // A block's nights in each month it touches. Date arithmetic on `timestamp` keeps month boundaries
  // independent of the session's time zone.
  await sql`
    create function block_month_nights(first_night date, after_last date)
    returns table (month date, nights integer) language sql immutable as $$
      select month_start::date,
        least(after_last, (month_start + interval '1 month')::date) - greatest(first_night, month_start::date)
      from generate_series(date_trunc('month', first_night::timestamp),
        date_trunc('month', (after_last - 1)::timestamp), interval '1 month') as month_start
    $$`.execute(db);
  // One function for the three statement triggers: each names its transition tables, and only the branch of
  // the firing operation is ever planned.
  await sql`
    create function calendar_holds_move_block_months() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        insert into block_month_facts as f (account_id, month, currency, reason, nights)
        select h.account_id, m.month, l.currency, h.block_reason, sum(m.nights)
        from inserted_holds h
        join listings l on l.id = h.listing_id
        cross join lateral block_month_nights(lower(h.nights), upper(h.nights)) m
        where h.kind = 'block'
        group by 1, 2, 3, 4
        order by 1, 2, 3, 4
        on conflict (account_id, month, currency, reason) do update set nights = f.nights + excluded.nights;
      elsif tg_op = 'DELETE' then
        insert into block_month_facts as f (account_id, month, currency, reason, nights)
        select h.account_id, m.month, l.currency, h.block_reason, -sum(m.nights)
        from deleted_holds h
        join listings l on l.id = h.listing_id
        cross join lateral block_month_nights(lower(h.nights), upper(h.nights)) m
        where h.kind = 'block'
        group by 1, 2, 3, 4
        order by 1, 2, 3, 4
        on conflict (account_id, month, currency, reason) do update set nights = f.nights + excluded.nights;
      else
        insert into block_month_facts as f (account_id, month, currency, reason, nights)
        select h.account_id, m.month, l.currency, h.block_reason, sum(h.sign * m.nights)
        from (
          select account_id, listing_id, nights, kind, block_reason, 1 as sign from inserted_holds
          union all
          select account_id, listing_id, nights, kind, block_reason, -1 from deleted_holds
        ) h
        join listings l on l.id = h.listing_id
        cross join lateral block_month_nights(lower(h.nights), upper(h.nights)) m
        where h.kind = 'block'
        group by 1, 2, 3, 4
        having sum(h.sign * m.nights) <> 0
        order by 1, 2, 3, 4
        on conflict (account_id, month, currency, reason) do update set nights = f.nights + excluded.nights;
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger calendar_holds_block_months_insert
    after insert on calendar_holds
    referencing new table as inserted_holds
    for each statement execute function calendar_holds_move_block_months()`.execute(db);
  await sql`
    create trigger calendar_holds_block_months_update
    after update on calendar_holds
    referencing old table as deleted_holds new table as inserted_holds
    for each statement execute function calendar_holds_move_block_months()`.execute(db);
  await sql`
    create trigger calendar_holds_block_months_delete
    after delete on calendar_holds
    referencing old table as deleted_holds
    for each statement execute function calendar_holds_move_block_months()`.execute(db);
  await sql`
    create function calendar_holds_clear_block_months() returns trigger language plpgsql as $$
    begin
      delete from block_month_facts;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger calendar_holds_block_months_truncate
    after truncate on calendar_holds
    for each statement execute function calendar_holds_clear_block_months()`.execute(db);
  // A cascade from a deleted listing would delete its blocks after the listing row, when nothing names their
  // currency any more: its blocks go first, through the triggers above.
  await sql`
    create function listings_delete_blocks_first() returns trigger language plpgsql as $$
    begin
      delete from calendar_holds where listing_id = old.id and kind = 'block';
      return old;
    end
    $$`.execute(db);
  await sql`
    create trigger listings_delete_blocks_first
    before delete on listings
    for each row execute function listings_delete_blocks_first()`.execute(db);

  await sql`
    insert into block_month_facts (account_id, month, currency, reason, nights)
    select h.account_id, m.month, l.currency, h.block_reason, sum(m.nights)
    from calendar_holds h
    join listings l on l.id = h.listing_id
    cross join lateral block_month_nights(lower(h.nights), upper(h.nights)) m
    where h.kind = 'block'
    group by 1, 2, 3, 4`.execute(db);
}

/** Drops the roll-up, its triggers and functions. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists listings_delete_blocks_first on listings`.execute(db);
  await sql`drop function if exists listings_delete_blocks_first()`.execute(db);
  await sql`drop trigger if exists calendar_holds_block_months_truncate on calendar_holds`.execute(db);
  await sql`drop trigger if exists calendar_holds_block_months_delete on calendar_holds`.execute(db);
  await sql`drop trigger if exists calendar_holds_block_months_update on calendar_holds`.execute(db);
  await sql`drop trigger if exists calendar_holds_block_months_insert on calendar_holds`.execute(db);
  await sql`drop function if exists calendar_holds_clear_block_months()`.execute(db);
  await sql`drop function if exists calendar_holds_move_block_months()`.execute(db);
  await sql`drop function if exists block_month_nights(date, date)`.execute(db);
  await sql`drop table if exists block_month_facts`.execute(db);
}
