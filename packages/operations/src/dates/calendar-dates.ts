import { addDays, dayOfWeek, type LocalDate, monthNames, weekdayNames } from '@innkeep/domain';

/** Earliest and latest years a phrase may name; anything outside is almost surely a typo. */
export const yearBounds = { min: 1900, max: 2199 } as const;

/** A date's year, month (1–12) and day. */
export interface DateParts {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

/** Splits a `YYYY-MM-DD` date into numbers. */
export function partsOf(date: LocalDate): DateParts {
  return { year: Number(date.slice(0, 4)), month: Number(date.slice(5, 7)), day: Number(date.slice(8, 10)) };
}

/** Days in `month` (1–12) of `year`, leap years included. */
export function daysInMonth(year: number, month: number): number {
  // Day 0 of the next month is the last day of this one.
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** True when the day exists in that month and the year is within {@link yearBounds}. */
export function isRealDate(year: number, month: number, day: number): boolean {
  return (
    Number.isInteger(year) &&
    year >= yearBounds.min &&
    year <= yearBounds.max &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month)
  );
}

/** `YYYY-MM-DD` of a date the caller knows exists. */
export function dateOf(year: number, month: number, day: number): LocalDate {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The first day of the month `offset` months away from `year`/`month` (negative goes back). */
export function monthStart(year: number, month: number, offset = 0): LocalDate {
  const index = year * 12 + (month - 1) + offset;
  return dateOf(Math.floor(index / 12), (index % 12) + 1, 1);
}

/** The last day of the month `offset` months away from `year`/`month`. */
export function monthEnd(year: number, month: number, offset = 0): LocalDate {
  const { year: y, month: m } = partsOf(monthStart(year, month, offset));
  return dateOf(y, m, daysInMonth(y, m));
}

/**
 * `date` moved by whole months, keeping the day of the month where it exists and otherwise taking the
 * month's last day (31 March minus one month is 28 or 29 February).
 */
export function addMonths(date: LocalDate, months: number): LocalDate {
  const { year, month, day } = partsOf(date);
  const { year: y, month: m } = partsOf(monthStart(year, month, months));
  return dateOf(y, m, Math.min(day, daysInMonth(y, m)));
}

/** The Monday of the week `date` is in; Innkeep's weeks run Monday to Sunday. */
export function weekStart(date: LocalDate): LocalDate {
  return addDays(date, -((dayOfWeek(date) + 6) % 7));
}

/** The quarter (1–4) a month (1–12) is in. */
export function quarterOf(month: number): number {
  return Math.floor((month - 1) / 3) + 1;
}

/** A date in words with its weekday, e.g. "Monday 22 June 2026": no day/month order to misread. */
export function describeDate(date: LocalDate): string {
  const { year, month, day } = partsOf(date);
  return `${weekdayNames[dayOfWeek(date)]} ${day} ${monthNames[month - 1]} ${year}`;
}
