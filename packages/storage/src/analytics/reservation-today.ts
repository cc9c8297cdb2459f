import { type LocalDate, localDateIn } from '@innkeep/domain';
import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../database.ts';
import { type AnalyticsScope, listingInScope } from './analytics-scope.ts';

/** The account's time zone and its local date at `now`: the default "today" of account-wide questions. */
export async function accountToday(
  db: Executor,
  accountId: string,
  now: Date,
): Promise<{ timeZone: string; today: LocalDate }> {
  const { time_zone: timeZone } = await db
    .selectFrom('accounts')
    .select('time_zone')
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  return { timeZone, today: localDateIn(timeZone, now) };
}

/**
 * The body of a `materialized` CTE: the listings in scope with their columns and `today`, each listing's
 * local date at `now`. Materialized so every listing's time zone is converted once, not once per joined row.
 */
export function listingsWithToday(scope: AnalyticsScope, now: Date): RawBuilder<unknown> {
  return sql`
    select l.*, (${now.toISOString()}::timestamptz at time zone l.time_zone)::date as today
    from listings l
    where l.account_id = ${scope.accountId} and ${listingInScope(scope, 'l.id')}`;
}
