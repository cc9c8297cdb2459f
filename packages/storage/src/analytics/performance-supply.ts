import { addDays } from '@innkeep/domain';
import type { BlockedNights } from '@innkeep/domain/analytics';
import { type AnalyticsPeriod, distinctPeriods } from '@innkeep/domain/analytics';
import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../database.ts';
import { runAnalyticsStatement } from './analytics-query-settings.ts';
import { type AnalyticsScope, listingInScope } from './analytics-scope.ts';
import { wholeMonthsOf } from './sold-nights.ts';

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
      channel: number;
    }>`
    with ${periodsTable(distinct, scope.listingIds !== null)},
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
    block_nights as (
      -- Whole months of blocks from their roll-up (only when the scope spans every listing: it has no listing)…
      select p.period_index, f.currency, f.reason, f.nights
      from periods p
      join block_month_facts f
        on f.account_id = ${scope.accountId} and f.month >= p.whole_from and f.month < p.whole_until
      union all
      -- …less what listings added during those months blocked before they became active: a probe of each such
      -- listing's holds by first night (joined, the planner read every block of the account into a hash)…
      select p.period_index, l.currency, h.block_reason,
        greatest(lower(h.nights), p.whole_from) - least(upper(h.nights), l.active_since, p.whole_until)
      from periods p
      join scoped l on l.active_since > p.whole_from and p.whole_from < p.whole_until
      cross join lateral (
        select h.block_reason, h.nights from calendar_holds h
        where h.listing_id = l.id and h.kind = 'block'
          and lower(h.nights) < least(l.active_since, p.whole_until) and upper(h.nights) > p.whole_from
        offset 0
      ) h
      union all
      -- …and the days outside whole months block by block, clipped to the listing's active days in date
      -- arithmetic (intersecting dateranges per block cost more than the rest of the statement).
      select p.period_index, l.currency, h.block_reason,
        greatest(0, least(upper(h.nights), w.until)
          - greatest(lower(h.nights), w.from_night, l.active_since))
      from periods p
      cross join lateral (
        values (p.start_date, p.whole_from), (p.whole_until, p.end_date + 1)
      ) w (from_night, until)
      join calendar_holds h
        on h.account_id = ${scope.accountId} and h.kind = 'block' and w.from_night < w.until
        and h.nights && daterange(w.from_night, w.until)
      join scoped l on l.id = h.listing_id
    ),
    blocks as (
      select period_index, currency,
        sum(nights) filter (where reason = 'owner')::integer as owner,
        sum(nights) filter (where reason = 'maintenance')::integer as maintenance,
        sum(nights) filter (where reason = 'manual')::integer as manual,
        sum(nights) filter (where reason = 'channel')::integer as channel
      from block_nights
      group by period_index, currency
    )
    select c.period_index, c.currency, c.listings, c.calendar_nights, coalesce(b.owner, 0) as owner,
      coalesce(b.maintenance, 0) as maintenance, coalesce(b.manual, 0) as manual,
      coalesce(b.channel, 0) as channel
    from currencies c
    left join blocks b on b.period_index = c.period_index and b.currency = c.currency
    order by c.period_index, c.currency`,
  );

  return periods.map((_, index) => {
    const distinctIndex = positions[index];
    const byCurrency = rows
      .filter((row) => row.period_index === distinctIndex)
      .map((row): CurrencySupply => {
        const blocked = blockedNights(row.owner, row.maintenance, row.manual, row.channel);
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
      blocked: { owner: 0, maintenance: 0, manual: 0, channel: 0, total: 0 },
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
      sum((supply) => supply.blocked.channel),
    ),
    availableNights: sum((supply) => supply.availableNights),
  };
}

/** Blocked nights by reason with their total. */
export function blockedNights(
  owner: number,
  maintenance: number,
  manual: number,
  channel: number,
): BlockedNights {
  return { owner, maintenance, manual, channel, total: owner + maintenance + manual + channel };
}

/**
 * A `periods` CTE for `with`: one row per period with `period_index` (its position), `start_date`,
 * `end_date`, `nights` (the period as a daterange to intersect calendar holds with) and the whole calendar
 * months inside it, `[whole_from, whole_until)`, that roll-ups answer: none (both the day after the period)
 * when `byListing`, as the roll-ups have no listing.
 */
function periodsTable(periods: readonly AnalyticsPeriod[], byListing: boolean): RawBuilder<unknown> {
  const rows = sql.join(
    periods.map((period, index) => {
      const dayAfter = addDays(period.endDate, 1);
      const { firstWholeMonth, afterWholeMonths } = byListing
        ? { firstWholeMonth: dayAfter, afterWholeMonths: dayAfter }
        : wholeMonthsOf(period);
      return sql`(${index}::integer, ${period.startDate}::date, ${period.endDate}::date,
        ${firstWholeMonth}::date, ${afterWholeMonths}::date)`;
    }),
  );
  return sql`periods (period_index, start_date, end_date, nights, whole_from, whole_until) as (
    select period_index, start_date, end_date, daterange(start_date, end_date, '[]'), whole_from, whole_until
    from (values ${rows}) as given (period_index, start_date, end_date, whole_from, whole_until)
  )`;
}
