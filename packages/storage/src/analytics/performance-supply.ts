import type { BlockedNights } from '@innkeep/domain/analytics';
import { type AnalyticsPeriod, distinctPeriods } from '@innkeep/domain/analytics';
import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../database.ts';
import { runAnalyticsStatement } from './analytics-query-settings.ts';
import { type AnalyticsScope, listingInScope } from './analytics-scope.ts';

/** The supply of the listings priced in one currency over one period. */
export interface CurrencySupply {
  readonly currency: string;
  readonly listings: number;
  /** Each listing's nights of the period from the day it became active ({@link activeSince}). */
  readonly calendarNights: number;
  readonly blocked: BlockedNights;
  /** Calendar nights minus blocked nights. */
  readonly availableNights: number;
}

/** The supply of a scope over one period: per listing currency (sorted) and in total. */
export interface PeriodSupply {
  readonly byCurrency: readonly CurrencySupply[];
  readonly listings: number;
  readonly calendarNights: number;
  readonly blocked: BlockedNights;
  readonly availableNights: number;
}

/**
 * The first night a listing `l` (a `listings` row) counts as supply: its creation date in its own time zone.
 * Market-data providers count a listing onboarded mid-period the same way.
 */
export function activeSince(listing: string): RawBuilder<string> {
  const column = (name: string) => sql.ref(`${listing}.${name}`);
  return sql<string>`(${column('created_at')} at time zone ${column('time_zone')})::date`;
}

/**
 * The supply of `scope` in each of `periods` (one result per period, in order), in one statement: listings
 * per currency, their nights in each period since they became active ({@link activeSince}), and the nights
 * of their blocks (owner, maintenance, manual) clipped to the same. Supply is
 * by listing, so a channel filter does not change it. Blocks never overlap reservations (the calendar's
 * exclusion constraint), so booked nights always fit inside the available ones.
 */
export async function supplyByPeriod(
  db: Executor,
  scope: AnalyticsScope,
  periods: readonly AnalyticsPeriod[],
): Promise<PeriodSupply[]> {
  if (periods.length === 0) return [];
  const { distinct, positions } = distinctPeriods(periods);
  const { rows } = await runAnalyticsStatement(
    db,
    sql<{
      period_index: number;
      currency: string;
      listings: number;
      calendar_nights: number;
      owner: number;
      maintenance: number;
      manual: number;
    }>`
    with ${periodsTable(distinct)},
    -- Materialised, so the blocks find their listing's currency through one hash of the scope: inlined, the
    -- planner guesses a few hundred blocks and looks each one's listing up by its key (11,000 probes a year).
    scoped as materialized (
      select l.id, l.currency, ${activeSince('l')} as active_since from listings l
      where l.account_id = ${scope.accountId} and ${listingInScope(scope, 'l.id')}
    ),
    currencies as (
      select p.period_index, l.currency, count(*)::integer as listings,
        sum(greatest(0, p.end_date + 1 - greatest(p.start_date, l.active_since)))::integer as calendar_nights
      from periods p
      cross join scoped l
      group by p.period_index, l.currency
    ),
    blocks as (
      -- Each block's nights inside the period and the listing's active days, in date arithmetic: intersecting
      -- three dateranges per block took over half of this statement on the scale demo's 11,000 blocks a year.
      select p.period_index, l.currency,
        sum(b.nights) filter (where h.block_reason = 'owner')::integer as owner,
        sum(b.nights) filter (where h.block_reason = 'maintenance')::integer as maintenance,
        sum(b.nights) filter (where h.block_reason = 'manual')::integer as manual
      from periods p
      join calendar_holds h
        on h.account_id = ${scope.accountId} and h.kind = 'block' and h.nights && p.nights
      join scoped l on l.id = h.listing_id
      cross join lateral (
        select greatest(0, least(upper(h.nights), p.end_date + 1)
          - greatest(lower(h.nights), p.start_date, l.active_since)) as nights
      ) b
      group by p.period_index, l.currency
    )
    select c.period_index, c.currency, c.listings, c.calendar_nights, coalesce(b.owner, 0) as owner,
      coalesce(b.maintenance, 0) as maintenance, coalesce(b.manual, 0) as manual
    from currencies c
    left join blocks b on b.period_index = c.period_index and b.currency = c.currency
    order by c.period_index, c.currency`,
  );

  return periods.map((_, index) => {
    const distinctIndex = positions[index];
    const byCurrency = rows
      .filter((row) => row.period_index === distinctIndex)
      .map((row): CurrencySupply => {
        const blocked = blockedNights(row.owner, row.maintenance, row.manual);
        const calendarNights = Number(row.calendar_nights);
        return {
          currency: row.currency,
          listings: row.listings,
          calendarNights,
          blocked,
          availableNights: calendarNights - blocked.total,
        };
      });
    return totalSupply(byCurrency);
  });
}

/** The supply of one currency, or none when no listing in scope is priced in it. */
export function currencySupplyOf(list: readonly CurrencySupply[], currency: string): CurrencySupply {
  return (
    list.find((supply) => supply.currency === currency) ?? {
      currency,
      listings: 0,
      calendarNights: 0,
      blocked: { owner: 0, maintenance: 0, manual: 0, total: 0 },
      availableNights: 0,
    }
  );
}

/** Adds up the supply of several currencies (nights and listings add; only money does not). */
export function totalSupply(byCurrency: readonly CurrencySupply[]): PeriodSupply {
  const sum = (pick: (supply: CurrencySupply) => number) =>
    byCurrency.reduce((total, supply) => total + pick(supply), 0);
  return {
    byCurrency,
    listings: sum((supply) => supply.listings),
    calendarNights: sum((supply) => supply.calendarNights),
    blocked: blockedNights(
      sum((supply) => supply.blocked.owner),
      sum((supply) => supply.blocked.maintenance),
      sum((supply) => supply.blocked.manual),
    ),
    availableNights: sum((supply) => supply.availableNights),
  };
}

/** Blocked nights by reason with their total. */
export function blockedNights(owner: number, maintenance: number, manual: number): BlockedNights {
  return { owner, maintenance, manual, total: owner + maintenance + manual };
}

/**
 * A `periods` CTE for `with`: one row per period with `period_index` (its position), `start_date`,
 * `end_date` and `nights`, the period as a daterange to intersect calendar holds with.
 */
function periodsTable(periods: readonly AnalyticsPeriod[]): RawBuilder<unknown> {
  const rows = sql.join(
    periods.map(
      (period, index) => sql`(${index}::integer, ${period.startDate}::date, ${period.endDate}::date)`,
    ),
  );
  return sql`periods (period_index, start_date, end_date, nights) as (
    select period_index, start_date, end_date, daterange(start_date, end_date, '[]')
    from (values ${rows}) as given (period_index, start_date, end_date)
  )`;
}
