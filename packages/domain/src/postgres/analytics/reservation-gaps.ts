import { sql } from 'kysely';
import type { z } from 'zod';
import type { AnalyticsPeriod } from '../../analytics/analytics-period.ts';
import type { GapAnalysis, gapAnalysisInputSchema } from '../../analytics/reservation-gaps.ts';
import { addDays } from '../../core/dates.ts';
import { toMajorUnits } from '../../core/money.ts';
import type { Executor } from '../database.ts';
import { type AnalyticsScope, analyticsMeta } from './analytics-scope.ts';
import { listingsWithToday } from './reservation-today.ts';

type GapInput = z.output<typeof gapAnalysisInputSchema>;

/** Default number of gaps listed. */
const defaultListedGaps = 20;

interface GapRow {
  kind: 'totals' | 'gap';
  currency: string;
  past_gaps: string | null;
  past_nights: string | null;
  past_orphan_gaps: string | null;
  past_orphan_nights: string | null;
  past_orphan_value: string | null;
  future_gaps: string | null;
  future_nights: string | null;
  future_orphan_gaps: string | null;
  future_orphan_nights: string | null;
  future_orphan_value: string | null;
  matching: string | null;
  listing_id: string | null;
  listing_name: string | null;
  start_date: string | null;
  end_date: string | null;
  gap_nights: number | null;
  min_stay: number | null;
  orphan: boolean | null;
  timing: 'past' | 'current' | 'future' | null;
  listed_value: string | null;
  position: string | null;
}

/**
 * get_gap_analysis: runs of open nights (held by no accepted or pending reservation and no block) between two
 * held nights of the same listing that touch the period. Each gap is found whole: the listing's holds are
 * read from the last one starting before the period to the first one starting after it. A gap is orphan
 * when shorter than the minimum stay of its first night (the date's own, else the listing's) or, when asked,
 * at most `maxGapNights` long. Orphan nights are valued at the listed price — the date's price, else the
 * base price, never below the listing's minimum price; pricing rules are not applied. Nights before the
 * listing's today are lost, the others still sellable.
 */
export async function gapAnalysis(
  db: Executor,
  scope: AnalyticsScope,
  input: GapInput,
  now: Date,
): Promise<GapAnalysis> {
  const period: AnalyticsPeriod = { startDate: input.startDate, endDate: input.endDate };
  const afterPeriod = addDays(period.endDate, 1);
  const limit = input.limit ?? defaultListedGaps;
  const maxGapNights = input.maxGapNights ?? 0;
  const order =
    input.order === 'longest'
      ? sql`g.nights desc, g.start_date, g.listing_id`
      : sql`g.start_date, g.nights desc, g.listing_id`;
  const listedPrice = sql`greatest(coalesce(cd.price_minor, g.base_price_minor), coalesce(g.min_price_minor, 0))`;
  const listedFilter = input.orphansOnly === true ? sql`g.orphan` : sql`true`;

  const { rows } = await sql<GapRow>`
    with scoped as materialized (${listingsWithToday(scope, now)}),
    edges as (
      select s.id as listing_id,
        coalesce((
          select lower(h.nights) from calendar_holds h
          where h.listing_id = s.id and lower(h.nights) < ${period.startDate}::date
          order by lower(h.nights) desc limit 1
        ), ${period.startDate}::date) as first_start,
        coalesce((
          select lower(h.nights) from calendar_holds h
          where h.listing_id = s.id and lower(h.nights) > ${period.endDate}::date
          order by lower(h.nights) limit 1
        ), ${period.endDate}::date) as last_start
      from scoped s
    ),
    holds as (
      select h.listing_id, lower(h.nights) as hold_start, upper(h.nights) as hold_end
      from edges e
      join calendar_holds h
        on h.listing_id = e.listing_id and lower(h.nights) between e.first_start and e.last_start
    ),
    gaps as materialized (
      select g.listing_id, s.name as listing_name, g.start_date, g.end_date, g.end_date - g.start_date as nights,
        coalesce(cd.min_nights, s.min_nights) as min_stay, s.today, s.currency, s.base_price_minor,
        s.min_price_minor,
        g.end_date - g.start_date < coalesce(cd.min_nights, s.min_nights)
          or g.end_date - g.start_date <= ${maxGapNights} as orphan,
        -- the gap's nights inside the period, and how many of them fall before the listing's today
        greatest(g.start_date, ${period.startDate}::date) as first_in,
        least(g.end_date, ${afterPeriod}::date) as after_in,
        greatest(least(g.end_date, ${afterPeriod}::date, s.today)
          - greatest(g.start_date, ${period.startDate}::date), 0) as past_nights
      from (
        select listing_id, hold_end as start_date,
          lead(hold_start) over (partition by listing_id collate "C" order by hold_start) as end_date
        from holds
      ) g
      join scoped s on s.id = g.listing_id
      left join calendar_days cd on cd.listing_id = g.listing_id and cd.date = g.start_date
      where g.end_date > g.start_date
        and g.start_date <= ${period.endDate}::date and g.end_date > ${period.startDate}::date
    ),
    totals as (
      select currency,
        count(*) filter (where past_nights > 0) as past_gaps,
        sum(past_nights) as past_nights,
        count(*) filter (where orphan and past_nights > 0) as past_orphan_gaps,
        coalesce(sum(past_nights) filter (where orphan), 0) as past_orphan_nights,
        count(*) filter (where after_in - first_in > past_nights) as future_gaps,
        sum(after_in - first_in - past_nights) as future_nights,
        count(*) filter (where orphan and after_in - first_in > past_nights) as future_orphan_gaps,
        coalesce(sum(after_in - first_in - past_nights) filter (where orphan), 0) as future_orphan_nights,
        count(*) filter (where ${listedFilter}) as matching
      from gaps g
      group by currency
    ),
    orphan_values as (
      select g.currency,
        coalesce(sum(${listedPrice}) filter (where night::date < g.today), 0) as past_orphan_value,
        coalesce(sum(${listedPrice}) filter (where night::date >= g.today), 0) as future_orphan_value
      from gaps g
      cross join lateral generate_series(g.first_in, g.after_in - 1, interval '1 day') as night
      left join calendar_days cd on cd.listing_id = g.listing_id and cd.date = night::date
      where g.orphan
      group by g.currency
    ),
    listed as (
      select g.*, row_number() over (order by ${order}) as position
      from (select * from gaps g where ${listedFilter} order by ${order} limit ${limit}) g
    )
    select 'totals' as kind, t.currency, t.past_gaps, t.past_nights, t.past_orphan_gaps, t.past_orphan_nights,
      coalesce(v.past_orphan_value, 0) as past_orphan_value, t.future_gaps, t.future_nights,
      t.future_orphan_gaps, t.future_orphan_nights, coalesce(v.future_orphan_value, 0) as future_orphan_value,
      t.matching, null::text as listing_id, null::text as listing_name, null::date as start_date,
      null::date as end_date, null::integer as gap_nights, null::integer as min_stay, null::boolean as orphan,
      null::text as timing, null::bigint as listed_value, null::bigint as position
    from totals t
    left join orphan_values v on v.currency = t.currency
    union all
    select 'gap', g.currency, null, null, null, null, null, null, null, null, null, null, null, g.listing_id,
      g.listing_name, g.start_date, g.end_date, g.nights, g.min_stay, g.orphan,
      case when g.end_date <= g.today then 'past' when g.start_date >= g.today then 'future' else 'current' end,
      (
        select sum(${listedPrice})
        from generate_series(g.start_date, g.end_date - 1, interval '1 day') as night
        left join calendar_days cd on cd.listing_id = g.listing_id and cd.date = night::date
      ),
      g.position
    from listed g`.execute(db);

  const totalRows = rows.filter((row) => row.kind === 'totals');
  const gapRows = rows
    .filter((row) => row.kind === 'gap')
    .sort((a, b) => Number(a.position) - Number(b.position));
  const currencies = totalRows.map((row) => row.currency).sort();
  const totals = (side: 'past' | 'future'): GapAnalysis['past'] => {
    const column = (row: GapRow, name: string) => Number(row[`${side}_${name}` as keyof GapRow] ?? 0);
    const sum = (name: string) => totalRows.reduce((total, row) => total + column(row, name), 0);
    return {
      gaps: sum('gaps'),
      nights: sum('nights'),
      orphanGaps: sum('orphan_gaps'),
      orphanNights: sum('orphan_nights'),
      orphanValue: totalRows
        .filter((row) => column(row, 'orphan_nights') > 0)
        .map((row) => ({
          currency: row.currency,
          amount: toMajorUnits(column(row, 'orphan_value'), row.currency),
        }))
        .sort((a, b) => (a.currency < b.currency ? -1 : 1)),
    };
  };
  const matching = totalRows.reduce((total, row) => total + Number(row.matching ?? 0), 0);
  const notes = [
    'A gap is found whole even when it starts before or ends after the period; the totals count only its ' +
      'nights inside the period, split at each listing’s today.',
  ];
  if (scope.channel !== null)
    notes.push('Gaps are calendar-wide: the channel filter does not apply to them.');
  if (matching > gapRows.length) {
    notes.push(
      `Listed ${gapRows.length} of ${matching} gaps; raise limit, set orphansOnly or narrow the period.`,
    );
  }

  return {
    meta: analyticsMeta(scope, period, {
      basis: 'calendar_date',
      definitions: ['gap_analysis', 'local_dates', 'currency_policy'],
      currencies,
      notes,
    }),
    past: totals('past'),
    future: totals('future'),
    gaps: gapRows.map((row) => ({
      listingId: row.listing_id ?? '',
      listingName: row.listing_name ?? '',
      startDate: row.start_date ?? '',
      endDate: row.end_date ?? '',
      nights: Number(row.gap_nights),
      minStay: Number(row.min_stay),
      orphan: row.orphan === true,
      timing: row.timing ?? 'future',
      listedValue: { currency: row.currency, amount: toMajorUnits(Number(row.listed_value), row.currency) },
    })),
    truncated: matching > gapRows.length,
  };
}
