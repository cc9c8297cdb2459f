import { addDays, dayOfWeek, daysBetween, type LocalDate, maxDate, minDate } from '../core/dates.ts';
import type { ComparisonKind, Granularity } from './analytics-filters.ts';

/** An inclusive range of nights, listing-local. */
export interface AnalyticsPeriod {
  readonly startDate: LocalDate;
  readonly endDate: LocalDate;
}

/** Nights in a period (both ends included). */
export function periodNights(period: AnalyticsPeriod): number {
  return daysBetween(period.startDate, period.endDate) + 1;
}

/** Periods with equal ones merged, and where each asked period stands among them. */
export interface DistinctPeriods {
  readonly distinct: readonly AnalyticsPeriod[];
  /** For each asked period, in order, the index of its equal in `distinct`. */
  readonly positions: readonly number[];
}

/**
 * Merges equal periods so each is computed once: a 12-month previous period is also last year's, and a
 * comparison may repeat the asked period.
 */
export function distinctPeriods(periods: readonly AnalyticsPeriod[]): DistinctPeriods {
  const indexByKey = new Map<string, number>();
  const distinct: AnalyticsPeriod[] = [];
  const positions = periods.map((period) => {
    const key = `${period.startDate}/${period.endDate}`;
    let index = indexByKey.get(key);
    if (index === undefined) {
      index = distinct.push(period) - 1;
      indexByKey.set(key, index);
    }
    return index;
  });
  return { distinct, positions };
}

/** The same number of nights ending the night before `period` starts. */
export function previousPeriod(period: AnalyticsPeriod): AnalyticsPeriod {
  const nights = periodNights(period);
  return { startDate: addDays(period.startDate, -nights), endDate: addDays(period.startDate, -1) };
}

/**
 * The same calendar dates `years` years earlier (negative) or later. 29 February becomes 28 February in a
 * year without it, so a leap-year period compares with one night fewer, never with a day of March.
 */
export function shiftYears(date: LocalDate, years: number): LocalDate {
  const year = Number(date.slice(0, 4)) + years;
  const monthDay = date.slice(5);
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return `${String(year).padStart(4, '0')}-${monthDay === '02-29' && !leap ? '02-28' : monthDay}`;
}

/** The same calendar dates one year earlier (STLY for period totals). */
export function samePeriodLastYear(period: AnalyticsPeriod): AnalyticsPeriod {
  return { startDate: shiftYears(period.startDate, -1), endDate: shiftYears(period.endDate, -1) };
}

/** The comparison period of a kind. */
export function comparisonPeriod(period: AnalyticsPeriod, kind: ComparisonKind): AnalyticsPeriod {
  return kind === 'previous_period' ? previousPeriod(period) : samePeriodLastYear(period);
}

/** One bucket of a series: its key, the nights of it inside the period, and whether the period cut it. */
export interface PeriodBucket {
  /** `YYYY-MM-DD` for days, the Monday `YYYY-MM-DD` for weeks, `YYYY-MM` for months. */
  readonly key: string;
  readonly startDate: LocalDate;
  readonly endDate: LocalDate;
  /** True when the period covers only part of the day, week or month. */
  readonly partial: boolean;
}

/** The first night of the bucket that contains `date`. */
export function bucketStart(date: LocalDate, granularity: Granularity): LocalDate {
  if (granularity === 'day') return date;
  if (granularity === 'month') return `${date.slice(0, 7)}-01`;
  return addDays(date, -((dayOfWeek(date) + 6) % 7));
}

/** The last night of the bucket that starts on `start`. */
function bucketEnd(start: LocalDate, granularity: Granularity): LocalDate {
  if (granularity === 'day') return start;
  if (granularity === 'week') return addDays(start, 6);
  const year = Number(start.slice(0, 4));
  const month = Number(start.slice(5, 7));
  const next =
    month === 12 ? `${year + 1}-01-01` : `${start.slice(0, 4)}-${String(month + 1).padStart(2, '0')}-01`;
  return addDays(next, -1);
}

/** The buckets covering a period, clipped to it, oldest first. */
export function periodBuckets(period: AnalyticsPeriod, granularity: Granularity): PeriodBucket[] {
  const buckets: PeriodBucket[] = [];
  let start = bucketStart(period.startDate, granularity);
  while (start <= period.endDate) {
    const end = bucketEnd(start, granularity);
    buckets.push({
      key: granularity === 'month' ? start.slice(0, 7) : start,
      startDate: maxDate(start, period.startDate),
      endDate: minDate(end, period.endDate),
      partial: start < period.startDate || end > period.endDate,
    });
    start = addDays(end, 1);
  }
  return buckets;
}
