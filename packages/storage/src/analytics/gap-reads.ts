import { addDays, type LocalDate } from '@innkeep/domain';
import type { AnalyticsPeriod } from '@innkeep/domain/analytics';
import { sql } from 'kysely';
import type { Executor } from '../database.ts';
import type { AnalyticsScope } from './analytics-scope.ts';
import { gapEpoch } from './calendar-gap-packs.ts';
import { listingsWithToday } from './reservation-today.ts';

/** A listing in scope with what its gaps are judged by, and its gaps that may touch the period, packed. */
export interface ListingGapsRow {
  readonly id: string;
  readonly name: string;
  readonly currency: string;
  readonly today: LocalDate;
  readonly min_nights: number;
  readonly base_price_minor: number;
  readonly min_price_minor: number | null;
  /** Whether the listing has a calendar day up to the period's end: only then can a date set a minimum stay
   * or a price for a gap's nights in the period. */
  readonly has_calendar_days: boolean;
  /** Its gaps as `calendar_gap_years` packs them (see forEachPackedGap), of which only some touch the period. */
  readonly gaps: Uint8Array;
}

/**
 * The listings in scope, each with its gaps that may touch `period`: the packed years (migration 0031) from the
 * one 31 nights before the period starts to the period's last, a row a listing and year rather than one a gap,
 * and before them the few longer gaps starting earlier that reach into it, from the partial index of gaps over
 * 31 nights. Gaps never overlap, so none comes twice; the caller leaves out those that miss the period.
 */
export async function readListingGaps(
  db: Executor,
  scope: AnalyticsScope,
  period: AnalyticsPeriod,
  now: Date,
): Promise<ListingGapsRow[]> {
  const firstYear = Number(addDays(period.startDate, -31).slice(0, 4));
  const lastYear = Number(period.endDate.slice(0, 4));
  const { rows } = await sql<ListingGapsRow>`
    with early as (
      select listing_id,
        string_agg(int4send(start_date - ${gapEpoch}::date) || int4send(end_date - ${gapEpoch}::date), ''::bytea)
          as gaps
      from calendar_gaps
      where account_id = ${scope.accountId}
        and end_date - start_date > 31
        and end_date > ${period.startDate}::date
        and start_date < ${`${firstYear}-01-01`}::date
      group by listing_id
    ),
    packed as (
      select listing_id, string_agg(gaps, ''::bytea) as gaps
      from calendar_gap_years
      where account_id = ${scope.accountId} and year between ${firstYear} and ${lastYear}
      group by listing_id
    )
    select s.id, s.name, s.currency, s.today, s.min_nights, s.base_price_minor, s.min_price_minor,
      -- one probe a listing (limit 1) rather than a scan of its calendar days
      (
        select true from calendar_days d where d.listing_id = s.id and d.date <= ${period.endDate}::date limit 1
      ) is not null as has_calendar_days,
      coalesce(e.gaps, ''::bytea) || coalesce(p.gaps, ''::bytea) as gaps
    from (${listingsWithToday(scope, now)}) s
    left join early e on e.listing_id = s.id
    left join packed p on p.listing_id = s.id`.execute(db);
  return rows;
}

/**
 * The minimum stays set by the calendar days on which gaps start, as "listing day" keys (day numbers from
 * {@link gapEpoch}); days without their own minimum stay are left out.
 */
export async function readStartDayMinStays(
  db: Executor,
  starts: { readonly listingIds: string[]; readonly days: number[] },
): Promise<Map<string, number>> {
  if (starts.listingIds.length === 0) return new Map();
  const { rows } = await sql<{ listing_id: string; day: number; min_nights: number }>`
    select g.listing_id, g.day, cd.min_nights
    from unnest(${starts.listingIds}::text[], ${starts.days}::integer[]) as g (listing_id, day)
    join calendar_days cd on cd.listing_id = g.listing_id and cd.date = ${gapEpoch}::date + g.day
    where cd.min_nights is not null`.execute(db);
  return new Map(rows.map((row) => [`${row.listing_id} ${row.day}`, row.min_nights]));
}

/** A run of nights of one listing, as day numbers from {@link gapEpoch}: `first` up to (not including) `after`. */
export interface NightSpan {
  readonly listingId: string;
  readonly first: number;
  readonly after: number;
}

/**
 * The calendar days with their own price inside `spans`, as the span's index, the day number and the price
 * (a day inside two spans comes for each).
 */
export async function readPricedDays(
  db: Executor,
  spans: readonly NightSpan[],
): Promise<{ span: number; day: number; price_minor: number }[]> {
  if (spans.length === 0) return [];
  const { rows } = await sql<{ span: string; day: number; price_minor: number }>`
    select s.span, cd.date - ${gapEpoch}::date as day, cd.price_minor
    from unnest(
      ${spans.map((span) => span.listingId)}::text[],
      ${spans.map((span) => span.first)}::integer[],
      ${spans.map((span) => span.after)}::integer[]
    ) with ordinality as s (listing_id, first, after, span)
    join calendar_days cd on cd.listing_id = s.listing_id
      and cd.date >= ${gapEpoch}::date + s.first and cd.date < ${gapEpoch}::date + s.after
    where cd.price_minor is not null`.execute(db);
  return rows.map((row) => ({ span: Number(row.span) - 1, day: row.day, price_minor: row.price_minor }));
}
