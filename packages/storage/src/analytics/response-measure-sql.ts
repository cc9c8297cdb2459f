import { type RawBuilder, sql } from 'kysely';

/** A reply within this many seconds counts as within the hour. */
export const hourSeconds = 3_600;
/** A reply within this many seconds counts as within the day (the response rate). */
export const daySeconds = 86_400;

/**
 * `hour_decided` and `day_decided`: the waits `w` whose share within the hour (day) is known at `now`, those
 * answered (`seconds` not null) and those unanswered for longer than the window. Each is a bigint count.
 */
export function decidedColumns(now: Date, seconds: RawBuilder<unknown>): RawBuilder<unknown> {
  const hourAgo = new Date(now.getTime() - hourSeconds * 1000);
  const dayAgo = new Date(now.getTime() - daySeconds * 1000);
  return sql`
    count(*) filter (where ${seconds} is not null or w.guest_message_at <= ${hourAgo}) as hour_decided,
    count(*) filter (where ${seconds} is not null or w.guest_message_at <= ${dayAgo}) as day_decided`;
}

/**
 * The rank (from 1, among `answered` times in order) of a time `percentile_cont(fraction)` reads: the one at
 * the floor or at the ceiling of fraction × (answered − 1).
 */
export function percentileRank(
  fraction: number,
  round: 'floor' | 'ceil',
  answered: RawBuilder<unknown>,
): RawBuilder<number> {
  return sql`1 + ${sql.raw(round)}(${sql.lit(fraction)}::float8 * (${answered} - 1))`;
}

/**
 * `percentile_cont(fraction)` from the times at its two {@link percentileRank}s, `lower` (floor) and `upper`
 * (ceiling), with its own arithmetic, so the figure equals the aggregate's.
 */
export function interpolatedPercentile(
  fraction: number,
  answered: RawBuilder<unknown>,
  lower: RawBuilder<unknown>,
  upper: RawBuilder<unknown>,
): RawBuilder<number> {
  const position = sql`${sql.lit(fraction)}::float8 * (${answered} - 1)`;
  return sql`${lower} + (${position} - floor(${position})) * (${upper} - ${lower})`;
}

/** The mean of a row of summed times as avg() computes it: the bigint sum over the count, both numeric. */
export function meanSeconds(row: string): RawBuilder<string | null> {
  return sql`${sql.ref(`${row}.total_seconds`)}::numeric / nullif(${sql.ref(`${row}.answered`)}, 0)::numeric`;
}
