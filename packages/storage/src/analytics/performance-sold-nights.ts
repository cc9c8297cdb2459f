import type { Channel } from '@innkeep/domain';
import type { AnalyticsPeriod } from '@innkeep/domain/analytics';
import { sql } from 'kysely';
import type { Executor } from '../database.ts';
import { runAnalyticsStatement } from './analytics-query-settings.ts';
import type { AnalyticsScope } from './analytics-scope.ts';
import { eachDistinctPeriod } from './performance-periods.ts';
import { soldNightTotalRows } from './sold-nights.ts';

/** Sold nights and their pro-rated money (minor units) of one currency, optionally of one channel. */
export interface SoldNightSums {
  readonly currency: string;
  /** The channel when grouped by channel, else null. */
  readonly channel: Channel | null;
  readonly nights: number;
  readonly accommodation: number;
  readonly fees: number;
  readonly channelFees: number;
  readonly payout: number;
}

/**
 * Sold nights and money of `scope` in each of `periods` (one list per period, in order, sorted by currency
 * then channel), grouped by currency and, with `byChannel`, by channel. Each period reads its whole months
 * from a monthly roll-up and its edge nights from the nightly facts (see `soldNightTotalRows`), one statement
 * per distinct period, sent together.
 */
export async function soldNightsByPeriod(
  db: Executor,
  scope: AnalyticsScope,
  periods: readonly AnalyticsPeriod[],
  options: { readonly byChannel?: boolean } = {},
): Promise<SoldNightSums[][]> {
  return eachDistinctPeriod(periods, (period) => soldNightsOf(db, scope, period, options.byChannel ?? false));
}

/** The sold-night sums of one period, per currency (and channel). */
async function soldNightsOf(
  db: Executor,
  scope: AnalyticsScope,
  period: AnalyticsPeriod,
  byChannel: boolean,
): Promise<SoldNightSums[]> {
  const channel = byChannel ? sql`channel` : sql`null::text`;
  const { rows } = await runAnalyticsStatement(
    db,
    sql<{
      currency: string;
      channel: Channel | null;
      nights: number;
      accommodation: number;
      fees: number;
      channel_fees: number;
      payout: number;
    }>`
    select currency, ${channel} as channel, sum(nights)::bigint as nights,
      sum(accommodation_minor)::bigint as accommodation, sum(fees_minor)::bigint as fees,
      sum(channel_fees_minor)::bigint as channel_fees, sum(payout_minor)::bigint as payout
    from ${soldNightTotalRows(scope, period)} as sold
    group by currency, 2
    having sum(nights) <> 0
    order by currency, 2`,
  );
  return rows.map((row) => ({
    currency: row.currency,
    channel: row.channel,
    nights: row.nights,
    accommodation: row.accommodation,
    fees: row.fees,
    channelFees: row.channel_fees,
    payout: row.payout,
  }));
}

/** The sums of several groups added up (all of one currency), or zeros for none. */
function addSoldNights(currency: string, groups: readonly SoldNightSums[]): SoldNightSums {
  const sum = (pick: (group: SoldNightSums) => number) =>
    groups.reduce((total, group) => total + pick(group), 0);
  return {
    currency,
    channel: null,
    nights: sum((group) => group.nights),
    accommodation: sum((group) => group.accommodation),
    fees: sum((group) => group.fees),
    channelFees: sum((group) => group.channelFees),
    payout: sum((group) => group.payout),
  };
}

/** The channel of sums read with `byChannel`; null there would mean the grouping was not asked for. */
export function channelOf(sums: SoldNightSums): Channel {
  if (sums.channel === null) throw new Error('These sold nights were not grouped by channel.');
  return sums.channel;
}

/** The sums of `list` added up per currency (over channels), one entry per currency of `currencies`. */
export function perCurrency(list: readonly SoldNightSums[], currencies: readonly string[]): SoldNightSums[] {
  return currencies.map((currency) =>
    addSoldNights(
      currency,
      list.filter((sums) => sums.currency === currency),
    ),
  );
}
