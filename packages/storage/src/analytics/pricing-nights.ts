import type { PricingRule } from '@innkeep/domain';
import { addDays, type LocalDate } from '@innkeep/domain';
import type { AnalyticsPeriod } from '@innkeep/domain/analytics';
import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../database.ts';
import { type AnalyticsScope, listingInScope } from './analytics-scope.ts';
import type { ListingClass } from './pricing-listed-price.ts';

/**
 * What a night of the period is: open (no hold), held (blocked, or requested by a pending reservation) or
 * sold (an accepted reservation).
 */
export type NightKind = 'open' | 'held' | 'sold';

/** The night kinds by the number {@link nightsByPriceGroup} gives each in its counts. */
export const nightKinds: readonly NightKind[] = ['open', 'held', 'sold'];

/** Listings alike in everything their nights' listed prices depend on, how many there are, their nights. */
export interface ClassRow extends ListingClass {
  readonly row: 'class';
  readonly class_id: number;
  readonly listings: number;
  /**
   * The class's open and held nights (and sold ones of the channel in scope), as counts of {@link countSize}
   * numbers one after the other: kind (0 open, 1 held, 2 sold), orphan-gap length (of the open run the
   * nights sit in when an orphan-gap rule may care; else 0), piece (1-based, see `pieceBounds`), nights in
   * all, then nights per weekday group (see `weekdayGroups`) but the first, which has what the others leave.
   */
  readonly counts: readonly number[];
}

/** How many numbers each count of {@link ClassRow.counts} has, with `groups` weekday groups. */
export const countSize = (groups: number) => groups + 3;

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
 * stays of that channel) cut at `pieces` and counted per weekday group, as one list of numbers per class so
 * that a year of a large portfolio arrives in a few hundred rows; and the nights with a per-date price. Open runs
 * come whole, so a gap cut by the period's edge keeps its real length: those between two holds from
 * `calendar_gaps`, those before a listing's first hold and after its last from `calendar_hold_spans`.
 * Without a channel filter sold nights are not read: they are every night neither open nor held. `period`
 * may be a part of the asked period, counted side by side with the others: `pieces` are the whole period's, so
 * piece numbers agree across parts (a piece cut by a part's edge is counted partly in each), and every part
 * lists every class.
 */
export async function nightsByPriceGroup(
  db: Executor,
  scope: AnalyticsScope,
  period: AnalyticsPeriod,
  rules: readonly PricingRule[],
  pieces: readonly LocalDate[],
  weekdayGroups: readonly (readonly number[])[],
): Promise<PriceGroupRow[]> {
  const largestGap = rules.reduce((largest, rule) => Math.max(largest, rule.orphanGapMaxNights ?? 0), 0);
  const dayAfter = addDays(period.endDate, 1);
  const bounds = sql`${[...pieces]}::date[]`;
  const pieceNumbers = sql`${pieces.slice(1).map((_, index) => index + 1)}::integer[]`;
  const pieceOf = (date: RawBuilder<unknown>) => sql`width_bucket(${date}, ${bounds})`;
  // Dates of weekday d among n nights from a night of weekday w: (n + (w + 6 − d) mod 7) div 7, w + 6 − d never
  // negative. The first group is left out: it has the nights the others leave.
  const groupCounts = sql.join([
    sql`sum(n)::integer`,
    ...weekdayGroups.slice(1).map(
      (weekdays) =>
        sql`sum(${sql.join(
          weekdays.map((weekday) => sql`(n + (first_weekday + ${6 - weekday}::integer) % 7) / 7`),
          sql` + `,
        )})::integer`,
    ),
  ]);
  const soldOfChannel =
    scope.channel === null
      ? sql``
      : sql`
        union all
        select s.class_id, r.listing_id, 2, r.start_date, r.end_date, 0
        from reservations r
        join scoped s on s.id = r.listing_id
        where r.account_id = ${scope.accountId}
          and r.status = 'accepted'
          and r.channel = ${scope.channel}
          and r.end_date > ${period.startDate}::date
          and r.start_date < ${dayAfter}::date`;
  const coverage = coverageOf(rules);
  // What sets a listing's class apart: everything its listed prices depend on.
  const classKey = sql.join([
    sql`currency, base_price_minor, min_price_minor, time_zone`,
    ...coverage.members,
  ]);
  const { rows } = await sql<StatementRow>`
    with listing_rules as (
      select ${sql.join([sql`l.id, l.currency, l.base_price_minor, l.min_price_minor, l.time_zone`, ...coverage.memberships])}
      from listings l
      where l.account_id = ${scope.accountId} and ${listingInScope(scope, 'l.id')}
    ),
    scoped as materialized (
      select *, dense_rank() over (order by ${classKey}) as class_id
      from listing_rules
    ),
    -- Kinds as numbers (see nightKinds): 0 open, 1 held, 2 sold.
    runs as (
      -- Open runs between two holds.
      select s.class_id, s.id as listing_id, 0 as kind, g.start_date as run_start, g.end_date as run_end,
        case when g.end_date - g.start_date <= ${largestGap}::integer then g.end_date - g.start_date else 0 end as gap
      from scoped s
      join calendar_gaps g on g.listing_id = s.id
      where g.start_date < ${dayAfter}::date and g.end_date > ${period.startDate}::date
      union all
      -- Open runs before a listing's first hold and after its last, never orphan gaps; without holds, all of it.
      select s.class_id, s.id, 0, e.run_start, e.run_end, 0
      from scoped s
      left join calendar_hold_spans h on h.listing_id = s.id and h.account_id = ${scope.accountId}
      cross join lateral (
        values ('-infinity'::date, coalesce(h.first_night, 'infinity'::date)), (h.end_night, 'infinity'::date)
      ) e (run_start, run_end)
      where e.run_start < ${dayAfter}::date and e.run_end > ${period.startDate}::date
      union all
      select s.class_id, h.listing_id, 1, lower(h.nights), upper(h.nights), 0
      from calendar_holds h
      join scoped s on s.id = h.listing_id
      where h.account_id = ${scope.accountId}
        and h.kind = 'block'
        and h.nights && daterange(${period.startDate}::date, ${dayAfter}::date)
      union all
      select s.class_id, h.listing_id, 1, lower(h.nights), upper(h.nights), 0
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
    -- As text, numbers joined by commas: as JSON arrays of arrays, building them here and parsing them in
    -- JavaScript cost some 25 ms more a call.
    counted as (
      select class_id, concat_ws(',', kind, gap, piece, ${groupCounts}) as night_count
      from piece_runs
      group by class_id, kind, gap, piece
    ),
    counts as (
      select class_id, string_agg(night_count, ',') as counts
      from counted
      group by class_id
    ),
    classes as (
      select class_id, currency, base_price_minor, min_price_minor, time_zone, ${coverage.covered} as covered,
        count(*)::integer as listings
      from scoped
      group by class_id, ${classKey}
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
  return rows.map((row) =>
    row.row === 'class'
      ? { ...row, counts: row.counts === null ? [] : (JSON.parse(`[${row.counts}]`) as number[]) }
      : { ...row, kind: row.kind === null ? null : (nightKinds[row.kind] as NightKind) },
  );
}

/** A row as the statement of {@link nightsByPriceGroup} gives it. */
type StatementRow =
  | (Omit<ClassRow, 'counts'> & { readonly counts: string | null })
  | (Omit<OverrideRow, 'kind'> & { readonly kind: number | null });

/**
 * Which rules cover a listing. `memberships` (columns of a select from `listings l`) are the listing's
 * membership in each distinct listing list of the rules, booleans named by `members`; `covered` turns those
 * into one character per rule, '1' where the rule covers the listing. Rules often share a list (the same
 * listings every season), so each list is sent and searched once rather than per rule, and listings are told
 * apart by a few booleans, the characters built once per class rather than per listing.
 */
function coverageOf(rules: readonly PricingRule[]): {
  memberships: RawBuilder<unknown>[];
  members: RawBuilder<unknown>[];
  covered: RawBuilder<string>;
} {
  if (rules.length === 0) return { memberships: [], members: [], covered: sql<string>`''` };
  // Lists compared as stored: rules sharing a list were saved with the same ids in the same order, and a
  // list stored in another order just gets a column of its own. Sorting or joining the ids cost more.
  const lists: (readonly string[])[] = [];
  const listOf = rules.map((rule) => {
    const ids = rule.listingIds;
    if (ids === null) return null;
    const same = lists.findIndex((list) => sameIds(list, ids));
    return same >= 0 ? same : lists.push(ids) - 1;
  });
  const members = lists.map((_, list) => sql.ref(`in_list_${list}`));
  const memberships = lists.map(
    (listingIds, list) => sql`l.id = any(${[...listingIds]}::text[]) as ${members[list]}`,
  );
  const covered = sql<string>`(${sql.join(
    listOf.map((list) => (list === null ? sql`'1'` : sql`case when ${members[list]} then '1' else '0' end`)),
    sql` || `,
  )})`;
  return { memberships, members, covered };
}

/** Whether two listing lists hold the same ids in the same order. */
function sameIds(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}
