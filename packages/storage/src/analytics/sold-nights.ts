import { addDays } from '@innkeep/domain';
import type { AnalyticsPeriod } from '@innkeep/domain/analytics';
import { type RawBuilder, sql } from 'kysely';
import { type AnalyticsScope, channelInScope, listingInScope } from './analytics-scope.ts';

/**
 * A row source of sold nights and their money covering exactly `period` in `scope`, to aggregate further:
 * whole months come from the monthly roll-up (`stay_month_facts`), the partial months at either end from the
 * nightly facts, so a year across thousands of listings reads a few thousand rows. Columns: `listing_id`,
 * `channel`, `currency`, `month` (first day), `nights`, `accommodation_minor`, `fees_minor`,
 * `channel_fees_minor`, `payout_minor` (all integers; sums of them are bigint/numeric in SQL — cast to
 * `bigint` when selecting so they arrive as numbers).
 */
export function soldNightRows(scope: AnalyticsScope, period: AnalyticsPeriod): RawBuilder<unknown> {
  const { firstWholeMonth, afterWholeMonths } = wholeMonthsOf(period);
  return sql`(
    select listing_id, channel, currency, month, nights, accommodation_minor, fees_minor, channel_fees_minor,
      payout_minor
    from stay_month_facts
    where account_id = ${scope.accountId}
      and month >= ${firstWholeMonth}::date and month < ${afterWholeMonths}::date
      and ${listingInScope(scope, 'stay_month_facts.listing_id')}
      and ${channelInScope(scope, 'stay_month_facts.channel')}
    union all
    ${edgeNightRows(scope, period)}
  )`;
}

/**
 * {@link soldNightRows} for questions that add the listings up: when the scope spans every listing, whole
 * months come from the account roll-up (`stay_account_month_facts`: 96 rows for a year of the 2,000-listing
 * demo, where the listing roll-up holds about 55,000), with a null `listing_id`.
 */
export function soldNightTotalRows(scope: AnalyticsScope, period: AnalyticsPeriod): RawBuilder<unknown> {
  if (scope.listingIds !== null) return soldNightRows(scope, period);
  const { firstWholeMonth, afterWholeMonths } = wholeMonthsOf(period);
  return sql`(
    select null::text as listing_id, channel, currency, month, nights, accommodation_minor, fees_minor,
      channel_fees_minor, payout_minor
    from stay_account_month_facts
    where account_id = ${scope.accountId}
      and month >= ${firstWholeMonth}::date and month < ${afterWholeMonths}::date
      and ${channelInScope(scope, 'stay_account_month_facts.channel')}
    union all
    ${edgeNightRows(scope, period)}
  )`;
}

/** The nightly facts of `period` outside its whole months, in the columns of {@link soldNightRows}. */
function edgeNightRows(scope: AnalyticsScope, period: AnalyticsPeriod): RawBuilder<unknown> {
  const { firstWholeMonth, afterWholeMonths } = wholeMonthsOf(period);
  const dayAfter = addDays(period.endDate, 1);
  return sql`
    select listing_id, channel, currency, date_trunc('month', night)::date, 1, accommodation_minor, fees_minor,
      channel_fees_minor, payout_minor
    from stay_night_facts
    where account_id = ${scope.accountId}
      and ((night >= ${period.startDate}::date and night < ${firstWholeMonth}::date)
        or (night >= ${afterWholeMonths}::date and night < ${dayAfter}::date))
      and ${listingInScope(scope, 'stay_night_facts.listing_id')}
      and ${channelInScope(scope, 'stay_night_facts.channel')}`;
}

/**
 * The calendar months wholly inside `period`: from `firstWholeMonth` up to (not including)
 * `afterWholeMonths`. Without any, both are the day after the period, so every night is an edge night.
 */
export function wholeMonthsOf(period: AnalyticsPeriod): {
  firstWholeMonth: string;
  afterWholeMonths: string;
} {
  const dayAfter = addDays(period.endDate, 1);
  const firstWholeMonth = period.startDate.endsWith('-01')
    ? period.startDate
    : nextMonthStart(period.startDate);
  const afterWholeMonths = `${dayAfter.slice(0, 7)}-01`;
  if (firstWholeMonth >= afterWholeMonths) return { firstWholeMonth: dayAfter, afterWholeMonths: dayAfter };
  return { firstWholeMonth, afterWholeMonths };
}

function nextMonthStart(date: string): string {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  return month === 12 ? `${year + 1}-01-01` : `${date.slice(0, 4)}-${String(month + 1).padStart(2, '0')}-01`;
}
