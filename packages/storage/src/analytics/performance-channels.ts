import { channels, toMajorUnits } from '@innkeep/domain';
import type { ChannelPerformance, channelPerformanceInputSchema } from '@innkeep/domain/analytics';
import { moneyPer, ratioOf } from '@innkeep/domain/analytics';
import type { z } from 'zod';
import type { Executor } from '../database.ts';
import type { AnalyticsScope } from './analytics-scope.ts';
import { checkInCohortTotals } from './check-in-cohort.ts';
import {
  bookedNightsIn,
  currenciesIn,
  nth,
  reasonsFor,
  roundTo,
  sumsOf,
} from './performance-calculations.ts';
import { performanceMeta } from './performance-meta.ts';
import { periodOf } from './performance-periods.ts';
import { channelOf, perCurrency, type SoldNightSums, soldNightsByPeriod } from './performance-sold-nights.ts';

type ChannelFilters = z.output<typeof channelPerformanceInputSchema>;

/** One channel's money in one currency, with its share of the currency's total revenue. */
function channelMoney(sums: SoldNightSums, currencyTotal: SoldNightSums) {
  const { currency } = sums;
  const total = sums.accommodation + sums.fees;
  const revenueShare = ratioOf(total, currencyTotal.accommodation + currencyTotal.fees);
  const effectiveCommission = ratioOf(sums.channelFees, total);
  // Commission is charged on what the guest pays for rent and fees alike, so the part of it that falls on
  // rent is its share of the total: net ADR = (rent − channel fees × rent / total) / nights.
  const rentCommission = total === 0 ? 0 : Math.round((sums.channelFees * sums.accommodation) / total);
  const adr = moneyPer(sums.accommodation, sums.nights, currency);
  const netAdr = moneyPer(sums.accommodation - rentCommission, sums.nights, currency);
  return {
    currency,
    bookedNights: sums.nights,
    accommodationRevenue: toMajorUnits(sums.accommodation, currency),
    totalRevenue: toMajorUnits(total, currency),
    channelFees: toMajorUnits(sums.channelFees, currency),
    netRevenue: toMajorUnits(total - sums.channelFees, currency),
    revenueShare,
    adr,
    netAdr,
    effectiveCommission,
    nullReasons: reasonsFor({
      revenueShare: [revenueShare, 'no_baseline'],
      adr: [adr, 'no_booked_nights'],
      netAdr: [netAdr, 'no_booked_nights'],
      effectiveCommission: [effectiveCommission, 'no_booked_nights'],
    }),
  };
}

/**
 * get_channel_performance: per channel, stay-night volume and money (shares of all channels, ADR, net ADR,
 * effective commission) and the check-in cohort's stay length, lead time and cancellations. Shares are
 * always against all channels, also when the input names one channel (then only its row is returned).
 */
export async function channelPerformance(
  db: Executor,
  scope: AnalyticsScope,
  input: ChannelFilters,
): Promise<ChannelPerformance> {
  const period = periodOf(input);
  const allChannels: AnalyticsScope = { ...scope, channel: null };
  const [sold, cohorts] = await Promise.all([
    soldNightsByPeriod(db, allChannels, [period], { byChannel: true }),
    Promise.all(
      channels.map(async (channel) => ({
        channel,
        cohort: nth(await checkInCohortTotals(db, { ...scope, channel }, [period]), 0),
      })),
    ),
  ]);
  const periodSold = nth(sold, 0);
  const currencies = currenciesIn(periodSold);
  const currencyTotals = perCurrency(periodSold, currencies);
  const bookedNights = bookedNightsIn(periodSold);

  const rows = cohorts
    .map(({ channel, cohort }) => ({
      channel,
      cohort,
      channelSold: periodSold.filter((sums) => channelOf(sums) === channel),
    }))
    // A channel without sold nights or stays due to check in has nothing to say.
    .filter(
      ({ channel, cohort, channelSold }) =>
        (scope.channel === null || channel === scope.channel) &&
        (channelSold.length > 0 || cohort.cancellable > 0),
    )
    .map(({ channel, cohort, channelSold }) => {
      const nights = bookedNightsIn(channelSold);
      const perStay = (total: number) => (cohort.checkIns === 0 ? null : roundTo(total / cohort.checkIns, 2));
      const nightShare = ratioOf(nights, bookedNights);
      const averageLengthOfStay = perStay(cohort.stayNights);
      const averageLeadTimeDays = perStay(cohort.leadDaysSum);
      const cancellationRate = ratioOf(cohort.cancelled, cohort.cancellable);
      return {
        channel,
        reservations: cohort.checkIns,
        bookedNights: nights,
        nightShare,
        averageLengthOfStay,
        averageLeadTimeDays,
        medianLeadTimeDays: cohort.leadTimeMedian,
        cancelledReservations: cohort.cancelled,
        cancellationRate,
        currencies: channelSold.map((sums) => channelMoney(sums, sumsOf(currencyTotals, sums.currency))),
        nullReasons: reasonsFor({
          nightShare: [nightShare, 'no_booked_nights'],
          averageLengthOfStay: [averageLengthOfStay, 'no_reservations'],
          averageLeadTimeDays: [averageLeadTimeDays, 'no_reservations'],
          medianLeadTimeDays: [cohort.leadTimeMedian, 'no_reservations'],
          cancellationRate: [cancellationRate, 'no_reservations'],
        }),
      };
    })
    .sort((a, b) => b.bookedNights - a.bookedNights || a.channel.localeCompare(b.channel));

  return {
    meta: performanceMeta(scope, period, {
      definitions: ['channel_performance', 'revenue_bases', 'adr', 'alos', 'lead_time', 'cancellation_rate'],
      currencies,
      supply: false,
      channelNote: `Only ${scope.channel}'s row is returned; its shares are of all channels together.`,
      notes: [
        'Nights and money count stay nights inside the period; reservations, length of stay, lead time and ' +
          'cancellations count the reservations due to check in during it.',
        'Net ADR is ADR after the channel’s commission at its effective rate (channel fees / total revenue).',
      ],
    }),
    totals: {
      reservations: cohorts.reduce((total, { cohort }) => total + cohort.checkIns, 0),
      bookedNights,
      currencies: currencyTotals.map((sums) => ({
        currency: sums.currency,
        totalRevenue: toMajorUnits(sums.accommodation + sums.fees, sums.currency),
      })),
    },
    channels: rows,
  };
}
