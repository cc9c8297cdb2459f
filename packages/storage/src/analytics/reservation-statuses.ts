import { toMajorUnits } from '@innkeep/domain';
import type { AnalyticsPeriod } from '@innkeep/domain/analytics';
import {
  type NormalisedStatus,
  normalisedStatuses,
  type ReservationStatusStats,
  ratioOf,
  type reservationStatusStatsInputSchema,
} from '@innkeep/domain/analytics';
import { type RawBuilder, sql } from 'kysely';
import type { z } from 'zod';
import type { Executor } from '../database.ts';
import { type AnalyticsScope, analyticsMeta, channelInScope, listingInScope } from './analytics-scope.ts';
import { listingTodayRange } from './listing-today-range.ts';
import { listingsWithToday } from './reservation-today.ts';

type StatusInput = z.output<typeof reservationStatusStatsInputSchema>;

/** The stored status each normalised status comes from. */
const rawStatusOf: Record<NormalisedStatus, ReservationStatusStats['statuses'][number]['rawStatus']> = {
  inquiry: 'inquiry',
  pending: 'pending',
  upcoming: 'accepted',
  in_house: 'accepted',
  completed: 'accepted',
  cancelled_by_guest: 'cancelled',
  cancelled_by_host: 'cancelled',
  cancelled_by_channel: 'cancelled',
  declined: 'declined',
  expired: 'expired',
};

/**
 * get_reservation_status_stats: every reservation, request and inquiry due to check in during the period,
 * counted per normalised status with its nights and rent. Accepted stays are upcoming, in house or completed
 * by each listing's own today; cancellations are split by who cancelled.
 */
export async function reservationStatusStats(
  db: Executor,
  scope: AnalyticsScope,
  input: StatusInput,
  now: Date,
): Promise<ReservationStatusStats> {
  const period: AnalyticsPeriod = { startDate: input.startDate, endDate: input.endDate };
  const { earliest, latest } = listingTodayRange(now);
  const inScope = sql<boolean>`r.account_id = ${scope.accountId}
    and ${listingInScope(scope, 'r.listing_id')}
    and ${channelInScope(scope, 'r.channel')}`;
  // Whether an accepted stay is upcoming, in house or completed depends on its listing's own today, but only
  // for stays around today: one that checked in more than the account's longest stay before the earliest
  // today has checked out everywhere, and one checking in after the latest today is ahead everywhere. So the
  // cohort is read in three check-in ranges of the covering index, and only the middle one, at most the
  // longest stay and a few days long, is joined to the listings and their today. The completed range,
  // `completed_days`, mostly comes from the monthly roll-up.
  const { rows } = await sql<{
    status: NormalisedStatus;
    currency: string;
    reservations: string;
    nights: string;
    rent: string;
  }>`
    with longest_stay as (
      select max(nights) as nights from reservations where account_id = ${scope.accountId}
    ),
    listing_today as materialized (${listingsWithToday(scope, now)}),
    completed_days as (
      select ${period.startDate}::date as first_day,
        least(${period.endDate}::date, ${earliest}::date - (select nights from longest_stay) - 1) as last_day
    ),
    whole_months as (
      select first_whole_month,
        greatest(date_trunc('month', (last_day + 1)::timestamp)::date, first_whole_month) as after_whole_months
      from (
        select (date_trunc('month', (first_day - 1)::timestamp) + interval '1 month')::date as first_whole_month,
          last_day
        from completed_days
      ) bounds
    ),
    counted as (
      ${scope.listingIds === null ? completedByMonth(scope, inScope) : completedOf(inScope)}
      union all
      select
        case
          when r.start_date > l.today then 'upcoming'
          when r.start_date + r.nights > l.today then 'in_house'
          else 'completed'
        end,
        r.status, r.cancelled_by, r.currency,
        count(*), sum(r.nights), sum(r.accommodation_minor)
      from reservations r
      join listing_today l on l.id = r.listing_id
      where ${inScope}
        and r.start_date >= greatest(${period.startDate}::date, ${earliest}::date - (select nights from longest_stay))
        and r.start_date <= least(${period.endDate}::date, ${latest}::date)
      group by 1, 2, 3, 4
      union all
      select 'upcoming', r.status, r.cancelled_by, r.currency,
        count(*), sum(r.nights), sum(r.accommodation_minor)
      from reservations r
      where ${inScope}
        and r.start_date > ${latest}::date
        and r.start_date between ${period.startDate}::date and ${period.endDate}::date
      group by 2, 3, 4
    )
    select
      case
        when status = 'accepted' then stage
        when status = 'cancelled' then 'cancelled_by_' || cancelled_by
        else status
      end as status,
      currency, sum(reservations) as reservations, sum(nights) as nights, sum(rent) as rent
    from counted
    group by 1, 2`.execute(db);

  const total = rows.reduce((sum, row) => sum + Number(row.reservations), 0);
  const currencies = [...new Set(rows.map((row) => row.currency))].sort();
  return {
    meta: analyticsMeta(scope, period, {
      basis: 'check_in',
      definitions: ['status_breakdown', 'local_dates', 'currency_policy'],
      currencies,
      notes: [
        'Upcoming, in house and completed use each listing’s own today; the rent of inquiries, requests, ' +
          'declined and expired reservations is what was quoted, never earned.',
      ],
    }),
    reservations: total,
    statuses: normalisedStatuses.map((status) => {
      const mine = rows.filter((row) => row.status === status);
      const reservations = mine.reduce((sum, row) => sum + Number(row.reservations), 0);
      return {
        status,
        rawStatus: rawStatusOf[status],
        reservations,
        share: ratioOf(reservations, total),
        nights: mine.reduce((sum, row) => sum + Number(row.nights), 0),
        rent: mine
          .map((row) => ({ currency: row.currency, amount: toMajorUnits(Number(row.rent), row.currency) }))
          .sort((a, b) => (a.currency < b.currency ? -1 : 1)),
      };
    }),
  };
}

/**
 * The check-ins of `completed_days` (a common table expression of {@link reservationStatusStats}) grouped
 * by status, who cancelled and currency, as stage `completed`.
 */
function completedOf(inScope: RawBuilder<boolean>): RawBuilder<unknown> {
  return sql`
    select 'completed' as stage, r.status, r.cancelled_by, r.currency,
      count(*) as reservations, sum(r.nights) as nights, sum(r.accommodation_minor) as rent
    from reservations r
    where ${inScope}
      and r.start_date >= (select first_day from completed_days)
      and r.start_date <= (select last_day from completed_days)
    group by 2, 3, 4`;
}

/**
 * {@link completedOf} for every listing: the whole months of `completed_days` come from
 * `reservation_month_facts` (a few hundred rows a year where the reservations are about 100,000), and only
 * the days before its first and after its last whole month from the reservations. The roll-up is per
 * account, so a listing or group filter reads the reservations alone; a channel filter is one of its keys.
 */
function completedByMonth(scope: AnalyticsScope, inScope: RawBuilder<boolean>): RawBuilder<unknown> {
  // `whole_months`: the first month starting on or after the first day, and the month after the last whole
  // one (never before the first, so the two edge reads never overlap). Two edge reads rather than one with
  // `or`, so each stays a range of the covering index.
  return sql`
    select 'completed' as stage, f.status, nullif(f.cancelled_by, '') as cancelled_by, f.currency,
      sum(f.reservations) as reservations, sum(f.nights) as nights, sum(f.rent_minor) as rent
    from reservation_month_facts f
    where f.account_id = ${scope.accountId}
      and f.month >= (select first_whole_month from whole_months)
      and f.month < (select after_whole_months from whole_months)
      and f.reservations <> 0
      and ${channelInScope(scope, 'f.channel')}
    group by 2, 3, 4
    union all
    select 'completed', r.status, r.cancelled_by, r.currency,
      count(*), sum(r.nights), sum(r.accommodation_minor)
    from reservations r
    where ${inScope}
      and r.start_date >= (select first_day from completed_days)
      and r.start_date <= (select last_day from completed_days)
      and r.start_date < (select first_whole_month from whole_months)
    group by 2, 3, 4
    union all
    select 'completed', r.status, r.cancelled_by, r.currency,
      count(*), sum(r.nights), sum(r.accommodation_minor)
    from reservations r
    where ${inScope}
      and r.start_date >= (select after_whole_months from whole_months)
      and r.start_date <= (select last_day from completed_days)
    group by 2, 3, 4`;
}
