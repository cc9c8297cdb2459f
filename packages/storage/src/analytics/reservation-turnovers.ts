import type { AnalyticsPeriod, DayRange } from '@innkeep/domain/analytics';
import {
  maxTurnoverListings,
  type NullReason,
  ratioOf,
  type TurnoverStats,
  type turnoverStatsInputSchema,
} from '@innkeep/domain/analytics';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Executor } from '../database.ts';
import { type AnalyticsScope, analyticsMeta, channelInScope, listingInScope } from './analytics-scope.ts';
import { summarize, toBuckets, toHistogram } from './reservation-histograms.ts';

type TurnoverInput = z.output<typeof turnoverStatsInputSchema>;

/** Days from a check-out to the next check-in. */
const turnaroundBuckets: readonly DayRange[] = [
  { minDays: 0, maxDays: 0 },
  { minDays: 1, maxDays: 1 },
  { minDays: 2, maxDays: 2 },
  { minDays: 3, maxDays: 6 },
  { minDays: 7, maxDays: null },
];

interface TurnoverRow {
  kind: 'days' | 'listing';
  days: number | null;
  turnovers: string;
  owner_stays: string;
  same_day: string;
  listing_id: string | null;
  listing_name: string | null;
  listings: string | null;
}

/**
 * get_turnover_stats: every check-out of an accepted stay in the period (and, when asked, every end of an
 * owner block) is a turnover; its turnaround is the days until the listing's next accepted check-in, looked
 * up past the period's end. The next guest may come from any channel, also with a channel filter.
 *
 * Each listing's check-outs in the period are read in check-out order from `reservations_listing_check_out`
 * (index only), so the next check-in is the next row's (`lead`, no sort): accepted stays of a listing never
 * overlap, so ordered by check-out they are ordered by check-in too. After the last check-out in the period the
 * next check-in is that of the listing's first stay checking out after the period. The turnarounds are then
 * counted per day count (hashed) and per listing (already grouped by the listings' order) in one pass.
 */
export async function turnoverStats(
  db: Executor,
  scope: AnalyticsScope,
  input: TurnoverInput,
): Promise<TurnoverStats> {
  const period: AnalyticsPeriod = { startDate: input.startDate, endDate: input.endDate };
  const ownerStays = input.includeOwnerStays === true;
  // Owner-block ends are few: each looks its next check-in up in `reservations_listing_accepted`.
  const ownerStayTurnovers = ownerStays
    ? sql`
      union all
      select h.listing_id, true, (
        select min(r.start_date) from reservations r
        where r.listing_id = h.listing_id and r.status = 'accepted' and r.start_date >= upper(h.nights)
      ) - upper(h.nights)
      from calendar_holds h
      where h.account_id = ${scope.accountId}
        and h.kind = 'block' and h.block_reason = 'owner'
        and upper(h.nights) between ${period.startDate}::date and ${period.endDate}::date
        and ${listingInScope(scope, 'h.listing_id')}`
    : sql``;
  const { rows } = await sql<TurnoverRow>`
    with turnovers as (
      select l.id as listing_id, false as owner_stay, s.days
      -- in id order, so the turnovers arrive grouped by listing and are counted per listing without a sort
      from (
        select id from listings
        where account_id = ${scope.accountId} and ${listingInScope(scope, 'id')}
        order by id
      ) l
      cross join lateral (
        select r.channel,
          lead(r.start_date, 1, (
            select a.start_date from reservations a
            where a.listing_id = l.id and a.status = 'accepted' and a.end_date > ${period.endDate}::date
            order by a.end_date
            limit 1
          )) over (order by r.end_date rows between current row and current row) - r.end_date as days
        from reservations r
        where r.listing_id = l.id and r.status = 'accepted'
          and r.end_date between ${period.startDate}::date and ${period.endDate}::date
      ) s
      where ${channelInScope(scope, 's.channel')}
      ${ownerStayTurnovers}
    ),
    tallies as (
      select grouping(days) = 1 as per_listing, days, listing_id, count(*) as turnovers,
        count(*) filter (where owner_stay) as owner_stays, count(*) filter (where days = 0) as same_day
      from turnovers
      group by grouping sets ((days), (listing_id))
    )
    select 'days' as kind, days, turnovers, owner_stays, 0::bigint as same_day, null::text as listing_id,
      null::text as listing_name, null::bigint as listings
    from tallies
    where not per_listing
    union all
    select * from (
      select 'listing', null::integer, t.turnovers, 0::bigint, t.same_day, t.listing_id, l.name, count(*) over ()
      from tallies t
      join listings l on l.id = t.listing_id
      where t.per_listing
      order by t.turnovers desc, l.name, t.listing_id
      limit ${maxTurnoverListings}
    ) busiest`.execute(db);

  const dayRows = rows.filter((row) => row.kind === 'days');
  const listingRows = rows.filter((row) => row.kind === 'listing');
  const turnovers = dayRows.reduce((sum, row) => sum + Number(row.turnovers), 0);
  const withNext = toHistogram(
    dayRows.filter((row) => row.days !== null).map((row) => ({ value: row.days ?? 0, count: row.turnovers })),
  );
  const withoutNextBooking = Number(dayRows.find((row) => row.days === null)?.turnovers ?? 0);
  const sameDay = withNext.find((entry) => entry.value === 0)?.count ?? 0;
  const listings = Number(listingRows[0]?.listings ?? 0);

  const nullReasons: Record<string, NullReason> = {};
  if (turnovers === 0) nullReasons.sameDayRate = 'no_reservations';
  if (withNext.length === 0) {
    nullReasons['turnaround.mean'] = 'no_reservations';
    nullReasons['turnaround.median'] = 'no_reservations';
  }
  const notes: string[] = [];
  if (ownerStays)
    notes.push('Owner-block ends count as turnovers, with the days until the next guest arrives.');
  if (listings > listingRows.length) {
    notes.push(
      `Listed the ${listingRows.length} busiest of ${listings} listings; filter by listing for the rest.`,
    );
  }

  return {
    meta: analyticsMeta(scope, period, {
      basis: 'check_out',
      definitions: ['turnover', 'live_statuses', 'local_dates'],
      notes,
    }),
    turnovers,
    ownerStayTurnovers: dayRows.reduce((sum, row) => sum + Number(row.owner_stays), 0),
    sameDay,
    sameDayRate: ratioOf(sameDay, turnovers),
    withoutNextBooking,
    turnaround: summarize(withNext),
    distribution: toBuckets(withNext, turnaroundBuckets),
    busiestListings: listingRows.map((row) => ({
      listingId: row.listing_id ?? '',
      listingName: row.listing_name ?? '',
      turnovers: Number(row.turnovers),
      sameDay: Number(row.same_day),
    })),
    truncated: listings > listingRows.length,
    nullReasons,
  };
}
