import { toMajorUnits } from '@innkeep/domain';
import type {
  BreakdownSortKey,
  ListingBreakdown,
  listingBreakdownInputSchema,
} from '@innkeep/domain/analytics';
import { moneyPer, ratioOf } from '@innkeep/domain/analytics';
import { type RawBuilder, sql } from 'kysely';
import type { z } from 'zod';
import type { Executor } from '../database.ts';
import { runAnalyticsStatement } from './analytics-query-settings.ts';
import { type AnalyticsScope, listingInScope } from './analytics-scope.ts';
import { bookedNightsIn, currenciesIn, nth, reasonsFor, sumsOf } from './performance-calculations.ts';
import { performanceMeta } from './performance-meta.ts';
import { periodOf } from './performance-periods.ts';
import { soldNightsByPeriod } from './performance-sold-nights.ts';
import { activeSince, currencySupplyOf, supplyByPeriod } from './performance-supply.ts';
import { soldNightRows } from './sold-nights.ts';

type BreakdownFilters = z.output<typeof listingBreakdownInputSchema>;

/** One row's figures in one currency, in minor units and nights, as the SQL returns them. */
interface UnitCurrencyRow {
  position: number;
  total_rows: number;
  unit_id: string;
  unit_name: string;
  currency: string;
  listings: number;
  calendar_nights: number;
  blocked_nights: number;
  booked_nights: number;
  accommodation: number;
  fees: number;
}

/**
 * The ORDER BY of the ranked units. Money keys compare only within a currency, so they order by the row's
 * main currency (that of most of its listings) first; `unit` holds the unit's totals and `money` its
 * figures in that currency.
 */
function sortOrder(sortBy: BreakdownSortKey, order: 'asc' | 'desc'): RawBuilder<unknown> {
  const direction = order === 'asc' ? sql`asc nulls last` : sql`desc nulls last`;
  const ranked = (expression: RawBuilder<unknown>) => sql`${expression} ${direction}`;
  const key = {
    occupancy: ranked(
      sql`unit.booked_nights::float8 / nullif(unit.calendar_nights - unit.blocked_nights, 0)`,
    ),
    bookedNights: ranked(sql`unit.booked_nights`),
    availableNights: ranked(sql`unit.calendar_nights - unit.blocked_nights`),
    accommodationRevenue: sql`money.currency, ${ranked(sql`money.accommodation`)}`,
    adr: sql`money.currency, ${ranked(sql`money.accommodation::float8 / nullif(money.booked_nights, 0)`)}`,
    revpar: sql`money.currency, ${ranked(
      sql`money.accommodation::float8 / nullif(money.calendar_nights - money.blocked_nights, 0)`,
    )}`,
    name: sql`unit.unit_name ${order === 'desc' ? sql`desc` : sql`asc`}`,
  }[sortBy];
  return sql`${key}, unit.unit_name, unit.unit_id`;
}

/**
 * The rows of a breakdown: per listing, or per listing group (its listings in scope, each once), with
 * nights and money per currency, ranked in SQL and cut to `limit`. A listing's reservations are in its own
 * currency (listings cannot change currency), so each listing's money sits in its currency's figures.
 */
async function breakdownRows(
  db: Executor,
  scope: AnalyticsScope,
  input: BreakdownFilters,
  sortBy: BreakdownSortKey,
  order: 'asc' | 'desc',
  limit: number,
): Promise<UnitCurrencyRow[]> {
  const period = periodOf(input);
  const nights = sql`daterange(${period.startDate}::date, ${period.endDate}::date, '[]')`;
  const nightAfter = sql`${period.endDate}::date + 1`;
  const byListing = input.by !== 'group';
  // By listing, each row is one listing in its one currency: its figures are the row's and its money's, with
  // no grouping (which cost two sorts of every listing on the scale demo). By group they are added up.
  const unitMoney = byListing
    ? sql`
    unit_money as (
      select s.id as unit_id, s.name as unit_name, s.currency, 1 as listings,
        greatest(0, ${nightAfter} - s.active_since)::bigint as calendar_nights,
        coalesce(b.nights, 0)::bigint as blocked_nights,
        coalesce(so.nights, 0)::bigint as booked_nights,
        coalesce(so.accommodation, 0)::bigint as accommodation,
        coalesce(so.fees, 0)::bigint as fees
      from scoped s
      left join blocked b on b.listing_id = s.id
      left join sold so on so.listing_id = s.id
    ),
    ranked as (
      select money.unit_id, row_number() over (order by ${sortOrder(sortBy, order)})::integer as position,
        count(*) over ()::integer as total_rows
      from unit_money money
      cross join lateral (
        select money.unit_id, money.unit_name, money.calendar_nights, money.blocked_nights, money.booked_nights
      ) unit
    )`
    : sql`
    units as (
      select g.id as unit_id, g.name as unit_name, m.listing_id
      from listing_groups g
      join listing_group_members m on m.group_id = g.id
      join scoped on scoped.id = m.listing_id
      where g.account_id = ${scope.accountId}
    ),
    unit_money as (
      select u.unit_id, u.unit_name, s.currency, count(*)::integer as listings,
        sum(greatest(0, ${nightAfter} - s.active_since))::bigint as calendar_nights,
        coalesce(sum(b.nights), 0)::bigint as blocked_nights,
        coalesce(sum(so.nights), 0)::bigint as booked_nights,
        coalesce(sum(so.accommodation), 0)::bigint as accommodation,
        coalesce(sum(so.fees), 0)::bigint as fees
      from units u
      join scoped s on s.id = u.listing_id
      left join blocked b on b.listing_id = u.listing_id
      left join sold so on so.listing_id = u.listing_id
      group by u.unit_id, u.unit_name, s.currency
    ),
    unit as (
      select unit_id, unit_name, sum(calendar_nights) as calendar_nights, sum(blocked_nights) as blocked_nights,
        sum(booked_nights) as booked_nights,
        (array_agg(currency order by listings desc, currency))[1] as main_currency
      from unit_money
      group by unit_id, unit_name
    ),
    ranked as (
      select unit.unit_id, row_number() over (order by ${sortOrder(sortBy, order)})::integer as position,
        count(*) over ()::integer as total_rows
      from unit
      join unit_money money on money.unit_id = unit.unit_id and money.currency = unit.main_currency
    )`;
  const { rows } = await runAnalyticsStatement(
    db,
    sql<UnitCurrencyRow>`
    with scoped as (
      -- The first night of the period the listing counts. Night counts below are date arithmetic: intersecting
      -- dateranges for every block cost more than the rest of the statement on the scale demo.
      select l.id, l.name, l.currency, greatest(${period.startDate}::date, ${activeSince('l')}) as active_since
      from listings l
      where l.account_id = ${scope.accountId} and ${listingInScope(scope, 'l.id')}
    ),
    blocked as (
      select h.listing_id,
        sum(greatest(0, least(upper(h.nights), ${nightAfter}) - greatest(lower(h.nights), s.active_since))) as nights
      from calendar_holds h
      join scoped s on s.id = h.listing_id
      where h.account_id = ${scope.accountId} and h.kind = 'block' and h.nights && ${nights}
        and ${listingInScope(scope, 'h.listing_id')}
      group by h.listing_id
    ),
    sold as (
      select listing_id, sum(nights) as nights, sum(accommodation_minor) as accommodation, sum(fees_minor) as fees
      from ${soldNightRows(scope, period)} as facts
      group by listing_id
    ),
    ${unitMoney}
    select r.position, r.total_rows, m.unit_id, m.unit_name, m.currency, m.listings, m.calendar_nights,
      m.blocked_nights, m.booked_nights, m.accommodation, m.fees
    from ranked r
    join unit_money m on m.unit_id = r.unit_id
    where r.position <= ${limit}
    order by r.position, m.currency`,
  );
  return rows;
}

/** Money of one row or of the totals in one currency. */
function breakdownMoney(
  currency: string,
  available: number,
  booked: number,
  accommodation: number,
  fees: number,
) {
  const adr = moneyPer(accommodation, booked, currency);
  const revpar = moneyPer(accommodation, available, currency);
  return {
    currency,
    availableNights: available,
    bookedNights: booked,
    accommodationRevenue: toMajorUnits(accommodation, currency),
    totalRevenue: toMajorUnits(accommodation + fees, currency),
    adr,
    revpar,
    nullReasons: reasonsFor({ adr: [adr, 'no_booked_nights'], revpar: [revpar, 'no_available_nights'] }),
  };
}

/** Nights and occupancies of a row or of the totals. */
function breakdownNights(calendar: number, available: number, booked: number) {
  const occupancy = ratioOf(booked, available);
  const grossOccupancy = ratioOf(booked, calendar);
  return {
    calendarNights: calendar,
    availableNights: available,
    bookedNights: booked,
    occupancy,
    grossOccupancy,
    nullReasons: reasonsFor({
      occupancy: [occupancy, 'no_available_nights'],
      grossOccupancy: [grossOccupancy, 'no_calendar_nights'],
    }),
  };
}

/**
 * get_listing_breakdown_stats: nights, occupancy, ADR, RevPAR and revenue per listing or listing group,
 * sorted and cut to `limit`, beside the totals of the whole scope (computed on their own, so by listing the
 * rows of an untruncated answer add up to them).
 */
export async function listingBreakdown(
  db: Executor,
  scope: AnalyticsScope,
  input: BreakdownFilters,
): Promise<ListingBreakdown> {
  const period = periodOf(input);
  const by = input.by ?? 'listing';
  const sortBy = input.sortBy ?? 'occupancy';
  const order = input.order ?? (sortBy === 'name' ? 'asc' : 'desc');
  const limit = input.limit ?? 25;
  const [rows, supply, sold] = await Promise.all([
    breakdownRows(db, scope, input, sortBy, order, limit),
    supplyByPeriod(db, scope, [period]),
    soldNightsByPeriod(db, scope, [period]),
  ]);
  const periodSupply = nth(supply, 0);
  const periodSold = nth(sold, 0);
  const currencies = currenciesIn(periodSupply.byCurrency, periodSold);

  const units = new Map<string, UnitCurrencyRow[]>();
  for (const row of rows) units.set(row.unit_id, [...(units.get(row.unit_id) ?? []), row]);
  const totalRows = rows[0]?.total_rows ?? 0;
  const notes = [
    ...(totalRows > limit
      ? [
          `Showing ${limit} of ${totalRows} rows; raise limit (up to 100), or narrow with listingIds or listingGroupId.`,
        ]
      : []),
    ...(by === 'group'
      ? [
          'Each group row adds up its listings in scope, each once; a listing in several groups counts in each ' +
            'of them and one in none in no row, so group rows need not add up to the totals.',
        ]
      : []),
  ];

  return {
    meta: performanceMeta(scope, period, {
      definitions: [
        'available_nights',
        'occupancy_adjusted',
        'occupancy_gross',
        'adr',
        'revpar',
        'revenue_bases',
      ],
      currencies,
      supply: true,
      notes,
    }),
    by,
    sortBy,
    order,
    totals: {
      listings: periodSupply.listings,
      blockedNights: periodSupply.blocked,
      ...breakdownNights(
        periodSupply.calendarNights,
        periodSupply.availableNights,
        bookedNightsIn(periodSold),
      ),
      currencies: currencies.map((currency) => {
        const sums = sumsOf(periodSold, currency);
        const available = currencySupplyOf(periodSupply.byCurrency, currency).availableNights;
        return breakdownMoney(currency, available, sums.nights, sums.accommodation, sums.fees);
      }),
    },
    rows: [...units.values()].map((money) => {
      const first = nth(money, 0);
      const sum = (pick: (row: UnitCurrencyRow) => number) =>
        money.reduce((total, row) => total + pick(row), 0);
      const calendar = sum((row) => row.calendar_nights);
      const blocked = sum((row) => row.blocked_nights);
      return {
        id: first.unit_id,
        name: first.unit_name,
        listings: sum((row) => row.listings),
        blockedNights: blocked,
        ...breakdownNights(
          calendar,
          calendar - blocked,
          sum((row) => row.booked_nights),
        ),
        currencies: money.map((row) =>
          breakdownMoney(
            row.currency,
            row.calendar_nights - row.blocked_nights,
            row.booked_nights,
            row.accommodation,
            row.fees,
          ),
        ),
      };
    }),
    totalRows,
    truncated: totalRows > limit,
  };
}
