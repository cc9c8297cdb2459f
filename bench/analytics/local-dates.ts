// Date arithmetic for the baselines, done the way a client of a REST API would: in JavaScript, on the
// `YYYY-MM-DD` strings and UTC timestamps the rows carry.

const msPerDay = 86_400_000;

/** Days since 1970-01-01 of a `YYYY-MM-DD` date. */
export function dayNumber(date: string): number {
  return (
    Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / msPerDay
  );
}

/** The `YYYY-MM-DD` date of a day number. */
function dateOfDay(day: number): string {
  return new Date(day * msPerDay).toISOString().slice(0, 10);
}

/** `date` plus `days` days. */
export function addDays(date: string, days: number): string {
  return dateOfDay(dayNumber(date) + days);
}

/** ISO weekday of a date: 1 = Monday … 7 = Sunday. */
export function isoWeekday(date: string): number {
  const weekday = new Date(dayNumber(date) * msPerDay).getUTCDay();
  return weekday === 0 ? 7 : weekday;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The local calendar date of an instant in an IANA time zone, `YYYY-MM-DD`. */
export function localDate(instant: Date, timeZone: string): string {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    // en-CA formats dates as YYYY-MM-DD.
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter.format(instant);
}

/** A period of nights, both ends included. */
export interface NightRange {
  readonly startDate: string;
  readonly endDate: string;
}

/** Nights of `range`, both ends included. */
export function nightsIn(range: NightRange): number {
  return dayNumber(range.endDate) - dayNumber(range.startDate) + 1;
}

/** How many nights `[from, to)` (to exclusive) shares with `range`. */
export function overlapNights(from: string, to: string, range: NightRange): number {
  const start = Math.max(dayNumber(from), dayNumber(range.startDate));
  const end = Math.min(dayNumber(to), dayNumber(range.endDate) + 1);
  return Math.max(0, end - start);
}

/** The same number of nights just before `range`. */
export function previousRange(range: NightRange): NightRange {
  const nights = nightsIn(range);
  return { startDate: addDays(range.startDate, -nights), endDate: addDays(range.startDate, -1) };
}

/** The same calendar dates a year earlier (29 February becomes the 28th). */
export function rangeLastYear(range: NightRange): NightRange {
  return { startDate: yearEarlier(range.startDate), endDate: yearEarlier(range.endDate) };
}

function yearEarlier(date: string): string {
  const year = String(Number(date.slice(0, 4)) - 1).padStart(4, '0');
  const monthDay = date.slice(5) === '02-29' ? '02-28' : date.slice(5);
  return `${year}-${monthDay}`;
}

/** The instant a local calendar day begins in an IANA time zone (00:00 there). */
export function startOfLocalDay(date: string, timeZone: string): Date {
  const midnightUtc = Date.UTC(
    Number(date.slice(0, 4)),
    Number(date.slice(5, 7)) - 1,
    Number(date.slice(8, 10)),
  );
  // The zone's offset at a guess, then again at the corrected instant (a DST change may lie between).
  let instant = midnightUtc - zoneOffsetMs(new Date(midnightUtc), timeZone);
  instant = midnightUtc - zoneOffsetMs(new Date(instant), timeZone);
  return new Date(instant);
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** Local wall-clock time minus UTC at `instant`, in milliseconds. */
function zoneOffsetMs(instant: Date, timeZone: string): number {
  let formatter = offsetFormatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    offsetFormatters.set(timeZone, formatter);
  }
  const part = (type: string) =>
    Number(formatter.formatToParts(instant).find((entry) => entry.type === type)?.value);
  const wallClock = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  );
  return wallClock - Math.floor(instant.getTime() / 1000) * 1000;
}
