import { addDays, toMajorUnits } from '@innkeep/domain';
import type { Granularity, MetricDefinitionId, RevenueBasis } from '@innkeep/domain/analytics';
import {
  type AnalyticsPeriod,
  defaultSeriesMetrics,
  moneyPer,
  type PeriodBucket,
  periodBuckets,
  periodNights,
  ratioOf,
  type SeriesMetric,
  samePeriodLastYear,
  shiftYears,
  type TimeseriesStats,
  type timeseriesStatsInputSchema,
} from '@innkeep/domain/analytics';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Executor } from '../database.ts';
import { runAnalyticsStatement } from './analytics-query-settings.ts';
import { type AnalyticsScope, channelInScope, listingInScope } from './analytics-scope.ts';
import {
  basisMinor,
  bookedNightsIn,
  currenciesIn,
  type Nullable,
  nth,
  reasonsFor,
  revenueAmounts,
  sumsOf,
} from './performance-calculations.ts';
import { performanceMeta } from './performance-meta.ts';
import { periodOf } from './performance-periods.ts';
import type { SoldNightSums } from './performance-sold-nights.ts';
import { currencySupplyOf, type PeriodSupply, supplyByPeriod } from './performance-supply.ts';
import { soldNightTotalRows } from './sold-nights.ts';

type TimeseriesFilters = z.output<typeof timeseriesStatsInputSchema>;

/** Days between a day or week bucket and the same bucket last year: 52 weeks, so weekdays line up. */
const lastYearShiftDays = 364;

/** Metrics that need the supply (blocks and listings) rather than only the sold nights. */
const supplyMetrics: readonly SeriesMetric[] = [
  'availableNights',
  'blockedNights',
  'occupancy',
  'grossOccupancy',
  'revpar',
];
/** Metrics given per currency. */
const moneyMetrics: readonly SeriesMetric[] = [
  'adr',
  'revpar',
  'accommodationRevenue',
  'totalRevenue',
  'netRevenue',
  'payout',
];

/**
 * Sold-night sums per bucket key and currency over `period`. Month buckets read `soldNightTotalRows` (a
 * monthly roll-up for whole months, nightly facts at the edges); day and week buckets read the nightly facts,
 * first added up per night (cheap to group) and then per week; the bucket limits keep them to three years at
 * most.
 * `shift` moves last year's buckets onto the keys of the asked period's buckets (+364 days for days and
 * weeks, +1 year for months), so the two years line up.
 */
async function soldNightsByBucket(
  db: Executor,
  scope: AnalyticsScope,
  period: AnalyticsPeriod,
  granularity: Granularity,
  shift: { readonly days: number; readonly years: number },
): Promise<Map<string, SoldNightSums[]>> {
  const sums = sql`sum(nights)::bigint as nights, sum(accommodation_minor)::bigint as accommodation,
    sum(fees_minor)::bigint as fees, sum(channel_fees_minor)::bigint as channel_fees,
    sum(payout_minor)::bigint as payout`;
  const query =
    granularity === 'month'
      ? sql`
        select month as bucket, currency, ${sums}
        from ${soldNightTotalRows(scope, period)} as sold
        group by month, currency`
      : sql`
        select ${granularity === 'week' ? sql`date_trunc('week', night::timestamp)::date` : sql`night`} as bucket,
          currency, ${sums}
        from (
          select night, currency, count(*) as nights, sum(accommodation_minor) as accommodation_minor,
            sum(fees_minor) as fees_minor, sum(channel_fees_minor) as channel_fees_minor,
            sum(payout_minor) as payout_minor
          from stay_night_facts
          where account_id = ${scope.accountId}
            and night between ${period.startDate}::date and ${period.endDate}::date
            and ${listingInScope(scope, 'stay_night_facts.listing_id')}
            and ${channelInScope(scope, 'stay_night_facts.channel')}
          group by night, currency
        ) as nightly
        group by 1, currency`;
  const { rows } = await runAnalyticsStatement(
    db,
    sql<{
      bucket: string;
      currency: string;
      nights: number;
      accommodation: number;
      fees: number;
      channel_fees: number;
      payout: number;
    }>`${query}`,
  );
  const byBucket = new Map<string, SoldNightSums[]>();
  for (const row of rows) {
    const key =
      granularity === 'month'
        ? shiftYears(row.bucket, shift.years).slice(0, 7)
        : addDays(row.bucket, shift.days);
    byBucket.set(key, [
      ...(byBucket.get(key) ?? []),
      {
        currency: row.currency,
        channel: null,
        nights: row.nights,
        accommodation: row.accommodation,
        fees: row.fees,
        channelFees: row.channel_fees,
        payout: row.payout,
      },
    ]);
  }
  return byBucket;
}

/** The same bucket a year earlier: calendar dates for months, 364 days back for days and weeks. */
function lastYearOf(bucket: AnalyticsPeriod, granularity: Granularity): AnalyticsPeriod {
  if (granularity === 'month') return samePeriodLastYear(bucket);
  return {
    startDate: addDays(bucket.startDate, -lastYearShiftDays),
    endDate: addDays(bucket.endDate, -lastYearShiftDays),
  };
}

/** The asked figures of one bucket (or of its last-year twin). */
function bucketFigures(
  range: AnalyticsPeriod,
  supply: PeriodSupply | null,
  sold: readonly SoldNightSums[],
  options: {
    readonly metrics: ReadonlySet<SeriesMetric>;
    readonly basis: RevenueBasis;
    readonly currencies: readonly string[];
  },
) {
  const { metrics, basis, currencies } = options;
  const booked = bookedNightsIn(sold);
  const available = supply?.availableNights ?? 0;
  const occupancy = ratioOf(booked, available);
  const grossOccupancy = ratioOf(booked, supply?.calendarNights ?? 0);
  const has = (metric: SeriesMetric) => metrics.has(metric);
  const withMoney = moneyMetrics.some(has);
  return {
    startDate: range.startDate,
    endDate: range.endDate,
    nights: periodNights(range),
    ...(has('bookedNights') ? { bookedNights: booked } : {}),
    ...(has('availableNights') ? { availableNights: available } : {}),
    ...(has('blockedNights') ? { blockedNights: supply?.blocked.total ?? 0 } : {}),
    ...(has('occupancy') ? { occupancy } : {}),
    ...(has('grossOccupancy') ? { grossOccupancy } : {}),
    ...(withMoney
      ? { currencies: currencies.map((currency) => currencyFigures(currency, supply, sold, metrics, basis)) }
      : {}),
    nullReasons: reasonsFor({
      ...(has('occupancy') ? { occupancy: [occupancy, 'no_available_nights'] as Nullable } : {}),
      ...(has('grossOccupancy')
        ? { grossOccupancy: [grossOccupancy, 'no_calendar_nights'] as Nullable }
        : {}),
    }),
  };
}

/** The asked money figures of one currency in one bucket. */
function currencyFigures(
  currency: string,
  supply: PeriodSupply | null,
  sold: readonly SoldNightSums[],
  metrics: ReadonlySet<SeriesMetric>,
  basis: RevenueBasis,
) {
  const sums = sumsOf(sold, currency);
  const amounts = revenueAmounts(sums);
  const available = supply === null ? 0 : currencySupplyOf(supply.byCurrency, currency).availableNights;
  const adr = moneyPer(basisMinor(sums, basis), sums.nights, currency);
  const revpar = moneyPer(basisMinor(sums, basis), available, currency);
  const has = (metric: SeriesMetric) => metrics.has(metric);
  return {
    currency,
    ...(has('adr') ? { adr } : {}),
    ...(has('revpar') ? { revpar } : {}),
    ...(has('accommodationRevenue') ? { accommodationRevenue: amounts.accommodationRevenue } : {}),
    ...(has('totalRevenue') ? { totalRevenue: amounts.totalRevenue } : {}),
    ...(has('netRevenue') ? { netRevenue: amounts.netRevenue } : {}),
    ...(has('payout') ? { payout: toMajorUnits(sums.payout, currency) } : {}),
    nullReasons: reasonsFor({
      ...(has('adr') ? { adr: [adr, 'no_booked_nights'] as Nullable } : {}),
      ...(has('revpar') ? { revpar: [revpar, 'no_available_nights'] as Nullable } : {}),
    }),
  };
}

/** The definitions a series cites: its buckets, and those of the metrics it carries. */
function seriesDefinitions(metrics: readonly SeriesMetric[], lastYear: boolean): MetricDefinitionId[] {
  const has = (...any: SeriesMetric[]) => any.some((metric) => metrics.includes(metric));
  return [
    'timeseries_buckets',
    ...(has(...supplyMetrics) ? (['available_nights'] as const) : []),
    ...(has('occupancy') ? (['occupancy_adjusted'] as const) : []),
    ...(has('grossOccupancy') ? (['occupancy_gross'] as const) : []),
    ...(has(...moneyMetrics) ? (['revenue_bases'] as const) : []),
    ...(has('adr') ? (['adr'] as const) : []),
    ...(has('revpar') ? (['revpar'] as const) : []),
    ...(lastYear ? (['comparison_periods'] as const) : []),
  ];
}

/**
 * get_timeseries_stats: the asked figures per day, ISO week or month bucket of the period, partial buckets
 * flagged, optionally beside the same buckets a year earlier. Supply (when a metric needs it) and the sold
 * nights of both years are separate statements run side by side.
 */
export async function timeseriesStats(
  db: Executor,
  scope: AnalyticsScope,
  input: TimeseriesFilters,
): Promise<TimeseriesStats> {
  const period = periodOf(input);
  const granularity = input.granularity ?? 'month';
  const metrics = input.metrics ?? [...defaultSeriesMetrics];
  const basis = input.revenueBasis ?? 'accommodation';
  const buckets = periodBuckets(period, granularity);
  const lastYearBuckets = input.compareToLastYear
    ? buckets.map((bucket) => lastYearOf(bucket, granularity))
    : [];
  const lastYearPeriod = lastYearOf(period, granularity);
  const needsSupply = metrics.some((metric) => supplyMetrics.includes(metric));
  const [supply, sold, soldLastYear] = await Promise.all([
    needsSupply ? supplyByPeriod(db, scope, [...buckets, ...lastYearBuckets]) : Promise.resolve(null),
    soldNightsByBucket(db, scope, period, granularity, { days: 0, years: 0 }),
    input.compareToLastYear
      ? soldNightsByBucket(db, scope, lastYearPeriod, granularity, { days: lastYearShiftDays, years: 1 })
      : Promise.resolve(new Map<string, SoldNightSums[]>()),
  ]);
  const currencies = currenciesIn(
    ...(supply ?? []).map((entry) => entry.byCurrency),
    ...sold.values(),
    ...soldLastYear.values(),
  );
  const options = { metrics: new Set(metrics), basis, currencies };
  const partial = buckets.filter((bucket) => bucket.partial).map((bucket) => bucket.key);
  const notes = partial.length > 0 ? [`Partial buckets (cut by the period): ${partial.join(', ')}.`] : [];
  if (input.compareToLastYear) {
    notes.push(
      granularity === 'month'
        ? 'lastYear is the same calendar dates one year earlier.'
        : 'lastYear is 364 days earlier, so each bucket compares the same weekdays.',
    );
  }

  return {
    meta: performanceMeta(scope, period, {
      definitions: seriesDefinitions(metrics, input.compareToLastYear ?? false),
      currencies,
      supply: needsSupply,
      notes,
    }),
    granularity,
    metrics,
    revenueBasis: basis,
    buckets: buckets.map((bucket: PeriodBucket, index) => ({
      key: bucket.key,
      partial: bucket.partial,
      ...bucketFigures(bucket, supply && nth(supply, index), sold.get(bucket.key) ?? [], options),
      ...(input.compareToLastYear
        ? {
            lastYear: bucketFigures(
              nth(lastYearBuckets, index),
              supply && nth(supply, buckets.length + index),
              soldLastYear.get(bucket.key) ?? [],
              options,
            ),
          }
        : {}),
    })),
  };
}
