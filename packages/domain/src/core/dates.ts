import { z } from 'zod';
import { DomainError } from './errors.ts';

/**
 * A calendar date in a listing's own time zone, `YYYY-MM-DD`. Stay dates are never turned into UTC
 * instants: a night is named by the local date it starts on, and a stay's `endDate` is the check-out date.
 */
export type LocalDate = string;

const msPerDay = 86_400_000;

/** English month names, January first; index + 1 is the month number. */
export const monthNames = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** English weekday names, Sunday first, as {@link dayOfWeek} numbers them. */
export const weekdayNames = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const;

/** Validates a `YYYY-MM-DD` date that exists on the calendar. */
export const localDateSchema = z.iso
  .date()
  .describe("A calendar date, YYYY-MM-DD, in the listing's time zone.");

/**
 * True when every value is a real `YYYY-MM-DD` date. Zod 4 runs an object's refinements even after one of
 * its fields failed, so a refinement doing date arithmetic must check this first instead of throwing.
 */
export function areLocalDates(...values: readonly (string | undefined)[]): boolean {
  return values.every((value) => value !== undefined && localDateSchema.safeParse(value).success);
}

/** Validates an IANA time zone name such as `Europe/Lisbon`. */
export const timeZoneSchema = z
  .string()
  .min(1)
  .max(64)
  .refine(isValidTimeZone, 'Not an IANA time zone name (e.g. America/New_York).')
  .describe('IANA time zone name, e.g. America/New_York.');

/** True when `name` is an IANA time zone this runtime knows. */
export function isValidTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

function toEpochDay(date: LocalDate): number {
  const time = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(time))
    throw new DomainError('invalid_argument', `${date} is not a valid YYYY-MM-DD date.`);
  return time / msPerDay;
}

function fromEpochDay(day: number): LocalDate {
  return new Date(day * msPerDay).toISOString().slice(0, 10);
}

/** `date` moved by `days` (negative moves back). */
export function addDays(date: LocalDate, days: number): LocalDate {
  return fromEpochDay(toEpochDay(date) + days);
}

/** Whole days from `from` to `to` (positive when `to` is later). */
export function daysBetween(from: LocalDate, to: LocalDate): number {
  return toEpochDay(to) - toEpochDay(from);
}

/** Day of the week, 0 = Sunday … 6 = Saturday. */
export function dayOfWeek(date: LocalDate): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

/** The nights of a stay: every date from `startDate` up to but not including `endDate`. */
export function nightsOf(startDate: LocalDate, endDate: LocalDate): LocalDate[] {
  const nights: LocalDate[] = [];
  const first = toEpochDay(startDate);
  const last = toEpochDay(endDate);
  for (let day = first; day < last; day += 1) nights.push(fromEpochDay(day));
  return nights;
}

// Building an Intl.DateTimeFormat costs far more than formatting with one, and reads call this per row: one
// formatter per time zone is kept (an account has a handful; the IANA list bounds it at a few hundred).
const localDateFormats = new Map<string, Intl.DateTimeFormat>();

/** The local calendar date of `instant` in `timeZone`. */
export function localDateIn(timeZone: string, instant: Date): LocalDate {
  let format = localDateFormats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    localDateFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(instant);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/**
 * Refuses `dates` before the listing's local today (in `timeZone` at `now`): those nights are history, and
 * analytics and payouts already count them. One rule for every write that names nights: prices,
 * availability and a stay's check-in. `refusal` leads the message, e.g. "Nights before the listing's today
 * cannot be changed".
 *
 * @throws invalid_argument naming today, the zone and every past date (`details.today`, `details.pastDates`).
 */
export function assertNotBeforeToday(
  timeZone: string,
  now: Date,
  dates: readonly LocalDate[],
  refusal: string,
): void {
  const today = localDateIn(timeZone, now);
  const past = [...new Set(dates.filter((date) => date < today))].sort();
  if (past.length === 0) return;
  throw new DomainError(
    'invalid_argument',
    `${refusal} (today is ${today} in ${timeZone}): ${past.join(', ')}.`,
    { details: { today, pastDates: past } },
  );
}

/** Later of two dates. */
export function maxDate(a: LocalDate, b: LocalDate): LocalDate {
  return a > b ? a : b;
}

/** Earlier of two dates. */
export function minDate(a: LocalDate, b: LocalDate): LocalDate {
  return a < b ? a : b;
}
