import { currencyExponent } from '@innkeep/domain';
import type { periodTotalsInputSchema, RevenueStats } from '@innkeep/domain/analytics';
import { ratioOf } from '@innkeep/domain/analytics';
import type { z } from 'zod';
import type { Executor } from '../database.ts';
import type { AnalyticsScope } from './analytics-scope.ts';
import { change, currenciesIn, nth, reasonsFor, revenueAmounts, sumsOf } from './performance-calculations.ts';
import { definitionsWith, performanceMeta } from './performance-meta.ts';
import { comparedPeriods, comparisonHeader, periodOf } from './performance-periods.ts';
import { channelOf, perCurrency, type SoldNightSums, soldNightsByPeriod } from './performance-sold-nights.ts';

/** The per-currency money changes between two periods' sums. */
function revenueChanges(currency: string, current: SoldNightSums, baseline: SoldNightSums) {
  const decimals = currencyExponent(currency);
  const now = revenueAmounts(current);
  const then = revenueAmounts(baseline);
  const moneyChange = (field: Exclude<keyof typeof now, 'currency' | 'bookedNights'>) =>
    change([now[field], 'no_booked_nights'], [then[field], 'no_baseline'], decimals);
  return {
    currency,
    bookedNights: change([now.bookedNights, 'no_booked_nights'], [then.bookedNights, 'no_baseline'], 0),
    accommodationRevenue: moneyChange('accommodationRevenue'),
    fees: moneyChange('fees'),
    totalRevenue: moneyChange('totalRevenue'),
    channelFees: moneyChange('channelFees'),
    netRevenue: moneyChange('netRevenue'),
    payout: moneyChange('payout'),
  };
}

/** get_revenue_stats: the revenue family per currency, per channel and currency, with optional comparisons. */
export async function revenueStats(
  db: Executor,
  scope: AnalyticsScope,
  input: z.output<typeof periodTotalsInputSchema>,
): Promise<RevenueStats> {
  const period = periodOf(input);
  const compared = comparedPeriods(period, input.compareTo);
  const periods = [period, ...compared.map((entry) => entry.period)];
  const sold = await soldNightsByPeriod(db, scope, periods, { byChannel: true });
  const currencies = currenciesIn(...sold);
  const byCurrency = sold.map((list) => perCurrency(list, currencies));
  const current = nth(byCurrency, 0);
  return {
    meta: performanceMeta(scope, period, {
      definitions: definitionsWith(['revenue_bases'], compared.length > 0),
      currencies,
      supply: false,
    }),
    currencies: current.map(revenueAmounts),
    byChannel: nth(sold, 0).map((sums) => {
      const total = sumsOf(current, sums.currency);
      const shareOfTotalRevenue = ratioOf(sums.accommodation + sums.fees, total.accommodation + total.fees);
      return {
        ...revenueAmounts(sums),
        channel: channelOf(sums),
        shareOfTotalRevenue,
        nullReasons: reasonsFor({ shareOfTotalRevenue: [shareOfTotalRevenue, 'no_baseline'] }),
      };
    }),
    comparisons: compared.map((entry, index) => {
      const baseline = nth(byCurrency, index + 1);
      return {
        ...comparisonHeader(entry),
        currencies: baseline.map(revenueAmounts),
        changes: currencies.map((currency) =>
          revenueChanges(currency, sumsOf(current, currency), sumsOf(baseline, currency)),
        ),
      };
    }),
  };
}
