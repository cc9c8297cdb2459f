import { addDays, toMajorUnits } from '@innkeep/domain';
import type { AnalyticsPeriod, GapAnalysis, gapAnalysisInputSchema } from '@innkeep/domain/analytics';
import { type RawBuilder, sql } from 'kysely';
import type { z } from 'zod';
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
 * held nights of the same listing that touch the period. Each gap is found whole, as `calendar_gaps` keeps it
 * (the runs between consecutive holds, rebuilt by triggers with every hold write). A gap is orphan
 * when shorter than the minimum stay of its first night (the date's own, else the listing's) or, when asked,
 * at most `maxGapNights` long. Orphan nights are valued at the listed price — the date's price, else the
 * base price, never below the listing's minimum price; pricing rules are not applied. Nights before the
 * listing's today are lost, the others still sellable.
 *
 * Two passes, neither keeping every gap: the first adds each listing's gaps up as they stream by
 * ({@link listingGaps}), with the listing's earliest (or longest) listed gap; only listings whose earliest
 * (longest) gap is among the `limit` earliest (longest) of all can hold a listed gap, so the second pass reads
 * the gaps of those few listings again and lists them. Orphan nights count at the listing's default price (base,
 * at least the minimum price), plus for each priced calendar day inside an orphan gap its difference from it.
 */
export async function gapAnalysis(
  db: Executor,
  scope: AnalyticsScope,
  input: GapInput,
  now: Date,
): Promise<GapAnalysis> {
  const period: AnalyticsPeriod = { startDate: input.startDate, endDate: input.endDate };
  const limit = input.limit ?? defaultListedGaps;
  const gaps = listingGaps(period, input.maxGapNights ?? 0);
  const longest = input.order === 'longest';
  const order = longest
    ? sql`g.nights desc, g.start_date, g.listing_id`
    : sql`g.start_date, g.nights desc, g.listing_id`;
  const listedFilter = input.orphansOnly === true ? sql`g.orphan` : sql`true`;
  // Each listing's gap that would be listed first (its earliest start, or most nights). Every listed gap comes
  // from a listing whose first is at or before the limit-th first of all listings; fewer listings with listed
  // gaps than the limit: all of them.
  const leadingListed = longest
    ? sql`max(g.nights) filter (where ${listedFilter})`
    : sql`min(g.start_date) filter (where ${listedFilter})`;
  const candidate = longest
    ? sql`t.leading_listed >= coalesce((
        select leading_listed from listing_totals where matching > 0
        order by leading_listed desc
        offset ${limit - 1} limit 1
      ), 0)`
    : sql`t.leading_listed <= coalesce((
        select leading_listed from listing_totals where matching > 0
        order by leading_listed
        offset ${limit - 1} limit 1
      ), 'infinity'::date)`;
  // What the priced calendar days inside an orphan gap add to (or take from) its nights at the default price,
  // on one side of the listing's today; looked up only for listings with calendar days.
  const priceDays = (side: RawBuilder<boolean>) => sql`coalesce(sum((
      select sum(greatest(cd.price_minor, coalesce(s.min_price_minor, 0)) - s.default_price)
      from calendar_days cd
      where cd.listing_id = s.id and cd.date >= g.first_in and cd.date < g.after_in
        and cd.price_minor is not null and ${side}
    )) filter (where s.has_calendar_days and g.orphan), 0)`;

  const { rows } = await sql<GapRow>`
    with scoped as materialized (
      select s.id, s.name, s.min_nights, s.currency, s.today, s.base_price_minor, s.min_price_minor,
        -- bigint: multiplied by nights, a night's price in minor units can outgrow an integer
        greatest(s.base_price_minor, coalesce(s.min_price_minor, 0))::bigint as default_price,
        -- one probe per listing (limit 1) rather than a scan of every listing's calendar days: only a listing
        -- with a calendar day up to the period's end can have a gap starting on a day with its own minimum stay
        -- or an orphan night with its own price
        (
          select true from calendar_days d where d.listing_id = s.id and d.date <= ${period.endDate}::date limit 1
        ) is not null as has_calendar_days
      from (${listingsWithToday(scope, now)}) s
    ),
    listing_totals as materialized (
      select s.id, s.currency, s.default_price, t.*
      from scoped s
      cross join lateral (
        select count(*) filter (where g.past_nights > 0) as past_gaps,
          coalesce(sum(g.past_nights), 0) as past_nights,
          count(*) filter (where g.orphan and g.past_nights > 0) as past_orphan_gaps,
          coalesce(sum(g.past_nights) filter (where g.orphan), 0) as past_orphan_nights,
          ${priceDays(sql`cd.date < s.today`)} as past_price_days,
          count(*) filter (where g.future_nights > 0) as future_gaps,
          coalesce(sum(g.future_nights), 0) as future_nights,
          count(*) filter (where g.orphan and g.future_nights > 0) as future_orphan_gaps,
          coalesce(sum(g.future_nights) filter (where g.orphan), 0) as future_orphan_nights,
          ${priceDays(sql`cd.date >= s.today`)} as future_price_days,
          count(*) filter (where ${listedFilter}) as matching,
          ${leadingListed} as leading_listed
        from (${gaps}) g
      ) t
    ),
    totals as (
      select currency, sum(past_gaps) as past_gaps, sum(past_nights) as past_nights,
        sum(past_orphan_gaps) as past_orphan_gaps, sum(past_orphan_nights) as past_orphan_nights,
        sum(past_orphan_nights * default_price + past_price_days) as past_orphan_value,
        sum(future_gaps) as future_gaps, sum(future_nights) as future_nights,
        sum(future_orphan_gaps) as future_orphan_gaps, sum(future_orphan_nights) as future_orphan_nights,
        sum(future_orphan_nights * default_price + future_price_days) as future_orphan_value,
        sum(matching) as matching
      from listing_totals
      -- every gap counted has a night in the period, so on one side of today at least
      where past_gaps + future_gaps > 0
      group by currency
    ),
    -- materialized, so the second pass reads the gaps of these few listings only
    listed_listings as materialized (
      select s.* from listing_totals t join scoped s on s.id = t.id where t.matching > 0 and ${candidate}
    ),
    listed as (
      select g.*, row_number() over (order by ${order}) as position
      from (
        select g.* from (
          select s.id as listing_id, s.name as listing_name, s.currency, s.today, s.base_price_minor,
            s.min_price_minor, c.start_date, c.end_date, c.nights, c.min_stay, c.orphan
          from listed_listings s
          cross join lateral (${gaps}) c
        ) g
        where ${listedFilter}
        order by ${order}
        limit ${limit}
      ) g
    )
    select 'totals' as kind, t.currency, t.past_gaps, t.past_nights, t.past_orphan_gaps, t.past_orphan_nights,
      t.past_orphan_value, t.future_gaps, t.future_nights, t.future_orphan_gaps, t.future_orphan_nights,
      t.future_orphan_value, t.matching, null::text as listing_id, null::text as listing_name,
      null::date as start_date, null::date as end_date, null::integer as gap_nights, null::integer as min_stay,
      null::boolean as orphan, null::text as timing, null::bigint as listed_value, null::bigint as position
    from totals t
    union all
    select 'gap', g.currency, null, null, null, null, null, null, null, null, null, null, null, g.listing_id,
      g.listing_name, g.start_date, g.end_date, g.nights, g.min_stay, g.orphan,
      case when g.end_date <= g.today then 'past' when g.start_date >= g.today then 'future' else 'current' end,
      (
        select sum(greatest(coalesce(cd.price_minor, g.base_price_minor), coalesce(g.min_price_minor, 0)))
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

/**
 * The gaps of listing `s` (a row of the statement's listings, with `today`, `min_nights` and
 * `has_calendar_days`) touching `period`, as the body of a lateral subquery, read from `calendar_gaps` (kept by
 * triggers on every hold write): those starting in the period, and the one before it when it reaches into the
 * period; index-only, through the primary key. A gap's first night is looked up in the calendar only for
 * listings with calendar days.
 */
function listingGaps(period: AnalyticsPeriod, maxGapNights: number): RawBuilder<unknown> {
  return sql`
    select g.start_date, g.end_date, g.end_date - g.start_date as nights, m.min_stay,
      g.end_date - g.start_date < m.min_stay or g.end_date - g.start_date <= ${maxGapNights} as orphan,
      span.first_in, span.after_in, past.nights as past_nights,
      span.after_in - span.first_in - past.nights as future_nights
    from calendar_gaps g
    cross join lateral (
      select case when s.has_calendar_days then coalesce((
        select cd.min_nights from calendar_days cd where cd.listing_id = s.id and cd.date = g.start_date
      ), s.min_nights) else s.min_nights end as min_stay
    ) m
    -- the gap's nights inside the period, and how many of them fall before the listing's today
    cross join lateral (
      select greatest(g.start_date, ${period.startDate}::date) as first_in,
        least(g.end_date, ${addDays(period.endDate, 1)}::date) as after_in
    ) span
    cross join lateral (select greatest(least(span.after_in, s.today) - span.first_in, 0) as nights) past
    where g.listing_id = s.id
      -- gaps never overlap: only the last one starting before the period can reach into it
      and g.start_date between coalesce((
          select max(p.start_date) from calendar_gaps p
          where p.listing_id = s.id and p.start_date < ${period.startDate}::date
        ), ${period.startDate}::date) and ${period.endDate}::date
      and g.end_date > ${period.startDate}::date
    -- a fence: the caller reads each figure once per aggregate, and pulled up into it they would be computed
    -- again for each read
    offset 0`;
}
