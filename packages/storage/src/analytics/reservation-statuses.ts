import { toMajorUnits } from '@innkeep/domain';
import type { AnalyticsPeriod } from '@innkeep/domain/analytics';
import {
  type NormalisedStatus,
  normalisedStatuses,
  type ReservationStatusStats,
  ratioOf,
  type reservationStatusStatsInputSchema,
} from '@innkeep/domain/analytics';
import { sql } from 'kysely';
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
  // longest stay and a few days long, is joined to the listings and their today.
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
    counted as (
      select 'completed' as stage, r.status, r.cancelled_by, r.currency,
        count(*) as reservations, sum(r.nights) as nights, sum(r.accommodation_minor) as rent
      from reservations r
      where ${inScope}
        and r.start_date >= ${period.startDate}::date
        and r.start_date <= least(${period.endDate}::date, ${earliest}::date - (select nights from longest_stay) - 1)
      group by 2, 3, 4
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
