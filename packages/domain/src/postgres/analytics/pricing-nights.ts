import { type RawBuilder, sql } from 'kysely';
import type { AnalyticsPeriod } from '../../analytics/analytics-period.ts';
import { addDays, type LocalDate } from '../../core/dates.ts';
import type { PricingRule } from '../../pricing/pricing.ts';
import type { Executor } from '../database.ts';
import { type AnalyticsScope, listingInScope } from './analytics-scope.ts';
import type { ListingClass } from './pricing-listed-price.ts';

/**
 * What a night of the period is: open (no hold), held (blocked, or requested by a pending reservation) or
 * sold (an accepted reservation).
 */
export type NightKind = 'open' | 'held' | 'sold';

/**
 * Nights of one kind, orphan-gap length (of the open run they sit in when an orphan-gap rule may care; else
 * 0) and piece (1-based, see `pieceBounds`), counted per weekday from Sunday:
 * `[kind, gap, piece, sundays, mondays, …, saturdays]`.
 */
export type NightCount = [NightKind, number, number, number, number, number, number, number, number, number];

/** Listings alike in everything their nights' listed prices depend on, how many there are, their nights. */
export interface ClassRow extends ListingClass {
  readonly row: 'class';
  readonly class_id: number;
  readonly listings: number;
  /** The class's open and held nights (and sold ones of the channel in scope); null when it has none. */
  readonly counts: NightCount[] | null;
}

/** A night of the period whose calendar day sets its own price; `kind` is null for a sold night not counted. */
export interface OverrideRow {
  readonly row: 'override';
  readonly class_id: number;
  readonly kind: NightKind | null;
  readonly gap: number | null;
  readonly night: LocalDate;
  readonly price_minor: number;
}

/** A row of {@link nightsByPriceGroup}. */
export type PriceGroupRow = ClassRow | OverrideRow;

/**
 * Counts the period's nights by what decides their listed price, without reading them one by one: the
 * listing classes in scope, each with its open and held runs of nights (and, with a channel filter, the sold
 * stays of that channel) cut at `pieces` and counted per weekday, as one JSON array per class so that a
 * year of a large portfolio arrives in a few hundred rows; and the nights with a per-date price. Open runs
 * are found over the period widened by the orphan-gap look-around, so a gap cut by the period's edge keeps
 * its real length. Without a channel filter sold nights are not read: they are every night neither open
 * nor held. `period` may be a part of the asked period cut at a piece bound, counted side by side with the
 * others: `pieces` are the whole period's, so piece numbers agree across parts, and every part lists every
 * class.
 */
export async function nightsByPriceGroup(
  db: Executor,
  scope: AnalyticsScope,
  period: AnalyticsPeriod,
  rules: readonly PricingRule[],
  pieces: readonly LocalDate[],
): Promise<PriceGroupRow[]> {
  const largestGap = rules.reduce((largest, rule) => Math.max(largest, rule.orphanGapMaxNights ?? 0), 0);
  // As far as the engine looks for holds around a night: the largest gap any rule cares about, plus one.
  const margin = largestGap === 0 ? 0 : largestGap + 1;
  const windowStart = addDays(period.startDate, -margin);
  const windowEnd = addDays(period.endDate, 1 + margin);
  const dayAfter = addDays(period.endDate, 1);
  const bounds = sql`${[...pieces]}::date[]`;
  const pieceNumbers = sql`${pieces.slice(1).map((_, index) => index + 1)}::integer[]`;
  const pieceOf = (date: RawBuilder<unknown>) => sql`width_bucket(${date}, ${bounds})`;
  const dows = [0, 1, 2, 3, 4, 5, 6];
  // Dates of weekday d among n nights from a night of weekday w: (n + (w + 6 − d) mod 7) div 7, w + 6 − d never
  // negative.
  const dowCounts = sql.join(
    dows.map((weekday) => sql`sum((n + (first_weekday + ${6 - weekday}::integer) % 7) / 7)::integer`),
  );
  const soldOfChannel =
    scope.channel === null
      ? sql``
      : sql`
        union all
        select s.class_id, r.listing_id, 'sold', r.start_date, r.end_date, 0
        from reservations r
        join scoped s on s.id = r.listing_id
        where r.account_id = ${scope.accountId}
          and r.status = 'accepted'
          and r.channel = ${scope.channel}
          and r.end_date > ${period.startDate}::date
          and r.start_date < ${dayAfter}::date`;
  const coverage = coverageOf(rules);
  const { rows } = await sql<PriceGroupRow>`
    with listing_rules as (
      select l.id, l.currency, l.base_price_minor, l.min_price_minor, l.time_zone, ${coverage.covered} as covered
      from listings l
      ${coverage.memberships}
      where l.account_id = ${scope.accountId} and ${listingInScope(scope, 'l.id')}
    ),
    scoped as materialized (
      select *,
        dense_rank() over (order by currency, base_price_minor, min_price_minor, time_zone, covered) as class_id
      from listing_rules
    ),
    held as (
      select h.listing_id, range_agg(h.nights) as nights
      from calendar_holds h
      where h.account_id = ${scope.accountId}
        -- Implied by the overlap (holds always have both ends); as a bound on their end it lets the account's
        -- holds be read from the index by end date instead of scanning every account's.
        and upper(h.nights) > ${windowStart}::date
        and h.nights && daterange(${windowStart}::date, ${windowEnd}::date)
        and ${listingInScope(scope, 'h.listing_id')}
      group by h.listing_id
    ),
    runs as (
      select s.class_id, s.id as listing_id, 'open' as kind, r.run_start, r.run_end,
        case
          when r.run_start > ${windowStart}::date and r.run_end < ${windowEnd}::date
            and r.run_end - r.run_start <= ${largestGap}::integer
          then r.run_end - r.run_start
          else 0
        end as gap
      from scoped s
      left join held h on h.listing_id = s.id
      -- Each run's ends read from its range once (offset 0 keeps them from being inlined into every use).
      cross join lateral (
        select lower(r) as run_start, upper(r) as run_end
        from unnest(
          datemultirange(daterange(${windowStart}::date, ${windowEnd}::date)) - coalesce(h.nights, '{}'::datemultirange)
        ) r
        offset 0
      ) r
      union all
      select s.class_id, h.listing_id, 'held', lower(h.nights), upper(h.nights), 0
      from calendar_holds h
      join scoped s on s.id = h.listing_id
      where h.account_id = ${scope.accountId}
        and h.kind = 'block'
        and h.nights && daterange(${period.startDate}::date, ${dayAfter}::date)
      union all
      select s.class_id, h.listing_id, 'held', lower(h.nights), upper(h.nights), 0
      from reservations r
      join calendar_holds h on h.reservation_id = r.id
      join scoped s on s.id = h.listing_id
      where r.account_id = ${scope.accountId}
        and r.status = 'pending'
        and h.nights && daterange(${period.startDate}::date, ${dayAfter}::date)
      ${soldOfChannel}
    ),
    clipped as materialized (
      select class_id, listing_id, kind, gap, x, y, ${pieceOf(sql`x`)} as first_piece, ${pieceOf(sql`y - 1`)} as last_piece
      from (
        select class_id, listing_id, kind, gap,
          greatest(run_start, ${period.startDate}::date) as x, least(run_end, ${dayAfter}::date) as y
        from runs
        where run_start < ${dayAfter}::date and run_end > ${period.startDate}::date
      ) inside
    ),
    piece_runs as (
      select class_id, kind, gap, piece, y - x as n,
        -- Weekday of the first night, 0 = Sunday: 1970-01-04 was a Sunday.
        ((x - date '1970-01-04') % 7 + 7) % 7 as first_weekday
      from (
        select class_id, kind, gap, first_piece as piece, x, y
        from clipped
        where first_piece = last_piece
        union all
        -- Each run cut at the pieces it spans: piece p is [bounds[p], bounds[p + 1]).
        select c.class_id, c.kind, c.gap, p.piece, greatest(c.x, (${bounds})[p.piece]),
          least(c.y, (${bounds})[p.piece + 1])
        from clipped c
        cross join lateral unnest((${pieceNumbers})[c.first_piece:c.last_piece]) p (piece)
        where c.first_piece < c.last_piece
      ) cut
    ),
    counted as (
      select class_id, json_build_array(kind, gap, piece, ${dowCounts}) as night_count
      from piece_runs
      group by class_id, kind, gap, piece
    ),
    counts as (
      select class_id, json_agg(night_count) as counts
      from counted
      group by class_id
    ),
    classes as (
      select class_id, currency, base_price_minor, min_price_minor, time_zone, covered, count(*)::integer as listings
      from scoped
      group by class_id, currency, base_price_minor, min_price_minor, time_zone, covered
    )
    select 'class' as row, c.class_id, c.currency, c.base_price_minor, c.min_price_minor, c.time_zone, c.covered,
      c.listings, n.counts, null as kind, null::integer as gap, null::date as night, null::integer as price_minor
    from classes c
    left join counts n on n.class_id = c.class_id
    union all
    select 'override', s.class_id, null, null, null, null, null, null, null, c.kind, c.gap, d.date, d.price_minor
    from calendar_days d
    join scoped s on s.id = d.listing_id
    left join clipped c on c.listing_id = d.listing_id and d.date >= c.x and d.date < c.y
    where d.date between ${period.startDate}::date and ${period.endDate}::date and d.price_minor is not null`.execute(
    db,
  );
  return rows;
}

/**
 * One character per rule, '1' where the rule covers listing `l` (`covered`), from the listing's membership in
 * each distinct listing list of the rules (`memberships`, a lateral join after `listings l`). Rules often
 * share a list (the same listings every season), so each list is sent and searched once rather than per rule.
 */
function coverageOf(rules: readonly PricingRule[]): {
  memberships: RawBuilder<unknown>;
  covered: RawBuilder<string>;
} {
  if (rules.length === 0) return { memberships: sql``, covered: sql<string>`''` };
  // Lists compared as stored: rules sharing a list were saved with the same ids in the same order, and a
  // list stored in another order just gets a column of its own. Sorting or joining the ids cost more.
  const lists: (readonly string[])[] = [];
  const listOf = rules.map((rule) => {
    const ids = rule.listingIds;
    if (ids === null) return null;
    const same = lists.findIndex(
      (list) => list.length === ids.length && list.every((id, index) => id === ids[index]),
    );
    return same >= 0 ? same : lists.push(ids) - 1;
  });
  const member = (list: number) => sql.ref(`m.in_list_${list}`);
  const memberships =
    lists.length === 0
      ? sql``
      : // `offset 0` keeps the planner from inlining each membership test into every rule that reads it:
        // planning those copies of the id lists took some 15 ms a query.
        sql`cross join lateral (select ${sql.join(
          lists.map(
            (listingIds, list) =>
              sql`l.id = any(${[...listingIds]}::text[]) as ${sql.ref(`in_list_${list}`)}`,
          ),
        )} offset 0) m`;
  const covered = sql<string>`(${sql.join(
    listOf.map((list) => (list === null ? sql`'1'` : sql`case when ${member(list)} then '1' else '0' end`)),
    sql` || `,
  )})`;
  return { memberships, covered };
}
