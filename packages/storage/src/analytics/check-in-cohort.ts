import { addDays, type LocalDate } from '@innkeep/domain';
import { type AnalyticsPeriod, distinctPeriods } from '@innkeep/domain/analytics';
import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../database.ts';
import { runAnalyticsStatement } from './analytics-query-settings.ts';
import { type AnalyticsScope, channelInScope, listingInScope } from './analytics-scope.ts';
import { wholeMonthsOf } from './sold-nights.ts';

/**
 * The check-in cohort of a period: reservations whose check-in date falls in it. ALOS, lead time and the
 * cancellation rate all use this cohort (a stay counts once, in the period it starts), so every tool that
 * shows them reads them from here.
 */
export interface CheckInCohortTotals {
  /** Live (accepted) reservations checking in during the period. */
  readonly checkIns: number;
  /** Their whole-stay nights, including nights after the period: ALOS = stayNights / checkIns. */
  readonly stayNights: number;
  /** Sum of their lead times in days (check-in − listing-local booking date): mean = leadDaysSum / checkIns. */
  readonly leadDaysSum: number;
  /** Median lead time in days (mean of the two middle values for an even count); null without check-ins. */
  readonly leadTimeMedian: number | null;
  /** Cancelled reservations that were to check in during the period. */
  readonly cancelled: number;
  /** Cancelled plus live: the cancellation rate's denominator (inquiries, declined, expired, pending excluded). */
  readonly cancellable: number;
}

/**
 * Check-in cohort totals for each of `periods` (one result per period, in order), in one statement. Lead
 * time is check-in − `booked_on`, the listing-local date of confirmation (else creation) kept on every
 * reservation; the median comes from the per-day histogram of lead times, so the statement never sorts the
 * cohort itself. Across all listings, the calendar months wholly inside a period come from the monthly
 * roll-up `check_in_month_facts`, which is that histogram already; the days at either end, and any period of
 * a listing or group filter, from the reservations.
 */
export async function checkInCohortTotals(
  db: Executor,
  scope: AnalyticsScope,
  periods: readonly AnalyticsPeriod[],
): Promise<CheckInCohortTotals[]> {
  if (periods.length === 0) return [];
  const { distinct, positions } = distinctPeriods(periods);
  const periodRows = sql.join(distinct.map((_, index) => sql`(${index}::integer)`));
  const histogramRows = sql.join(
    distinct.flatMap((period, index) => cohortRowsOf(scope, period, index)),
    sql` union all `,
  );

  const { rows } = await runAnalyticsStatement(
    db,
    sql<{
      period_index: number;
      check_ins: string;
      stay_nights: string;
      lead_days_sum: string;
      lead_time_median: string | null;
      cancelled: string;
      cancellable: string;
    }>`
    with periods (period_index) as (values ${periodRows}),
    histogram as (
      select period_index, live, lead_days, sum(reservations) as reservations, sum(nights) as nights
      from (${histogramRows}) cohort
      group by 1, 2, 3
      -- A roll-up key can fall back to zero reservations; it is no lead time of anyone.
      having sum(reservations) <> 0
    ),
    live_leads as (
      select period_index, lead_days,
        (sum(reservations) over (partition by period_index order by lead_days))::bigint as up_to,
        (sum(reservations) over (partition by period_index))::bigint as total
      from histogram
      where live
    ),
    medians as (
      -- The lead times at positions floor((n + 1) / 2) and floor(n / 2) + 1 of the sorted cohort.
      select period_index,
        (min(lead_days) filter (where up_to >= (total + 1) / 2)
          + min(lead_days) filter (where up_to >= total / 2 + 1)) / 2.0 as lead_time_median
      from live_leads
      group by period_index
    )
    select p.period_index,
      coalesce(sum(h.reservations) filter (where h.live), 0)::bigint as check_ins,
      coalesce(sum(h.nights) filter (where h.live), 0)::bigint as stay_nights,
      coalesce(sum(h.reservations * h.lead_days) filter (where h.live), 0)::bigint as lead_days_sum,
      m.lead_time_median,
      coalesce(sum(h.reservations) filter (where not h.live), 0)::bigint as cancelled,
      coalesce(sum(h.reservations), 0)::bigint as cancellable
    from periods p
    left join histogram h on h.period_index = p.period_index
    left join medians m on m.period_index = p.period_index
    group by p.period_index, m.lead_time_median`,
  );

  const byIndex = new Map(rows.map((row) => [Number(row.period_index), row]));
  const totals = distinct.map((_, index): CheckInCohortTotals => {
    const row = byIndex.get(index);
    return {
      checkIns: Number(row?.check_ins ?? 0),
      stayNights: Number(row?.stay_nights ?? 0),
      leadDaysSum: Number(row?.lead_days_sum ?? 0),
      leadTimeMedian: row?.lead_time_median == null ? null : Number(row.lead_time_median),
      cancelled: Number(row?.cancelled ?? 0),
      cancellable: Number(row?.cancellable ?? 0),
    };
  });
  return positions.map((position) => totals[position] as CheckInCohortTotals);
}

/**
 * Selects of the cohort of one period as histogram rows `(period_index, live, lead_days, reservations,
 * nights)`: its whole months from the roll-up when the scope spans every listing (the roll-up has no
 * listing), and its other days, or all of them, from the reservations. Each select reads one date range, so
 * the indexes serve it directly.
 */
function cohortRowsOf(scope: AnalyticsScope, period: AnalyticsPeriod, index: number): RawBuilder<unknown>[] {
  const dayAfter = addDays(period.endDate, 1);
  const { firstWholeMonth, afterWholeMonths } =
    scope.listingIds === null
      ? wholeMonthsOf(period)
      : { firstWholeMonth: dayAfter, afterWholeMonths: dayAfter };
  const reservationsFrom = (from: LocalDate, until: LocalDate) => sql`
    select ${index}::integer as period_index, r.status = 'accepted' as live,
      r.start_date - r.booked_on as lead_days, 1 as reservations, r.nights
    from reservations r
    where r.account_id = ${scope.accountId}
      and r.start_date >= ${from}::date and r.start_date < ${until}::date
      and r.status in ('accepted', 'cancelled')
      and ${listingInScope(scope, 'r.listing_id')}
      and ${channelInScope(scope, 'r.channel')}`;
  const selects = [reservationsFrom(period.startDate, firstWholeMonth)];
  if (firstWholeMonth < afterWholeMonths) {
    selects.push(sql`
      select ${index}::integer as period_index, f.live, f.lead_days, f.reservations, f.nights
      from check_in_month_facts f
      where f.account_id = ${scope.accountId}
        and f.month >= ${firstWholeMonth}::date and f.month < ${afterWholeMonths}::date
        and ${channelInScope(scope, 'f.channel')}`);
  }
  if (afterWholeMonths < dayAfter) selects.push(reservationsFrom(afterWholeMonths, dayAfter));
  return selects;
}
