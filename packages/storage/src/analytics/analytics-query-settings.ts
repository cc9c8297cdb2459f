import { type Kysely, type QueryResult, type RawBuilder, sql, type Transaction } from 'kysely';
import type { Database, Executor } from '../database.ts';

/**
 * Runs year-long analytics reads in one transaction whose settings suit them; all end with it.
 *
 * - JIT compilation off: these queries' cost estimates cross PostgreSQL's JIT thresholds (a series or an
 *   unnest is always guessed at a hundred or a thousand rows), yet they finish sooner than compiling takes.
 * - Custom plans always: the connection prepares every statement, and after five runs PostgreSQL may switch
 *   to a generic plan that cannot see the period, the account or the rules' dates, and runs these queries
 *   several times slower.
 * - More work memory, so a year of a large portfolio sorts and aggregates in memory rather than on disk.
 */
export async function withAnalyticsSettings<T>(
  db: Kysely<Database>,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`
      select set_config('jit', 'off', true), set_config('plan_cache_mode', 'force_custom_plan', true),
        set_config('work_mem', '64MB', true)`.execute(trx);
    return work(trx);
  });
}

/**
 * Runs one analytics statement with the settings of {@link withAnalyticsSettings}: in a settings transaction
 * of its own when `db` is the pool, so that statements sent together still run side by side, each on a
 * connection of its own; as it is inside a caller's transaction, whose settings the caller chose. Above all
 * this keeps the statement on custom plans: prepared once per connection, after five runs it would switch to
 * a generic plan that cannot see the period and reads far more than it needs (measured: the cohort statements
 * of get_channel_performance went from about 5 ms to 200 ms each).
 */
export function runAnalyticsStatement<Row>(
  db: Executor,
  statement: RawBuilder<Row>,
): Promise<QueryResult<Row>> {
  if (db.isTransaction) return statement.execute(db);
  return withAnalyticsSettings(db, (trx) => statement.execute(trx));
}
