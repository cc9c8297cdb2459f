import { type RawBuilder, sql } from 'kysely';
import type { AnalyticsPeriod } from '../../analytics/analytics-period.ts';

/**
 * A SQL row source with, for each day of `period` that anything happens on: `day`, `starts` (ranges
 * beginning that day), `ends` (ranges ending that day: their last night was the day before) and `delta`
 * (+1 for each range whose nights reach that day from the left edge or start that day, −1 for each ending).
 * A running sum of `delta` by day is the number of ranges holding that day's night.
 *
 * `ranges` must yield `start_date` and `end_date` (exclusive) of ranges touching the period
 * (`start_date <= period end` and `end_date >= period start`). Each range adds two events in one pass, so
 * stays of any length cost the same, and nights are never expanded one by one.
 */
function dailyEvents(ranges: RawBuilder<unknown>, period: AnalyticsPeriod): RawBuilder<unknown> {
  return sql`(
    select e.day, sum(e.starts)::integer as starts, sum(e.ends)::integer as ends, sum(e.delta)::integer as delta
    from ${ranges} r
    cross join lateral (values
      (greatest(r.start_date, ${period.startDate}::date), (r.start_date >= ${period.startDate}::date)::integer, 0, 1),
      (r.end_date, 0, 1, -1)
    ) as e (day, starts, ends, delta)
    where e.day <= ${period.endDate}::date
    group by e.day
  )`;
}

/**
 * A SQL row source with every day of `period`: `day`, `starts`, `ends` and `holding` (ranges holding that
 * day's night), from {@link dailyEvents} of `ranges`.
 */
export function dailyHolding(ranges: RawBuilder<unknown>, period: AnalyticsPeriod): RawBuilder<unknown> {
  return sql`(
    select d.day::date as day, coalesce(e.starts, 0) as starts, coalesce(e.ends, 0) as ends,
      (sum(coalesce(e.delta, 0)) over (order by d.day))::integer as holding
    from generate_series(${period.startDate}::date, ${period.endDate}::date, interval '1 day') as d (day)
    left join ${dailyEvents(ranges, period)} e on e.day = d.day::date
  )`;
}
