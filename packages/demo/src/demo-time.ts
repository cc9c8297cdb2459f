import type { LocalDate } from '@innkeep/domain';

// Dates as whole days since 1970-01-01 ("epoch days") and instants as epoch milliseconds: the generator
// does millions of date steps, and integers are far cheaper than parsing and formatting strings each time.

/** Milliseconds in a day. */
export const msPerDay = 86_400_000;
/** Milliseconds in an hour. */
export const msPerHour = 3_600_000;
/** Milliseconds in a minute. */
export const msPerMinute = 60_000;

/** The epoch day of a `YYYY-MM-DD` date. */
export function epochDay(date: LocalDate): number {
  return Math.round(Date.parse(`${date}T00:00:00Z`) / msPerDay);
}

/** The `YYYY-MM-DD` date of an epoch day. */
export function dateOfDay(day: number): LocalDate {
  return new Date(day * msPerDay).toISOString().slice(0, 10);
}

/** Day of the week of an epoch day, 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday). */
export function weekdayOf(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

/** Month of an epoch day, 0 = January. */
export function monthOf(day: number): number {
  return new Date(day * msPerDay).getUTCMonth();
}

/** Year of an epoch day. */
export function yearOf(day: number): number {
  return new Date(day * msPerDay).getUTCFullYear();
}

/** The epoch day of a calendar date; a day past the month's end clamps to its last day (Feb 29 → 28). */
export function dayOfCalendar(year: number, month: number, dayOfMonth: number): number {
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(year, month, Math.min(dayOfMonth, lastDay)) / msPerDay;
}

/** `day` moved by whole months, keeping the day of the month where it exists. */
export function addMonths(day: number, months: number): number {
  const date = new Date(day * msPerDay);
  return dayOfCalendar(date.getUTCFullYear(), date.getUTCMonth() + months, date.getUTCDate());
}

/** An ISO 8601 UTC timestamp of an instant. */
export function isoOf(instant: number): string {
  return new Date(instant).toISOString();
}

/** Wall-clock conversions for one IANA time zone, cached per day. */
export interface ZoneTime {
  /** UTC offset in minutes at local noon of `day` (positive east of Greenwich). */
  offsetMinutes(day: number): number;
  /** The instant of `minuteOfDay` local time on `day`. Meant for times from 04:00 on, after DST switches. */
  instant(day: number, minuteOfDay: number): number;
  /** The local epoch day an instant falls on. */
  localDay(instant: number): number;
}

/** A {@link ZoneTime} for `timeZone`. */
export function createZoneTime(timeZone: string): ZoneTime {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  });
  const cache = new Map<number, number>();
  const offsetMinutes = (day: number): number => {
    const cached = cache.get(day);
    if (cached !== undefined) return cached;
    const noon = day * msPerDay + 12 * msPerHour;
    const parts: Record<string, number> = {};
    for (const part of format.formatToParts(new Date(noon))) parts[part.type] = Number(part.value);
    const wall = Date.UTC(
      parts.year ?? 1970,
      (parts.month ?? 1) - 1,
      parts.day ?? 1,
      parts.hour ?? 0,
      parts.minute ?? 0,
    );
    const offset = Math.round((wall - noon) / msPerMinute);
    cache.set(day, offset);
    return offset;
  };
  return {
    offsetMinutes,
    instant: (day, minuteOfDay) => (day * 1440 + minuteOfDay - offsetMinutes(day)) * msPerMinute,
    localDay: (instant) => {
      const utcDay = Math.floor(instant / msPerDay);
      return Math.floor((instant + offsetMinutes(utcDay) * msPerMinute) / msPerDay);
    },
  };
}
