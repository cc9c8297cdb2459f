import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released.

/**
 * `stay_account_month_facts`: `stay_month_facts` summed over the listings, per account, month, channel and
 * currency. A question about every listing of a large portfolio read tens of thousands of listing-month rows
 * a year to add them up; this holds about a hundred. It is moved by the same writes as `stay_month_facts`, in
 * the same transaction (`stay-night-facts.ts`), and starts as their sum.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table stay_account_month_facts (
      account_id text not null,
      month date not null,
      channel text not null,
      currency char(3) not null,
      nights bigint not null,
      accommodation_minor bigint not null,
      fees_minor bigint not null,
      channel_fees_minor bigint not null,
      payout_minor bigint not null,
      primary key (account_id, month, channel, currency)
    )`.execute(db);
  await sql`
    insert into stay_account_month_facts
      (account_id, month, channel, currency, nights, accommodation_minor, fees_minor, channel_fees_minor,
       payout_minor)
    select account_id, month, channel, currency, sum(nights), sum(accommodation_minor), sum(fees_minor),
      sum(channel_fees_minor), sum(payout_minor)
    from stay_month_facts
    group by account_id, month, channel, currency`.execute(db);
}

/** Drops the roll-up. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists stay_account_month_facts`.execute(db);
}
