import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../database.ts';

/**
 * Rewrites the `stay_night_facts` rows of some reservations from their current state: a sold (`accepted`)
 * reservation gets one row per night with its nightly rent and an even, largest-remainder share of its
 * stay-level fees, channel fees and payout; any other status gets none. The monthly roll-ups
 * `stay_month_facts` (per listing) and `stay_account_month_facts` (per account) move by the same rows: the
 * removed nights are subtracted and the new ones added, as upserts that commute, so concurrent writes to the
 * same month never lose each other's change. Call it inside the transaction that changed the reservations,
 * after their nights and line items are written, so analytics never see a half-done write.
 */
export async function refreshStayNightFacts(trx: Executor, reservationIds: readonly string[]): Promise<void> {
  if (reservationIds.length === 0) return;
  const ids = sql`${[...reservationIds]}::text[]`;
  await lockAccountMonths(trx, ids);
  await sql`
    with gone as (delete from stay_night_facts where reservation_id = any(${ids}) returning *),
    listing_months as (${addToMonths(sql`gone`, -1)})
    ${addToAccountMonths(sql`gone`, -1)}`.execute(trx);
  await sql`
    with added as (${insertFacts(sql`r.id = any(${ids})`)} returning *),
    listing_months as (${addToMonths(sql`added`, 1)})
    ${addToAccountMonths(sql`added`, 1)}`.execute(trx);
}

/** Rebuilds every stay-night and stay-month fact of one account, e.g. after rows were bulk-loaded. */
export async function rebuildStayNightFacts(trx: Executor, accountId: string): Promise<void> {
  await sql`delete from stay_account_month_facts where account_id = ${accountId}`.execute(trx);
  await sql`delete from stay_month_facts where account_id = ${accountId}`.execute(trx);
  await sql`delete from stay_night_facts where account_id = ${accountId}`.execute(trx);
  await insertFacts(sql`r.account_id = ${accountId}`).execute(trx);
  await sql`
    insert into stay_month_facts
      (listing_id, month, channel, currency, account_id,
       nights, accommodation_minor, fees_minor, channel_fees_minor, payout_minor)
    select listing_id, date_trunc('month', night)::date, channel, currency, account_id, count(*),
      sum(accommodation_minor), sum(fees_minor), sum(channel_fees_minor), sum(payout_minor)
    from stay_night_facts
    where account_id = ${accountId}
    group by listing_id, date_trunc('month', night)::date, channel, currency, account_id`.execute(trx);
  await sql`
    insert into stay_account_month_facts
      (account_id, month, channel, currency, nights, accommodation_minor, fees_minor, channel_fees_minor,
       payout_minor)
    select account_id, month, channel, currency, sum(nights), sum(accommodation_minor), sum(fees_minor),
      sum(channel_fees_minor), sum(payout_minor)
    from stay_month_facts
    where account_id = ${accountId}
    group by account_id, month, channel, currency`.execute(trx);
}

/**
 * Takes the row locks of every account month the refresh of `ids` will move, in key order, creating missing
 * rows at zero. Every reservation write of an account moves some of the same few rows; taken as the two
 * upserts reach them, in whatever order, two writers could each hold a row the other waits for. The keys are
 * those of the facts the refresh removes and of the nights of the sold reservations it adds facts for.
 */
async function lockAccountMonths(trx: Executor, ids: RawBuilder<unknown>): Promise<void> {
  await sql`
    insert into stay_account_month_facts as m
      (account_id, month, channel, currency, nights, accommodation_minor, fees_minor, channel_fees_minor,
       payout_minor)
    select k.account_id, k.month, k.channel, k.currency, 0, 0, 0, 0, 0
    from (
      select account_id, date_trunc('month', night)::date as month, channel, currency
      from stay_night_facts
      where reservation_id = any(${ids})
      union
      select r.account_id, date_trunc('month', n.night)::date, r.channel, r.currency
      from reservations r
      join reservation_nights n on n.reservation_id = r.id
      where r.id = any(${ids}) and r.status = 'accepted'
    ) k
    order by k.account_id, k.month, k.channel, k.currency
    on conflict (account_id, month, channel, currency) do update set nights = m.nights`.execute(trx);
}

/**
 * Line-item types that count as the host's fees in total revenue: charged to the guest on top of rent, kept by
 * the host. Taxes, guest service fees and deposits are not revenue.
 */
export const stayFeeTypes = ['cleaning_fee', 'extra_guest_fee', 'pet_fee', 'other'] as const;

/** A roll-up row's nights and money from the night facts grouped into it, times `sign`. */
function signedSums(sign: 1 | -1): RawBuilder<unknown> {
  return sql`${sign} * count(*), ${sign} * sum(accommodation_minor), ${sign} * sum(fees_minor),
    ${sign} * sum(channel_fees_minor), ${sign} * sum(payout_minor)`;
}

/** The update of an upsert of {@link signedSums} into an existing roll-up row `m`: it adds them. */
const addedToRow = sql`
  nights = m.nights + excluded.nights,
  accommodation_minor = m.accommodation_minor + excluded.accommodation_minor,
  fees_minor = m.fees_minor + excluded.fees_minor,
  channel_fees_minor = m.channel_fees_minor + excluded.channel_fees_minor,
  payout_minor = m.payout_minor + excluded.payout_minor`;

/** An upsert adding `sign` × the nights of `rows` (a CTE of stay_night_facts rows) to their months. */
function addToMonths(rows: RawBuilder<unknown>, sign: 1 | -1): RawBuilder<unknown> {
  return sql`
    insert into stay_month_facts as m
      (listing_id, month, channel, currency, account_id,
       nights, accommodation_minor, fees_minor, channel_fees_minor, payout_minor)
    select listing_id, date_trunc('month', night)::date, channel, currency, account_id, ${signedSums(sign)}
    from ${rows}
    group by listing_id, date_trunc('month', night)::date, channel, currency, account_id
    on conflict (listing_id, month, channel, currency) do update set ${addedToRow}`;
}

/** An upsert adding `sign` × the nights of `rows` (a CTE of stay_night_facts rows) to their account months. */
function addToAccountMonths(rows: RawBuilder<unknown>, sign: 1 | -1): RawBuilder<unknown> {
  return sql`
    insert into stay_account_month_facts as m
      (account_id, month, channel, currency, nights, accommodation_minor, fees_minor, channel_fees_minor,
       payout_minor)
    select account_id, date_trunc('month', night)::date, channel, currency, ${signedSums(sign)}
    from ${rows}
    group by account_id, date_trunc('month', night)::date, channel, currency
    on conflict (account_id, month, channel, currency) do update set ${addedToRow}`;
}

// share(x) = floor(x / nights) plus one cent on the first mod(x, nights) nights. PostgreSQL's mod takes the
// dividend's sign, hence the double mod for negative amounts.
function insertFacts(reservationFilter: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`
    insert into stay_night_facts
      (reservation_id, night, account_id, listing_id, channel, currency,
       accommodation_minor, fees_minor, channel_fees_minor, payout_minor)
    select r.id, n.night, r.account_id, r.listing_id, r.channel, r.currency, n.accommodation_minor,
      (s.fees - rem.fees) / r.nights + (n.night - r.start_date < rem.fees)::integer,
      (s.channel_fees - rem.channel_fees) / r.nights + (n.night - r.start_date < rem.channel_fees)::integer,
      (r.host_payout_minor - rem.payout) / r.nights + (n.night - r.start_date < rem.payout)::integer
    from reservations r
    join reservation_nights n on n.reservation_id = r.id
    cross join lateral (
      select
        coalesce(sum(li.amount_minor) filter (
          where li.type in (${sql.join(stayFeeTypes.map((type) => sql.lit(type)))})), 0)::integer as fees,
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
    where r.status = 'accepted' and ${reservationFilter}`;
}
