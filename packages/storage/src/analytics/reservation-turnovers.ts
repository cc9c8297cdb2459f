import { addDays } from '@innkeep/domain';
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

/** The first day of the month after `date`'s. */
function nextMonthStart(date: string): string {
  // The 28th plus four days is always in the next month.
  return `${addDays(`${date.slice(0, 7)}-28`, 4).slice(0, 7)}-01`;
}

/**
 * A month's number in `turnover_listing_totals`: year × 12 + month − 1 of the month that holds `date`.
 */
function monthNumber(date: string): number {
  return Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;
}

/**
 * The whole months of `period` that the monthly roll-ups count, as `[from, until)`; the check-outs before
 * `from` and from `until` on are counted one by one. Empty (both the day after the period, so the stays
 * cover all of it) when the period holds no whole month, or when `rollUp` is false.
 */
function wholeMonthsOf(period: AnalyticsPeriod, rollUp: boolean): { from: string; until: string } {
  const dayAfter = addDays(period.endDate, 1);
  const from = period.startDate.endsWith('-01') ? period.startDate : nextMonthStart(period.startDate);
  const until = `${dayAfter.slice(0, 7)}-01`;
  return rollUp && from < until ? { from, until } : { from: dayAfter, until: dayAfter };
}

/**
 * get_turnover_stats: every check-out of an accepted stay in the period (and, when asked, every end of an
 * owner block) is a turnover; its turnaround is the days until the listing's next accepted check-in, looked
 * up past the period's end. The next guest may come from any channel, also with a channel filter.
 *
 * The stays' turnarounds are kept paired in `turnover_facts`, and rolled up by check-out month per account,
 * channel and turnaround (`turnover_account_months`) and as running totals per listing
 * and channel (`turnover_listing_totals`; migration 0024). A question across every listing counts its whole
 * months from the roll-ups (a row per listing, and a few hundred per account) and only the check-outs of
 * its partial months (and the owner-block ends) one by one. The account roll-up keeps no listing apart, so
 * under a listing filter every check-out of the period is counted from the listings' own stays.
 */
export async function turnoverStats(
  db: Executor,
  scope: AnalyticsScope,
  input: TurnoverInput,
): Promise<TurnoverStats> {
  const period: AnalyticsPeriod = { startDate: input.startDate, endDate: input.endDate };
  const months = wholeMonthsOf(period, scope.listingIds === null);
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
  const stays = (from: string, until: string) => sql`
      select f.listing_id, false as owner_stay, f.turnaround_days as days
      from turnover_facts f
      where f.account_id = ${scope.accountId}
        and f.check_out >= ${from}::date and f.check_out < ${until}::date
        and ${listingInScope(scope, 'f.listing_id')}
        and ${channelInScope(scope, 'f.channel')}`;
  const { rows } = await sql<TurnoverRow>`
    with turnovers as (
      ${stays(period.startDate, months.from)}
      union all
      ${stays(months.until, addDays(period.endDate, 1))}
      ${ownerStayTurnovers}
    ),
    day_tallies as (
      select days, sum(turnovers) as turnovers, sum(owner_stays) as owner_stays
      from (
        select turnaround_days as days, turnovers, 0 as owner_stays
        from turnover_account_months
        where account_id = ${scope.accountId} and ${channelInScope(scope, 'channel')}
          and month >= ${months.from}::date and month < ${months.until}::date
        union all
        select days, 1, owner_stay::integer from turnovers
      ) counted
      group by days
      -- a roll-up key whose stays have all moved away stays behind at zero
      having sum(turnovers) > 0
    ),
    listing_tallies as (
      select listing_id, sum(turnovers) as turnovers, sum(same_day) as same_day
      from (
        select listing_id,
          coalesce(turnovers[least(${monthNumber(months.until)} - first_month_number, cardinality(turnovers))], 0)
            - coalesce(turnovers[least(${monthNumber(months.from)} - first_month_number, cardinality(turnovers))], 0),
          coalesce(same_day[least(${monthNumber(months.until)} - first_month_number, cardinality(same_day))], 0)
            - coalesce(same_day[least(${monthNumber(months.from)} - first_month_number, cardinality(same_day))], 0)
        from turnover_listing_totals
        where account_id = ${scope.accountId}
          and ${scope.channel === null ? sql`channel is null` : sql`channel = ${scope.channel}`}
          and ${months.from}::date < ${months.until}::date
        union all
        select listing_id, 1, case when days = 0 then 1 else 0 end from turnovers
      ) counted (listing_id, turnovers, same_day)
      group by listing_id
      -- every listing with check-outs has totals, also those with none in the period
      having sum(turnovers) > 0
    )
    select 'days' as kind, days, turnovers, owner_stays, 0::bigint as same_day, null::text as listing_id,
      null::text as listing_name, null::bigint as listings
    from day_tallies
    union all
    select * from (
      select 'listing', null::integer, t.turnovers, 0::bigint, t.same_day, t.listing_id, l.name, count(*) over ()
      from listing_tallies t
      join listings l on l.id = t.listing_id
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
