import { addDays } from '@innkeep/domain';
import type { AnalyticsPeriod } from '@innkeep/domain/analytics';
import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../database.ts';

/**
 * The longest stay of the account in nights (any status; 0 without reservations): a stay touching a period
 * began at most this many nights before it, which bounds the check-in range such queries read instead of
 * all the years before the period. One probe of `reservations_account_nights`.
 */
export async function longestStayNights(db: Executor, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('reservations')
    .select((eb) => eb.fn.max('nights').as('longest'))
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return Number(row?.longest ?? 0);
}

/**
 * A SQL condition on reservations `r`: the stay touches `period` — it holds one of its nights or checks out
 * during it — given the account's longest stay from {@link longestStayNights}.
 */
export function touchesPeriod(period: AnalyticsPeriod, longestStay: number): RawBuilder<boolean> {
  return sql<boolean>`(r.start_date between ${addDays(period.startDate, -longestStay)}::date
    and ${period.endDate}::date and r.start_date + r.nights >= ${period.startDate}::date)`;
}
