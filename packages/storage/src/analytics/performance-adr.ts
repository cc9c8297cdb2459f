import { currencyExponent, toMajorUnits } from '@innkeep/domain';
import type { RevenueBasis } from '@innkeep/domain/analytics';
import {
  type AdrStats,
  type AnalyticsPeriod,
  maxNightlyDetailNights,
  moneyPer,
  periodNights,
  type ratioStatsInputSchema,
} from '@innkeep/domain/analytics';
import { type RawBuilder, sql } from 'kysely';
import type { z } from 'zod';
import type { Executor } from '../database.ts';
import { runAnalyticsStatement } from './analytics-query-settings.ts';
import { type AnalyticsScope, channelInScope, listingInScope } from './analytics-scope.ts';
import { basisMinor, change, currenciesIn, nth, reasonsFor, sumsOf } from './performance-calculations.ts';
import { definitionsWith, performanceMeta } from './performance-meta.ts';
import { comparedPeriods, comparisonHeader, periodOf } from './performance-periods.ts';
import { channelOf, perCurrency, type SoldNightSums, soldNightsByPeriod } from './performance-sold-nights.ts';

/** ADR of one group of sums on a basis. */
function adrFigures(sums: SoldNightSums, basis: RevenueBasis) {
  const revenueMinor = basisMinor(sums, basis);
  const adr = moneyPer(revenueMinor, sums.nights, sums.currency);
  return {
    currency: sums.currency,
    bookedNights: sums.nights,
    revenue: toMajorUnits(revenueMinor, sums.currency),
    adr,
    nullReasons: reasonsFor({ adr: [adr, 'no_booked_nights'] }),
  };
}

/** Median and weekday/weekend ADR per currency from the nightly facts, in minor units. */
interface NightlyDetail {
  readonly currency: string;
  readonly median: number | null;
  readonly weekdayNights: number;
  readonly weekdayRevenue: number;
  readonly weekendNights: number;
  readonly weekendRevenue: number;
}

/** The per-night revenue of a basis, as a SQL expression over stay_night_facts columns. */
function nightlyBasis(basis: RevenueBasis): RawBuilder<number> {
  switch (basis) {
    case 'accommodation':
      return sql<number>`accommodation_minor`;
    case 'total':
      return sql<number>`accommodation_minor + fees_minor`;
    case 'net':
      return sql<number>`accommodation_minor + fees_minor - channel_fees_minor`;
    case 'payout':
      return sql<number>`payout_minor`;
  }
}

/**
 * The median nightly rate and the Friday-and-Saturday split per currency: these need every sold night, so
 * they read the nightly facts (hence only for periods up to {@link maxNightlyDetailNights} nights). The
 * median comes from a histogram of nightly amounts (how many nights had each amount), which is cheaper
 * than sorting the nights: it is the mean of the amounts at positions floor((n + 1) / 2) and
 * floor(n / 2) + 1.
 */
async function nightlyDetail(
  db: Executor,
  scope: AnalyticsScope,
  period: AnalyticsPeriod,
  basis: RevenueBasis,
): Promise<NightlyDetail[]> {
  // extract(dow): 0 = Sunday … 5 = Friday, 6 = Saturday; the weekend is the nights of Friday and Saturday.
  const { rows } = await runAnalyticsStatement(
    db,
    sql<{
      currency: string;
      median: string | null;
      weekday_nights: number;
      weekday_revenue: number;
      weekend_nights: number;
      weekend_revenue: number;
    }>`
    with histogram as (
      select currency, extract(dow from night) in (5, 6) as weekend, ${nightlyBasis(basis)} as amount,
        count(*) as nights
      from stay_night_facts
      where account_id = ${scope.accountId}
        and night between ${period.startDate}::date and ${period.endDate}::date
        and ${listingInScope(scope, 'stay_night_facts.listing_id')}
        and ${channelInScope(scope, 'stay_night_facts.channel')}
      group by 1, 2, 3
    ),
    -- Positions are bigint, so the divisions in medians round down, as the median's positions need.
    ranked as (
      select currency, amount,
        (sum(sum(nights)) over (partition by currency order by amount))::bigint as up_to,
        (sum(sum(nights)) over (partition by currency))::bigint as total
      from histogram
      group by currency, amount
    ),
    medians as (
      select currency,
        (min(amount) filter (where up_to >= (total + 1) / 2)
          + min(amount) filter (where up_to >= total / 2 + 1)) / 2.0 as median
      from ranked
      group by currency
    )
    select h.currency, m.median,
      coalesce(sum(h.nights) filter (where not h.weekend), 0)::bigint as weekday_nights,
      coalesce(sum(h.nights * h.amount) filter (where not h.weekend), 0)::bigint as weekday_revenue,
      coalesce(sum(h.nights) filter (where h.weekend), 0)::bigint as weekend_nights,
      coalesce(sum(h.nights * h.amount) filter (where h.weekend), 0)::bigint as weekend_revenue
    from histogram h
    join medians m on m.currency = h.currency
    group by h.currency, m.median`,
  );
  return rows.map((row) => ({
    currency: row.currency,
    median: row.median === null ? null : Number(row.median),
    weekdayNights: row.weekday_nights,
    weekdayRevenue: row.weekday_revenue,
    weekendNights: row.weekend_nights,
    weekendRevenue: row.weekend_revenue,
  }));
}

/** get_adr_stats: ADR per currency and per channel, the nightly detail for short periods, comparisons. */
export async function adrStats(
  db: Executor,
  scope: AnalyticsScope,
  input: z.output<typeof ratioStatsInputSchema>,
): Promise<AdrStats> {
  const period = periodOf(input);
  const basis = input.revenueBasis ?? 'accommodation';
  const compared = comparedPeriods(period, input.compareTo);
  const periods = [period, ...compared.map((entry) => entry.period)];
  const withDetail = periodNights(period) <= maxNightlyDetailNights;
  const [sold, detail] = await Promise.all([
    soldNightsByPeriod(db, scope, periods, { byChannel: true }),
    withDetail ? nightlyDetail(db, scope, period, basis) : Promise.resolve(null),
  ]);
  const currencies = currenciesIn(...sold);
  const byCurrency = sold.map((list) => perCurrency(list, currencies));
  const current = nth(byCurrency, 0);
  const notes =
    detail === null
      ? [
          `The median nightly rate and weekday/weekend ADR are left out for periods over ` +
            `${maxNightlyDetailNights} nights; ask for a quarter or less to get them.`,
        ]
      : ['Weekend nights are Friday and Saturday nights; the median is over single sold nights.'];
  return {
    meta: performanceMeta(scope, period, {
      definitions: definitionsWith(['adr', 'revenue_bases'], compared.length > 0),
      currencies,
      supply: false,
      notes,
    }),
    revenueBasis: basis,
    currencies: current.map((sums) => {
      const figures = adrFigures(sums, basis);
      const nightly = detail?.find((entry) => entry.currency === sums.currency);
      if (detail === null) return figures;
      const medianNightlyRate =
        nightly?.median == null ? null : toMajorUnits(Math.round(nightly.median), sums.currency);
      const weekdayAdr = moneyPer(nightly?.weekdayRevenue ?? 0, nightly?.weekdayNights ?? 0, sums.currency);
      const weekendAdr = moneyPer(nightly?.weekendRevenue ?? 0, nightly?.weekendNights ?? 0, sums.currency);
      return {
        ...figures,
        medianNightlyRate,
        weekdayAdr,
        weekendAdr,
        nullReasons: {
          ...figures.nullReasons,
          ...reasonsFor({
            medianNightlyRate: [medianNightlyRate, 'no_booked_nights'],
            weekdayAdr: [weekdayAdr, 'no_booked_nights'],
            weekendAdr: [weekendAdr, 'no_booked_nights'],
          }),
        },
      };
    }),
    byChannel: nth(sold, 0).map((sums) => ({ ...adrFigures(sums, basis), channel: channelOf(sums) })),
    comparisons: compared.map((entry, index) => {
      const baseline = nth(byCurrency, index + 1);
      return {
        ...comparisonHeader(entry),
        currencies: baseline.map((sums) => adrFigures(sums, basis)),
        changes: currencies.map((currency) => {
          const now = adrFigures(sumsOf(current, currency), basis);
          const then = adrFigures(sumsOf(baseline, currency), basis);
          const decimals = currencyExponent(currency);
          return {
            currency,
            bookedNights: change(
              [now.bookedNights, 'no_booked_nights'],
              [then.bookedNights, 'no_baseline'],
              0,
            ),
            revenue: change([now.revenue, 'no_booked_nights'], [then.revenue, 'no_baseline'], decimals),
            adr: change([now.adr, 'no_booked_nights'], [then.adr, 'no_booked_nights'], decimals),
          };
        }),
      };
    }),
  };
}
