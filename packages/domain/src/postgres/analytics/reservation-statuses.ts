import { sql } from 'kysely';
import type { z } from 'zod';
import type { AnalyticsPeriod } from '../../analytics/analytics-period.ts';
import { ratioOf } from '../../analytics/analytics-result.ts';
import {
  type NormalisedStatus,
  normalisedStatuses,
  type ReservationStatusStats,
  type reservationStatusStatsInputSchema,
} from '../../analytics/reservation-statuses.ts';
import { toMajorUnits } from '../../core/money.ts';
import type { Executor } from '../database.ts';
import { type AnalyticsScope, analyticsMeta, channelInScope, listingInScope } from './analytics-scope.ts';
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
  const { rows } = await sql<{
    status: NormalisedStatus;
    currency: string;
    reservations: string;
    nights: string;
    rent: string;
  }>`
    with listing_today as materialized (${listingsWithToday(scope, now)}),
    cohort as (
      select r.status, r.cancelled_by, r.currency, r.nights, r.accommodation_minor, r.start_date, r.end_date,
        l.today
      from reservations r
      join listing_today l on l.id = r.listing_id
      where r.account_id = ${scope.accountId}
        and r.start_date between ${period.startDate}::date and ${period.endDate}::date
        and ${listingInScope(scope, 'r.listing_id')}
        and ${channelInScope(scope, 'r.channel')}
    )
    select
      case
        when status = 'accepted' and start_date > today then 'upcoming'
        when status = 'accepted' and end_date > today then 'in_house'
        when status = 'accepted' then 'completed'
        when status = 'cancelled' then 'cancelled_by_' || cancelled_by
        else status
      end as status,
      currency, count(*) as reservations, sum(nights) as nights, sum(accommodation_minor) as rent
    from cohort
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
