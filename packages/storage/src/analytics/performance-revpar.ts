import { currencyExponent, toMajorUnits } from '@innkeep/domain';
import type { RevenueBasis, RevparStats, ratioStatsInputSchema } from '@innkeep/domain/analytics';
import { moneyPer, ratioOf } from '@innkeep/domain/analytics';
import type { z } from 'zod';
import type { Executor } from '../database.ts';
import type { AnalyticsScope } from './analytics-scope.ts';
import {
  basisMinor,
  bookedNightsIn,
  change,
  currenciesIn,
  nth,
  occupancyFigures,
  reasonsFor,
  sumsOf,
} from './performance-calculations.ts';
import { definitionsWith, performanceMeta } from './performance-meta.ts';
import { comparedPeriods, comparisonHeader, periodOf } from './performance-periods.ts';
import { type SoldNightSums, soldNightsByPeriod } from './performance-sold-nights.ts';
import { type CurrencySupply, currencySupplyOf, supplyByPeriod } from './performance-supply.ts';

/** RevPAR of one currency: revenue over the available nights of the listings priced in it. */
function revparFigures(supply: CurrencySupply, sums: SoldNightSums, basis: RevenueBasis) {
  const revenueMinor = basisMinor(sums, basis);
  const occupancy = ratioOf(sums.nights, supply.availableNights);
  const adr = moneyPer(revenueMinor, sums.nights, sums.currency);
  const revpar = moneyPer(revenueMinor, supply.availableNights, sums.currency);
  const grossRevpar = moneyPer(revenueMinor, supply.calendarNights, sums.currency);
  return {
    currency: sums.currency,
    listings: supply.listings,
    calendarNights: supply.calendarNights,
    availableNights: supply.availableNights,
    bookedNights: sums.nights,
    occupancy,
    revenue: toMajorUnits(revenueMinor, sums.currency),
    adr,
    revpar,
    grossRevpar,
    nullReasons: reasonsFor({
      occupancy: [occupancy, 'no_available_nights'],
      adr: [adr, 'no_booked_nights'],
      revpar: [revpar, 'no_available_nights'],
      grossRevpar: [grossRevpar, 'no_calendar_nights'],
    }),
  };
}

/** get_revpar_stats: RevPAR per currency with its ADR and occupancy, the scope's occupancy, comparisons. */
export async function revparStats(
  db: Executor,
  scope: AnalyticsScope,
  input: z.output<typeof ratioStatsInputSchema>,
): Promise<RevparStats> {
  const period = periodOf(input);
  const basis = input.revenueBasis ?? 'accommodation';
  const compared = comparedPeriods(period, input.compareTo);
  const periods = [period, ...compared.map((entry) => entry.period)];
  const [supply, sold] = await Promise.all([
    supplyByPeriod(db, scope, periods),
    soldNightsByPeriod(db, scope, periods),
  ]);
  const currencies = currenciesIn(...supply.map((entry) => entry.byCurrency), ...sold);
  const figuresOf = (index: number) => {
    const periodSupply = nth(supply, index);
    const periodSold = nth(sold, index);
    const overall = occupancyFigures(periodSupply, bookedNightsIn(periodSold));
    return {
      availableNights: overall.availableNights,
      bookedNights: overall.bookedNights,
      occupancy: overall.occupancy,
      nullReasons: reasonsFor({ occupancy: [overall.occupancy, 'no_available_nights'] }),
      currencies: currencies.map((currency) =>
        revparFigures(
          currencySupplyOf(periodSupply.byCurrency, currency),
          sumsOf(periodSold, currency),
          basis,
        ),
      ),
    };
  };
  const current = figuresOf(0);
  return {
    meta: performanceMeta(scope, period, {
      definitions: definitionsWith(
        ['available_nights', 'occupancy_adjusted', 'adr', 'revpar', 'revenue_bases'],
        compared.length > 0,
      ),
      currencies,
      supply: true,
    }),
    revenueBasis: basis,
    ...current,
    comparisons: compared.map((entry, index) => {
      const baseline = figuresOf(index + 1);
      return {
        ...comparisonHeader(entry),
        ...baseline,
        changes: {
          occupancy: change(
            [current.occupancy, 'no_available_nights'],
            [baseline.occupancy, 'no_available_nights'],
            4,
          ),
          currencies: currencies.map((currency, position) => {
            const now = nth(current.currencies, position);
            const then = nth(baseline.currencies, position);
            const decimals = currencyExponent(currency);
            return {
              currency,
              occupancy: change(
                [now.occupancy, 'no_available_nights'],
                [then.occupancy, 'no_available_nights'],
                4,
              ),
              adr: change([now.adr, 'no_booked_nights'], [then.adr, 'no_booked_nights'], decimals),
              revpar: change(
                [now.revpar, 'no_available_nights'],
                [then.revpar, 'no_available_nights'],
                decimals,
              ),
            };
          }),
        },
      };
    }),
  };
}
