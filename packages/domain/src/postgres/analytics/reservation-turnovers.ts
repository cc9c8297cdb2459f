import { sql } from 'kysely';
import type { z } from 'zod';
import type { AnalyticsPeriod } from '../../analytics/analytics-period.ts';
import { type NullReason, ratioOf } from '../../analytics/analytics-result.ts';
import type { DayRange } from '../../analytics/reservation-figures.ts';
import {
  maxTurnoverListings,
  type TurnoverStats,
  type turnoverStatsInputSchema,
} from '../../analytics/reservation-turnovers.ts';
import type { Executor } from '../database.ts';
import { type AnalyticsScope, analyticsMeta, channelInScope, listingInScope } from './analytics-scope.ts';
import { summarize, toBuckets, toHistogram } from './reservation-histograms.ts';
import { longestStayNights, touchesPeriod } from './reservation-stays.ts';

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
 */
export async function turnoverStats(
  db: Executor,
  scope: AnalyticsScope,
  input: TurnoverInput,
): Promise<TurnoverStats> {
  const period: AnalyticsPeriod = { startDate: input.startDate, endDate: input.endDate };
  const ownerStays = input.includeOwnerStays === true;
  const longestStay = await longestStayNights(db, scope.accountId);
  const { rows } = await sql<TurnoverRow>`
    with stays as (
      select r.listing_id, r.start_date, r.start_date + r.nights as end_date, true as is_stay,
        ${channelInScope(scope, 'r.channel')} as counted
      from reservations r
      where r.account_id = ${scope.accountId}
        and r.status = 'accepted'
        and ${touchesPeriod(period, longestStay)}
        and ${listingInScope(scope, 'r.listing_id')}
    ),
    owner_stays as (
      select h.listing_id, lower(h.nights) as start_date, upper(h.nights) as end_date, false as is_stay,
        true as counted
      from calendar_holds h
      where ${ownerStays ? sql`true` : sql`false`}
        and h.account_id = ${scope.accountId}
        and h.kind = 'block' and h.block_reason = 'owner'
        and upper(h.nights) between ${period.startDate}::date and ${period.endDate}::date
        and ${listingInScope(scope, 'h.listing_id')}
    ),
    occupancies as (select * from stays union all select * from owner_stays),
    first_after as (
      select l.id as listing_id, (
        select min(r.start_date) from reservations r
        where r.listing_id = l.id and r.status = 'accepted' and r.start_date > ${period.endDate}::date
      ) as start_date
      from listings l
      where l.account_id = ${scope.accountId} and ${listingInScope(scope, 'l.id')}
    ),
    turnovers as (
      select o.listing_id, not o.is_stay as owner_stay,
        -- the earliest later check-in: the frame runs from the latest start down to the row before this one
        coalesce(
          min(o.start_date) filter (where o.is_stay) over (
            partition by o.listing_id collate "C" order by o.start_date desc
            rows between unbounded preceding and 1 preceding),
          f.start_date
        ) - o.end_date as days,
        o.end_date, o.counted
      from occupancies o
      join first_after f on f.listing_id = o.listing_id
    ),
    counted as (
      select * from turnovers
      where counted and end_date between ${period.startDate}::date and ${period.endDate}::date
    )
    select 'days' as kind, days, count(*) as turnovers, count(*) filter (where owner_stay) as owner_stays,
      0::bigint as same_day, null::text as listing_id, null::text as listing_name,
      null::bigint as listings
    from counted group by days
    union all
    select * from (
      select 'listing', null::integer, c.turnovers, 0::bigint, c.same_day, c.listing_id, l.name, count(*) over ()
      -- counted per listing first, so only one row per listing meets the names
      from (
        select listing_id, count(*) as turnovers, count(*) filter (where days = 0) as same_day
        from counted
        group by listing_id
      ) c
      join listings l on l.id = c.listing_id
      order by c.turnovers desc, l.name, c.listing_id
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
