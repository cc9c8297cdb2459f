import { currencyExponent, toMajorUnits } from '@innkeep/domain';
import type { HeadlineKpi, HeadlineKpis, headlineKpisInputSchema } from '@innkeep/domain/analytics';
import { comparisonKinds, moneyPer, type NullReason, ratioOf } from '@innkeep/domain/analytics';
import type { z } from 'zod';
import type { Executor } from '../database.ts';
import type { AnalyticsScope } from './analytics-scope.ts';
import { type CheckInCohortTotals, checkInCohortTotals } from './check-in-cohort.ts';
import {
  bookedNightsIn,
  change,
  currenciesIn,
  type Nullable,
  nth,
  roundTo,
  sumsOf,
} from './performance-calculations.ts';
import { performanceMeta } from './performance-meta.ts';
import {
  type ComparedPeriod,
  comparedPeriods,
  comparisonHeader,
  eachDistinctPeriod,
  periodOf,
} from './performance-periods.ts';
import { type SoldNightSums, soldNightsByPeriod } from './performance-sold-nights.ts';
import { currencySupplyOf, type PeriodSupply, supplyByPeriod } from './performance-supply.ts';

type HeadlineFilters = z.output<typeof headlineKpisInputSchema>;

/** A KPI's value in each period (the asked one first) and the decimals its change is rounded to. */
interface KpiSeries {
  readonly values: readonly Nullable[];
  readonly decimals: number;
}

/** The key a comparison kind has in a KPI. */
const comparisonKey = {
  previous_period: 'previousPeriod',
  same_period_last_year: 'samePeriodLastYear',
} as const;

/** One KPI with its value in each comparison period, the changes, and the reasons of its nulls. */
function kpi({ values, decimals }: KpiSeries, compared: readonly ComparedPeriod[]): HeadlineKpi {
  const current = nth(values, 0);
  const nullReasons: Record<string, NullReason> = {};
  if (current[0] === null) nullReasons.value = current[1];
  const result: HeadlineKpi = { value: current[0], nullReasons };
  compared.forEach((entry, index) => {
    const baseline = nth(values, index + 1);
    const moved = change(current, baseline, decimals);
    const key = comparisonKey[entry.kind];
    result[key] = { value: baseline[0], change: moved.absolute, relativeChange: moved.relative };
    if (baseline[0] === null) nullReasons[`${key}.value`] = baseline[1];
    if (moved.nullReasons.absolute) nullReasons[`${key}.change`] = moved.nullReasons.absolute;
    if (moved.nullReasons.relative) nullReasons[`${key}.relativeChange`] = moved.nullReasons.relative;
  });
  return result;
}

/** The currency-free KPIs of one period. */
function periodKpis(supply: PeriodSupply, sold: readonly SoldNightSums[], cohort: CheckInCohortTotals) {
  const booked = bookedNightsIn(sold);
  const perStay = (total: number): Nullable => [
    cohort.checkIns === 0 ? null : roundTo(total / cohort.checkIns, 2),
    'no_reservations',
  ];
  return {
    bookedNights: [booked, 'no_booked_nights'] as Nullable,
    availableNights: [supply.availableNights, 'no_available_nights'] as Nullable,
    occupancy: [ratioOf(booked, supply.availableNights), 'no_available_nights'] as Nullable,
    grossOccupancy: [ratioOf(booked, supply.calendarNights), 'no_calendar_nights'] as Nullable,
    checkIns: [cohort.checkIns, 'no_reservations'] as Nullable,
    averageLengthOfStay: perStay(cohort.stayNights),
    averageLeadTimeDays: perStay(cohort.leadDaysSum),
    medianLeadTimeDays: [cohort.leadTimeMedian, 'no_reservations'] as Nullable,
    cancellationRate: [ratioOf(cohort.cancelled, cohort.cancellable), 'no_reservations'] as Nullable,
  };
}

/** The money KPIs of one currency in one period; RevPAR over the listings priced in that currency. */
function currencyKpis(supply: PeriodSupply, sold: readonly SoldNightSums[], currency: string) {
  const sums = sumsOf(sold, currency);
  const available = currencySupplyOf(supply.byCurrency, currency).availableNights;
  return {
    adr: [moneyPer(sums.accommodation, sums.nights, currency), 'no_booked_nights'] as Nullable,
    revpar: [moneyPer(sums.accommodation, available, currency), 'no_available_nights'] as Nullable,
    accommodationRevenue: [toMajorUnits(sums.accommodation, currency), 'no_booked_nights'] as Nullable,
    totalRevenue: [toMajorUnits(sums.accommodation + sums.fees, currency), 'no_booked_nights'] as Nullable,
  };
}

/**
 * get_headline_kpis: the KPI bundle of a period beside its comparison periods (both by default). Supply,
 * sold nights and the check-in cohort are read by statements sent together and run side by side.
 */
export async function headlineKpis(
  db: Executor,
  scope: AnalyticsScope,
  input: HeadlineFilters,
): Promise<HeadlineKpis> {
  const period = periodOf(input);
  const compared = comparedPeriods(period, input.compareTo ?? comparisonKinds);
  const periods = [period, ...compared.map((entry) => entry.period)];
  const [supply, sold, cohorts] = await Promise.all([
    supplyByPeriod(db, scope, periods),
    soldNightsByPeriod(db, scope, periods),
    // The cohort helper reads all its periods in one statement; one call per period lets PostgreSQL run
    // them side by side, which keeps this bundle within its latency budget.
    eachDistinctPeriod(periods, async (each) => nth(await checkInCohortTotals(db, scope, [each]), 0)),
  ]);
  const perPeriod = periods.map((_, index) =>
    periodKpis(nth(supply, index), nth(sold, index), nth(cohorts, index)),
  );
  const series = (name: keyof ReturnType<typeof periodKpis>, decimals: number): HeadlineKpi =>
    kpi({ values: perPeriod.map((values) => values[name]), decimals }, compared);
  const currencies = currenciesIn(...supply.map((entry) => entry.byCurrency), ...sold);

  return {
    meta: performanceMeta(scope, period, {
      definitions: [
        'available_nights',
        'occupancy_adjusted',
        'occupancy_gross',
        'revenue_bases',
        'adr',
        'revpar',
        'alos',
        'lead_time',
        'cancellation_rate',
        'comparison_periods',
      ],
      currencies,
      supply: true,
      notes: [
        'Nights, occupancy and money count stay nights inside the period; check-ins, length of stay, lead ' +
          'time and the cancellation rate count the reservations due to check in during it.',
      ],
    }),
    comparisonPeriods: Object.fromEntries(
      compared.map((entry) => [comparisonKey[entry.kind], comparisonHeader(entry).period]),
    ),
    bookedNights: series('bookedNights', 0),
    availableNights: series('availableNights', 0),
    occupancy: series('occupancy', 4),
    grossOccupancy: series('grossOccupancy', 4),
    checkIns: series('checkIns', 0),
    averageLengthOfStay: series('averageLengthOfStay', 2),
    averageLeadTimeDays: series('averageLeadTimeDays', 2),
    medianLeadTimeDays: series('medianLeadTimeDays', 1),
    cancellationRate: series('cancellationRate', 4),
    currencies: currencies.map((currency) => {
      const perCurrency = periods.map((_, index) =>
        currencyKpis(nth(supply, index), nth(sold, index), currency),
      );
      const decimals = currencyExponent(currency);
      const money = (name: keyof ReturnType<typeof currencyKpis>) =>
        kpi({ values: perCurrency.map((values) => values[name]), decimals }, compared);
      return {
        currency,
        adr: money('adr'),
        revpar: money('revpar'),
        accommodationRevenue: money('accommodationRevenue'),
        totalRevenue: money('totalRevenue'),
      };
    }),
  };
}
