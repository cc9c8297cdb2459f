import type { PricingRule } from '@innkeep/domain';
import { addDays, dayOfWeek, daysBetween, type LocalDate } from '@innkeep/domain';
import type { AnalyticsPeriod } from '@innkeep/domain/analytics';
import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../database.ts';
import { type AnalyticsScope, listingInScope } from './analytics-scope.ts';
import { gapEpoch } from './calendar-gap-packs.ts';
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
 * stays of that channel) cut at `pieces` and counted per weekday group, as one list of numbers per class; and
 * the nights with a per-date price, each with the kind and gap of the run it sits in. The statement sends
 * each class's runs as one binary string, so that a year of a large portfolio arrives in a few hundred rows,
 * and they are cut and counted here (see RunCounter); a night with its own price comes with its listing's
 * runs, looked up here too. Open runs come whole, so a gap cut by the period's edge keeps its real length:
 * those between two holds packed by year from `calendar_gap_years` (the few long ones starting before its
 * first year read from `calendar_gaps`), those before a listing's first hold and after its last from
 * `calendar_hold_spans`.
 * Without a channel filter sold nights are not read: they are every night neither open nor held. `pieces`
 * are those of `period` (see `pieceBounds`).
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
  // Runs leave as day numbers from the whole period's first night, the origin of the pieces' bounds.
  const origin = pieces[0] as LocalDate;
  // Gaps are packed by the year they start in; one starting up to 31 nights before the period is read whole.
  const firstGapYear = Number(addDays(period.startDate, -31).slice(0, 4));
  const lastGapYear = Number(period.endDate.slice(0, 4));
  const firstGapYearStart = `${firstGapYear}-01-01`;
  const inScope = (column: string) => listingInScope(scope, column);
  const soldOfChannel =
    scope.channel === null
      ? sql``
      : sql`
        union all
        select r.listing_id, 2, r.start_date, r.end_date, 0
        from reservations r
        where r.account_id = ${scope.accountId}
          and ${inScope('r.listing_id')}
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
      where l.account_id = ${scope.accountId} and ${inScope('l.id')}
    ),
    scoped as materialized (
      select *, dense_rank() over (order by ${classKey}) as class_id
      from listing_rules
    ),
    -- Kinds as numbers (see nightKinds): 0 open, 1 held, 2 sold. Read by listing, not joined to the listings'
    -- classes: a class is looked up once per listing below rather than once per run.
    runs as (
      -- Open runs between two holds that start before the first year of packed gaps (below) and reach into
      -- the period: longer than 31 nights, since that year starts at least 31 nights before the period.
      select listing_id, 0 as kind, start_date as run_start, end_date as run_end,
        case when end_date - start_date <= ${largestGap}::integer then end_date - start_date else 0 end as gap
      from calendar_gaps
      where account_id = ${scope.accountId}
        and end_date - start_date > 31
        and start_date < ${firstGapYearStart}::date
        and end_date > ${period.startDate}::date
        and ${inScope('listing_id')}
      union all
      -- Open runs before a listing's first hold and after its last, never orphan gaps; without holds, all of it.
      select s.id, 0, e.run_start, e.run_end, 0
      from scoped s
      left join calendar_hold_spans h on h.listing_id = s.id and h.account_id = ${scope.accountId}
      cross join lateral (
        values ('-infinity'::date, coalesce(h.first_night, 'infinity'::date)), (h.end_night, 'infinity'::date)
      ) e (run_start, run_end)
      where e.run_start < ${dayAfter}::date and e.run_end > ${period.startDate}::date
      union all
      select h.listing_id, 1, lower(h.nights), upper(h.nights), 0
      from calendar_holds h
      where h.account_id = ${scope.accountId}
        and ${inScope('h.listing_id')}
        and h.kind = 'block'
        and h.nights && daterange(${period.startDate}::date, ${dayAfter}::date)
      union all
      select h.listing_id, 1, lower(h.nights), upper(h.nights), 0
      from reservations r
      join calendar_holds h on h.reservation_id = r.id
      where r.account_id = ${scope.accountId}
        and ${inScope('h.listing_id')}
        and r.status = 'pending'
        -- The hold takes the reservation's nights: only reservations overlapping the period need their hold.
        and r.end_date > ${period.startDate}::date
        and r.start_date < ${dayAfter}::date
        and h.nights && daterange(${period.startDate}::date, ${dayAfter}::date)
      ${soldOfChannel}
    ),
    clipped as (
      select listing_id, kind, gap,
        greatest(run_start, ${period.startDate}::date) as x, least(run_end, ${dayAfter}::date) as y
      from runs
    ),
    -- Each listing's runs as bytes, eight a run (see RunCounter.count: one 64-bit integer, read as its two
    -- halves, costs less to write than two 32-bit ones joined), counted by piece and weekday group in
    -- JavaScript: cutting and counting them here took most of the statement's time, and writing them as
    -- text much of the rest. Kept for the nights with their own price, whose kind and gap are looked up in
    -- their listing's runs: keeping a few thousand listings' runs costs less than keeping tens of thousands
    -- of runs to join those nights to.
    listing_runs as materialized (
      select listing_id,
        string_agg(
          int8send(((kind * ${largestGap + 1}::integer + gap) * 65536 + (x - ${origin}::date))::bigint * 4294967296
            + (y - ${origin}::date)),
          ''::bytea
        ) as runs
      from clipped
      group by listing_id
    ),
    class_runs as (
      select s.class_id, string_agg(l.runs, ''::bytea) as runs
      from listing_runs l
      join scoped s on s.id = l.listing_id
      group by s.class_id
    ),
    -- The other open runs between two holds, packed by year (migration 0031): a row a listing and year rather
    -- than one a gap. Whole years, so also gaps outside the period, which the counting leaves out.
    class_gaps as (
      select s.class_id, string_agg(y.gaps, ''::bytea) as gaps
      from calendar_gap_years y
      join scoped s on s.id = y.listing_id
      where y.account_id = ${scope.accountId} and y.year between ${firstGapYear} and ${lastGapYear}
      group by s.class_id
    ),
    overrides as materialized (
      select s.class_id, d.listing_id, d.date, d.price_minor
      from calendar_days d
      join scoped s on s.id = d.listing_id
      where d.date between ${period.startDate}::date and ${period.endDate}::date and d.price_minor is not null
    ),
    classes as (
      select class_id, currency, base_price_minor, min_price_minor, time_zone, ${coverage.covered} as covered,
        count(*)::integer as listings
      from scoped
      group by class_id, ${classKey}
    )
    select 'class' as row, c.class_id, null as listing_id, c.currency, c.base_price_minor, c.min_price_minor,
      c.time_zone, c.covered, c.listings, n.runs, g.gaps, null::date as night, null::integer as price_minor,
      null::integer as day
    from classes c
    left join class_runs n on n.class_id = c.class_id
    left join class_gaps g on g.class_id = c.class_id
    union all
    -- The night's day number too, as its run's are: parsing tens of thousands of dates here costs more.
    select 'override', o.class_id, o.listing_id, null, null, null, null, null, null, null, null, o.date,
      o.price_minor, o.date - ${origin}::date
    from overrides o
    union all
    select 'listing', null, o.listing_id, null, null, null, null, null, null, l.runs, g.gaps, null, null, null
    from (select distinct listing_id from overrides) o
    left join listing_runs l on l.listing_id = o.listing_id
    left join lateral (
      select string_agg(y.gaps, ''::bytea) as gaps
      from calendar_gap_years y
      where y.listing_id = o.listing_id and y.year between ${firstGapYear} and ${lastGapYear}
    ) g on true`.execute(db);
  const counter = new RunCounter(pieces, weekdayGroups, largestGap, period);
  // The runs of each listing with a night of its own price: that night's kind and gap are its run's.
  const runsOf = new Map<string, { runs: Uint8Array | null; gaps: Uint8Array | null }>();
  for (const row of rows) {
    if (row.row === 'listing') runsOf.set(row.listing_id, { runs: row.runs, gaps: row.gaps });
  }
  const result: PriceGroupRow[] = [];
  for (const row of rows) {
    if (row.row === 'class') {
      const { runs, gaps, listing_id: _, ...listingClass } = row;
      result.push({ ...listingClass, counts: counter.count(runs, gaps) });
    } else if (row.row === 'override') {
      const listing = runsOf.get(row.listing_id);
      const run = listing === undefined ? null : counter.runHolding(listing.runs, listing.gaps, row.day);
      result.push({
        row: 'override',
        class_id: row.class_id,
        kind: run === null ? null : (nightKinds[run.kind] as NightKind),
        gap: run === null ? null : run.gap,
        night: row.night,
        price_minor: row.price_minor,
      });
    }
  }
  return result;
}

/**
 * Counts runs of nights into {@link ClassRow.counts}: each run cut at the pieces it spans and its nights
 * counted per weekday group, added up by kind, gap length and piece. A year of a large portfolio is some
 * sixty thousand runs a call, so they arrive as packed integers (as text, digits cost the server time to
 * write and this side as much again to read), a piece's and a group's nights between two nights are
 * differences of running counts prepared once per statement, and the sums live in one reused array indexed
 * by kind, gap and piece.
 */
class RunCounter {
  /** Each night's piece, 0-based, by day number from the first piece's first night. */
  readonly #pieceOf: Uint16Array;
  /** Day numbers of the pieces' bounds: piece p (0-based) is [bounds[p], bounds[p + 1]). */
  readonly #bounds: Int32Array;
  /** Per weekday group but the first: how many nights before each day number fall in the group. */
  readonly #before: Int32Array[];
  readonly #gaps: number;
  /** Per kind, gap and piece: nights in all, then per weekday group but the first; {@link countSize} − 3 each. */
  readonly #sums: Float64Array;
  /** Which sums the current class touched, in the order it first did, so only those are read and cleared. */
  readonly #touched: Int32Array;
  /** A packed gap's day number (from {@link gapEpoch}) less this is its day number from the origin. */
  readonly #epochToOrigin: number;
  /** The nights counted, as day numbers from the origin: from `#first` up to (not including) `#after`. */
  readonly #first: number;
  readonly #after: number;

  /** `period` is the part of the period counted, inside the pieces' bounds. */
  constructor(
    pieces: readonly LocalDate[],
    weekdayGroups: readonly (readonly number[])[],
    largestGap: number,
    period: AnalyticsPeriod,
  ) {
    const origin = pieces[0] as LocalDate;
    this.#epochToOrigin = daysBetween(gapEpoch, origin);
    this.#first = daysBetween(origin, period.startDate);
    this.#after = daysBetween(origin, period.endDate) + 1;
    this.#bounds = Int32Array.from(pieces, (bound) => daysBetween(origin, bound));
    const pieceCount = pieces.length - 1;
    const nights = this.#bounds[pieceCount] as number;
    this.#pieceOf = new Uint16Array(nights);
    for (let piece = 0; piece < pieceCount; piece += 1) {
      this.#pieceOf.fill(piece, this.#bounds[piece], this.#bounds[piece + 1]);
    }
    const firstWeekday = dayOfWeek(origin);
    this.#before = weekdayGroups.slice(1).map((weekdays) => {
      const before = new Int32Array(nights + 1);
      for (let night = 0; night < nights; night += 1) {
        const inGroup = weekdays.includes((firstWeekday + night) % 7) ? 1 : 0;
        before[night + 1] = (before[night] as number) + inGroup;
      }
      return before;
    });
    this.#gaps = largestGap + 1;
    const keys = nightKinds.length * this.#gaps * pieceCount;
    this.#sums = new Float64Array(keys * weekdayGroups.length);
    this.#touched = new Int32Array(keys);
  }

  /**
   * The counts of `runs` and `gaps`. `runs`: eight bytes a run, two big-endian 32-bit integers: kind ×
   * (largest gap + 1) + gap length, times 65536, plus the first night; then the night after the last (nights
   * as day numbers, which a period of at most a few years keeps far below 65536; gaps are at most 60 nights).
   * `gaps`: open runs between two holds as `calendar_gap_years` packs them, whole, of which only the nights
   * of the period counted are.
   */
  count(runs: Uint8Array | null, gaps: Uint8Array | null): number[] {
    let touched = 0;
    if (runs !== null) {
      const view = new DataView(runs.buffer, runs.byteOffset, runs.byteLength);
      for (let at = 0; at < runs.byteLength; at += 8) {
        const head = view.getInt32(at);
        const kindAndGap = head >>> 16;
        const gap = kindAndGap % this.#gaps;
        touched = this.#add(
          (kindAndGap - gap) / this.#gaps,
          gap,
          head & 0xffff,
          view.getInt32(at + 4),
          touched,
        );
      }
    }
    if (gaps !== null) {
      const view = new DataView(gaps.buffer, gaps.byteOffset, gaps.byteLength);
      for (let at = 0; at < gaps.byteLength; at += 8) {
        const start = view.getInt32(at) - this.#epochToOrigin;
        const end = view.getInt32(at + 4) - this.#epochToOrigin;
        const first = Math.max(start, this.#first);
        const after = Math.min(end, this.#after);
        if (first >= after) continue;
        // An orphan gap is priced by its whole length, though the period may cut it.
        touched = this.#add(0, end - start < this.#gaps ? end - start : 0, first, after, touched);
      }
    }
    const size = this.#before.length + 1;
    const pieceCount = this.#bounds.length - 1;
    const counts: number[] = [];
    for (let index = 0; index < touched; index += 1) {
      const key = this.#touched[index] as number;
      const piece = key % pieceCount;
      const kindAndGap = (key - piece) / pieceCount;
      const gap = kindAndGap % this.#gaps;
      counts.push((kindAndGap - gap) / this.#gaps, gap, piece + 1);
      for (let at = key * size; at < (key + 1) * size; at += 1) {
        counts.push(this.#sums[at] as number);
        this.#sums[at] = 0;
      }
    }
    return counts;
  }

  /**
   * The kind and gap length of the run of `runs` or `gaps` (as {@link count} reads them) holding day number
   * `night`; null when none does. A listing's runs never overlap: holds do not, and open runs are what they leave.
   */
  runHolding(
    runs: Uint8Array | null,
    gaps: Uint8Array | null,
    night: number,
  ): { kind: number; gap: number } | null {
    if (runs !== null) {
      const view = new DataView(runs.buffer, runs.byteOffset, runs.byteLength);
      for (let at = 0; at < runs.byteLength; at += 8) {
        const head = view.getInt32(at);
        if ((head & 0xffff) > night || view.getInt32(at + 4) <= night) continue;
        const kindAndGap = head >>> 16;
        const gap = kindAndGap % this.#gaps;
        return { kind: (kindAndGap - gap) / this.#gaps, gap };
      }
    }
    if (gaps !== null) {
      const view = new DataView(gaps.buffer, gaps.byteOffset, gaps.byteLength);
      for (let at = 0; at < gaps.byteLength; at += 8) {
        const start = view.getInt32(at) - this.#epochToOrigin;
        const end = view.getInt32(at + 4) - this.#epochToOrigin;
        if (start > night || end <= night) continue;
        return { kind: 0, gap: end - start < this.#gaps ? end - start : 0 };
      }
    }
    return null;
  }

  /** Adds one run's nights to the sums; returns how many sums are touched now. */
  #add(kind: number, gap: number, first: number, after: number, touched: number): number {
    const size = this.#before.length + 1;
    const pieceCount = this.#bounds.length - 1;
    const lastPiece = this.#pieceOf[after - 1] as number;
    let count = touched;
    for (let piece = this.#pieceOf[first] as number; piece <= lastPiece; piece += 1) {
      const from = Math.max(first, this.#bounds[piece] as number);
      const until = Math.min(after, this.#bounds[piece + 1] as number);
      const key = (kind * this.#gaps + gap) * pieceCount + piece;
      const at = key * size;
      // A sum of all nights is never zero once touched: every run has a night.
      if (this.#sums[at] === 0) {
        this.#touched[count] = key;
        count += 1;
      }
      this.#sums[at] = (this.#sums[at] as number) + until - from;
      for (let group = 1; group < size; group += 1) {
        const before = this.#before[group - 1] as Int32Array;
        this.#sums[at + group] =
          (this.#sums[at + group] as number) + (before[until] as number) - (before[from] as number);
      }
    }
    return count;
  }
}

/** A row as the statement of {@link nightsByPriceGroup} gives it. */
type StatementRow =
  | (Omit<ClassRow, 'counts'> & {
      readonly listing_id: null;
      readonly runs: Uint8Array | null;
      readonly gaps: Uint8Array | null;
    })
  | (Omit<OverrideRow, 'kind' | 'gap'> & { readonly listing_id: string; readonly day: number })
  | {
      readonly row: 'listing';
      readonly listing_id: string;
      readonly runs: Uint8Array | null;
      readonly gaps: Uint8Array | null;
    };

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
