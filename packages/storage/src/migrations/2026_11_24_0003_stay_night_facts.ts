import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released. The backfill
// below is the stay-night rule as it stood when the table was created; `stay-night-facts.ts` maintains it
// from then on, inside every reservation write.

/**
 * `stay_night_facts`: one row per sold night (reservation `accepted`) with the stay's money pro-rated onto it,
 * so analytics add up nights instead of re-deriving them from reservations, line items and nightly rates on
 * every question. Rent comes from the nightly rates; stay-level fees, channel fees and the payout are split
 * evenly with largest-remainder cents (earlier nights take the spare cents), so each column adds up to the
 * stay's total exactly. `stay_month_facts` rolls them up per listing, month, channel and currency, so a
 * year across thousands of listings reads a few thousand rows instead of hundreds of thousands.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table stay_night_facts (
      reservation_id text not null references reservations (id) on delete cascade,
      night date not null,
      account_id text not null,
      listing_id text not null,
      channel text not null,
      currency char(3) not null,
      accommodation_minor integer not null,
      fees_minor integer not null,
      channel_fees_minor integer not null,
      payout_minor integer not null,
      primary key (reservation_id, night)
    )`.execute(db);
  await sql`
    create index stay_night_facts_account_night on stay_night_facts (account_id, night)
    include (listing_id, channel, currency, accommodation_minor, fees_minor, channel_fees_minor, payout_minor)
  `.execute(db);
  await sql`
    create table stay_month_facts (
      listing_id text not null,
      month date not null,
      channel text not null,
      currency char(3) not null,
      account_id text not null,
      nights integer not null,
      accommodation_minor bigint not null,
      fees_minor bigint not null,
      channel_fees_minor bigint not null,
      payout_minor bigint not null,
      primary key (listing_id, month, channel, currency)
    )`.execute(db);
  await sql`
    create index stay_month_facts_account_month on stay_month_facts (account_id, month)
    include (listing_id, channel, currency, nights, accommodation_minor, fees_minor, channel_fees_minor, payout_minor)
  `.execute(db);
  // share(x) = floor(x / nights) plus one cent on the first mod(x, nights) nights; mod is made non-negative
  // because PostgreSQL's takes the dividend's sign.
  await sql`
    insert into stay_night_facts
    select r.id, n.night, r.account_id, r.listing_id, r.channel, r.currency, n.accommodation_minor,
      (s.fees - rem.fees) / r.nights + (n.night - r.start_date < rem.fees)::integer,
      (s.channel_fees - rem.channel_fees) / r.nights + (n.night - r.start_date < rem.channel_fees)::integer,
      (r.host_payout_minor - rem.payout) / r.nights + (n.night - r.start_date < rem.payout)::integer
    from reservations r
    join reservation_nights n on n.reservation_id = r.id
    cross join lateral (
      select
        coalesce(sum(li.amount_minor) filter (
          where li.type in ('cleaning_fee', 'extra_guest_fee', 'pet_fee', 'other')), 0)::integer as fees,
        coalesce(-sum(li.amount_minor) filter (where li.type = 'host_service_fee'), 0)::integer as channel_fees
      from reservation_line_items li
      where li.reservation_id = r.id
    ) s
    cross join lateral (
      select
        mod(mod(s.fees, r.nights) + r.nights, r.nights) as fees,
        mod(mod(s.channel_fees, r.nights) + r.nights, r.nights) as channel_fees,
        mod(mod(r.host_payout_minor, r.nights) + r.nights, r.nights) as payout
    ) rem
    where r.status = 'accepted'`.execute(db);
  await sql`
    insert into stay_month_facts
    select listing_id, date_trunc('month', night)::date, channel, currency, account_id, count(*),
      sum(accommodation_minor), sum(fees_minor), sum(channel_fees_minor), sum(payout_minor)
    from stay_night_facts
    group by listing_id, date_trunc('month', night)::date, channel, currency, account_id`.execute(db);
}

/** Drops the stay-night facts. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists stay_month_facts`.execute(db);
  await sql`drop table if exists stay_night_facts`.execute(db);
}
