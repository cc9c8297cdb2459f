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

/** Listings alike in everything their nights' listed prices depend on, and how many there are. */
export interface ClassRow extends ListingClass {
  readonly row: 'class';
  readonly class_id: number;
  readonly listings: number;
}

/** Nights of one listing class, kind, orphan-gap length and piece, counted per weekday (`dow_0` = Sunday). */
export interface NightCountRow {
  readonly row: 'nights';
  readonly class_id: number;
  readonly kind: NightKind;
  /** Length of the open run bounded by holds the nights sit in, when an orphan-gap rule may care; else 0. */
  readonly gap: number;
  /** 1-based index of the piece of the period (see `pieceBounds`). */
  readonly piece: number;
  readonly [dowCount: `dow_${number}`]: number;
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
export type PriceGroupRow = ClassRow | NightCountRow | OverrideRow;

/**
 * Counts the period's nights by what decides their listed price, without reading them one by one: the
 * listing classes in scope; the open and the held runs of nights (and, with a channel filter, the sold stays
 * of that channel) cut at `pieces` and counted per weekday; and the nights with a per-date price. Open runs
 * are found over the period widened by the orphan-gap look-around, so a gap cut by the period's edge keeps
 * its real length. Without a channel filter sold nights are not read: they are every night neither open
 * nor held.
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
  const pieceOf = (date: RawBuilder<unknown>) => sql`width_bucket(${date}, ${bounds})`;
  const dows = [0, 1, 2, 3, 4, 5, 6];
  // Dates of weekday d among n nights from a night of weekday w: (n − ((d − w) mod 7) + 6) div 7.
  const dowCounts = sql.join(
    dows.map(
      (weekday) => sql`sum((n - (${weekday}::integer - first_weekday + 7) % 7 + 6) / 7)::bigint
        as ${sql.ref(`dow_${weekday}`)}`,
    ),
  );
  const noDows = sql.join(dows.map((weekday) => sql`null::bigint as ${sql.ref(`dow_${weekday}`)}`));
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
  const { rows } = await sql<PriceGroupRow>`
    with listing_rules as (
      select l.id, l.currency, l.base_price_minor, l.min_price_minor, l.time_zone, ${coverageOf(rules)} as covered
      from listings l
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
        and h.nights && daterange(${windowStart}::date, ${windowEnd}::date)
        and ${listingInScope(scope, 'h.listing_id')}
      group by h.listing_id
    ),
    runs as (
      select s.class_id, s.id as listing_id, 'open' as kind, lower(r) as run_start, upper(r) as run_end,
        case
          when lower(r) > ${windowStart}::date and upper(r) < ${windowEnd}::date
            and upper(r) - lower(r) <= ${largestGap}::integer
          then upper(r) - lower(r)
          else 0
        end as gap
      from scoped s
      left join held h on h.listing_id = s.id
      cross join unnest(
        datemultirange(daterange(${windowStart}::date, ${windowEnd}::date)) - coalesce(h.nights, '{}'::datemultirange)
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
    pieces as (
      select p.piece::integer, p.starts, p.ends
      from unnest(${pieces.slice(0, -1)}::date[], ${pieces.slice(1)}::date[]) with ordinality as p (starts, ends, piece)
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
        select c.class_id, c.kind, c.gap, p.piece, greatest(c.x, p.starts), least(c.y, p.ends)
        from clipped c
        join pieces p on p.piece between c.first_piece and c.last_piece
        where c.first_piece < c.last_piece
      ) cut
    )
    select 'class' as row, class_id, currency, base_price_minor, min_price_minor, time_zone, covered,
      count(*)::bigint as listings, null as kind, null::integer as gap, null::integer as piece,
      null::date as night, null::integer as price_minor, ${noDows}
    from scoped
    group by class_id, currency, base_price_minor, min_price_minor, time_zone, covered
    union all
    select 'nights', class_id, null, null, null, null, null, null, kind, gap, piece, null, null, ${dowCounts}
    from piece_runs
    group by class_id, kind, gap, piece
    union all
    select 'override', s.class_id, null, null, null, null, null, null, c.kind, c.gap, null, d.date, d.price_minor,
      ${noDows}
    from calendar_days d
    join scoped s on s.id = d.listing_id
    left join clipped c on c.listing_id = d.listing_id and d.date >= c.x and d.date < c.y
    where d.date between ${period.startDate}::date and ${period.endDate}::date and d.price_minor is not null`.execute(
    db,
  );
  return rows;
}

/** One character per rule, '1' where the rule covers listing `l`. */
function coverageOf(rules: readonly PricingRule[]): RawBuilder<string> {
  if (rules.length === 0) return sql<string>`''`;
  return sql<string>`(${sql.join(
    rules.map((rule) =>
      rule.listingIds === null
        ? sql`'1'`
        : sql`case when l.id = any(${[...rule.listingIds]}::text[]) then '1' else '0' end`,
    ),
    sql` || `,
  )})`;
}
