import { createHash } from 'node:crypto';
import ICAL from 'ical.js';

/**
 * The largest feed accepted, in octets (2 MiB). A channel's event takes 200 to 400 octets, so this leaves room
 * for {@link maxCalendarFeedEvents} of them and refuses anything far larger, which is not a listing's calendar
 * (a mistaken URL to a shared calendar or a file dump) and would cost the poller memory and time to parse.
 */
export const maxCalendarFeedBytes = 2 * 1024 * 1024;

/**
 * The most events a feed may hold. A listing has at most a few hundred stays a year, and channels publish a
 * year or two ahead; far more events means the URL is not one listing's calendar.
 */
export const maxCalendarFeedEvents = 5_000;

/** One stay read from a channel's feed: the nights it holds on the listing. */
export interface ImportedStay {
  /** The event's UID, or `derived-<hash>` for an event without one (see {@link parseCalendarFeed}). */
  readonly uid: string;
  /** The first night, a `YYYY-MM-DD` date in the listing's time zone. */
  readonly startDate: string;
  /** The check-out day, excluded: a `YYYY-MM-DD` date in the listing's time zone, after `startDate`. */
  readonly endDate: string;
  /** The event's SUMMARY ("Reserved", "Airbnb (Not available)"…), only to show the host; null when absent. */
  readonly summary: string | null;
}

/** An event of the feed left out, and why, in a sentence a host can read. */
export interface SkippedCalendarEvent {
  /** The event's UID, derived as for {@link ImportedStay.uid} when it has none. */
  readonly uid: string;
  readonly reason: string;
}

/** What {@link parseCalendarFeed} makes of a feed: its stays, or why the whole feed was refused. */
export type CalendarFeedParseResult =
  | {
      readonly ok: true;
      readonly events: readonly ImportedStay[];
      readonly skipped: readonly SkippedCalendarEvent[];
    }
  | { readonly ok: false; readonly reason: string };

/** How {@link parseCalendarFeed} reads a feed for one listing. */
export interface ParseCalendarFeedOptions {
  /** The listing's IANA time zone: date-time events count by their local dates there. */
  readonly timeZone: string;
  /**
   * The listing's today (`YYYY-MM-DD`, in its time zone). When given, stays that end on or before it are left
   * out: they hold no night still to come. Feeds keep past stays for months, and the poller needs none.
   */
  readonly today?: string;
}

/** A DTSTART or DTEND as read: a calendar date, or a date-time resolved to an instant. */
type EventTime =
  | { readonly kind: 'date'; readonly date: string }
  | { readonly kind: 'date-time'; readonly date: string; readonly instant: number };

/** Thrown inside the parser when the feed holds an impossible date; the whole feed is refused with its message. */
class ImpossibleDateError extends Error {}

type JCalProperty = [name: string, parameters: Record<string, unknown>, type: string, ...values: unknown[]];

const secondsPerDay = 86_400;

/**
 * Reads a channel's iCalendar feed (RFC 5545) as the stays it holds on a listing, in the shapes Airbnb, Vrbo
 * and Booking.com publish: all-day events (`DTSTART;VALUE=DATE`, `DTEND` the check-out day), date-time events
 * in UTC or with a TZID (an IANA name, or one the feed's VTIMEZONE defines) counted by their local dates in
 * the listing's `timeZone`, at least one night; a DTSTART without DTEND lasts its DURATION or one night.
 * Folded lines, CRLF or LF, VTIMEZONE blocks and X- properties are all read.
 *
 * Left out, each with a reason in `skipped`: cancelled events, events ending before or when they start,
 * recurring events (RRULE, RDATE) and their overrides (RECURRENCE-ID), which channels do not publish, and a
 * UID seen before. An event without UID gets `derived-` and the first 32 hex digits of the SHA-256 of its
 * DTSTART, DTEND, DURATION and SUMMARY as written, so the same event keeps its UID from poll to poll, and
 * moving it reads as one stay gone and another come.
 *
 * The whole feed is refused, with a reason a host can read, when it is empty, a web page, anything not
 * beginning with BEGIN:VCALENDAR, unparseable, over {@link maxCalendarFeedBytes} or
 * {@link maxCalendarFeedEvents}, or when an event has an impossible date: a feed that is wrong in part cannot
 * be trusted to free the nights it no longer lists.
 */
export function parseCalendarFeed(body: string, options: ParseCalendarFeedOptions): CalendarFeedParseResult {
  // An unknown listing time zone is the caller's mistake, not the feed's: this throws a RangeError.
  formatterFor(options.timeZone);
  const refusal = refuseBeforeParsing(body);
  if (refusal !== undefined) return { ok: false, reason: refusal };

  let parsed: unknown[];
  try {
    parsed = ICAL.parse(body.replace(/^\uFEFF/, '').trimStart()) as unknown[];
  } catch (error) {
    return { ok: false, reason: `The calendar could not be read: ${(error as Error).message}.` };
  }
  // Several VCALENDARs in one stream come back as an array; their events are read alike.
  const calendars = (Array.isArray(parsed[0]) ? parsed : [parsed]) as unknown[][];
  const components = calendars.map((calendar) => new ICAL.Component(calendar as never));
  const timeZones = readTimeZones(components);
  const events = components.flatMap((calendar) => calendar.getAllSubcomponents('vevent'));

  const stays: ImportedStay[] = [];
  const skipped: SkippedCalendarEvent[] = [];
  const seenUids = new Set<string>();
  try {
    for (const event of events) {
      const outcome = readEvent(event, options.timeZone, timeZones);
      if ('reason' in outcome) {
        skipped.push(outcome);
      } else if (seenUids.has(outcome.uid)) {
        skipped.push({ uid: outcome.uid, reason: 'Another event of the calendar has the same UID.' });
      } else {
        seenUids.add(outcome.uid);
        if (options.today === undefined || outcome.endDate > options.today) stays.push(outcome);
      }
    }
  } catch (error) {
    if (error instanceof ImpossibleDateError) return { ok: false, reason: error.message };
    throw error;
  }
  return { ok: true, events: stays, skipped };
}

/** Why the raw body cannot be a calendar worth parsing, or undefined. Cheap checks come before ical.js. */
function refuseBeforeParsing(body: string): string | undefined {
  if (Buffer.byteLength(body, 'utf8') > maxCalendarFeedBytes) {
    return `The calendar is larger than ${maxCalendarFeedBytes / 1024 / 1024} MiB, far more than one listing’s calendar.`;
  }
  const start = body.replace(/^\uFEFF/, '').trimStart();
  if (start === '') return 'The address returned an empty answer, not a calendar.';
  if (start.startsWith('<')) return 'The address returned a web page, not a calendar.';
  if (!/^BEGIN:VCALENDAR\r?\n/i.test(start)) {
    return 'The address did not return an iCalendar file (it should begin with BEGIN:VCALENDAR).';
  }
  // Counted on the text so an oversized feed is refused before ical.js builds it in memory.
  const eventCount = start.match(/^BEGIN:VEVENT\r?$/gim)?.length ?? 0;
  if (eventCount > maxCalendarFeedEvents) {
    return `The calendar holds ${eventCount} events, more than the ${maxCalendarFeedEvents} one listing’s calendar may hold.`;
  }
  return undefined;
}

/** The feed's VTIMEZONEs by TZID, for TZIDs that are not IANA names (Windows names, vendor prefixes). */
function readTimeZones(calendars: readonly ICAL.Component[]): ReadonlyMap<string, ICAL.Timezone> {
  const zones = new Map<string, ICAL.Timezone>();
  for (const component of calendars.flatMap((calendar) => calendar.getAllSubcomponents('vtimezone'))) {
    const zone = new ICAL.Timezone(component);
    zones.set(zone.tzid, zone);
  }
  return zones;
}

function readEvent(
  event: ICAL.Component,
  timeZone: string,
  feedTimeZones: ReadonlyMap<string, ICAL.Timezone>,
): ImportedStay | SkippedCalendarEvent {
  const summary = textOf(event, 'summary');
  const uid = textOf(event, 'uid') ?? derivedUid(event, summary);
  if (textOf(event, 'status')?.toUpperCase() === 'CANCELLED')
    return { uid, reason: 'The event is cancelled.' };
  if (event.hasProperty('rrule') || event.hasProperty('rdate') || event.hasProperty('recurrence-id')) {
    return {
      uid,
      reason:
        'The event repeats (RRULE, RDATE or RECURRENCE-ID), which channels do not publish; it was not read.',
    };
  }
  const startProperty = event.getFirstProperty('dtstart');
  if (startProperty === null) return { uid, reason: 'The event has no start (DTSTART).' };
  const start = readEventTime(startProperty.toJSON() as JCalProperty, timeZone, feedTimeZones);
  const endProperty = event.getFirstProperty('dtend');
  const end =
    endProperty === null
      ? endFromDuration(start, event.getFirstProperty('duration'), timeZone)
      : readEventTime(endProperty.toJSON() as JCalProperty, timeZone, feedTimeZones);
  if (end === undefined) return { uid, reason: 'The event has an unreadable DURATION.' };

  const endsAfterStart =
    start.kind === 'date-time' && end.kind === 'date-time'
      ? end.instant > start.instant
      : end.date > start.date;
  if (!endsAfterStart) return { uid, reason: 'The event does not end after it starts.' };
  // A date-time stay within one local day (a same-day check-in and check-out) still holds its night.
  const endDate = end.date > start.date ? end.date : addDays(start.date, 1);
  return { uid, startDate: start.date, endDate, summary };
}

/** A DTSTART plus its DURATION, or one night when it has none (Airbnb and others omit DTEND for one night). */
function endFromDuration(
  start: EventTime,
  durationProperty: ICAL.Property | null,
  timeZone: string,
): EventTime | undefined {
  if (durationProperty === null) return { kind: 'date', date: addDays(start.date, 1) };
  let seconds: number;
  try {
    seconds = ICAL.Duration.fromString(String(durationProperty.toJSON()[3])).toSeconds();
  } catch {
    return undefined;
  }
  if (start.kind === 'date')
    return { kind: 'date', date: addDays(start.date, Math.floor(seconds / secondsPerDay)) };
  const instant = start.instant + seconds * 1000;
  return { kind: 'date-time', date: localDateOf(instant, timeZone), instant };
}

/**
 * A DTSTART or DTEND value as ical.js leaves it in jCal (`2026-12-03`, `2026-12-03T15:00:00`, with `Z` in
 * UTC), checked by hand: ical.js keeps impossible values such as `2026-02-31` as they are.
 */
function readEventTime(
  [name, parameters, type, value]: JCalProperty,
  timeZone: string,
  feedTimeZones: ReadonlyMap<string, ICAL.Timezone>,
): EventTime {
  const text = String(value);
  // `DTSTART:20261203`, a date without VALUE=DATE, reaches us as `2026-12-03T::`: some exporters write it.
  const dateMatch = /^(\d{4})-(\d{2})-(\d{2})(?:T::)?$/.exec(text);
  if (dateMatch !== null && (type === 'date' || text.endsWith('T::'))) {
    const [year, month, day] = dateMatch.slice(1).map(Number) as [number, number, number];
    assertPossible(name, text, year, month, day, 0, 0, 0);
    return { kind: 'date', date: text.slice(0, 10) };
  }
  const dateTimeMatch = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(Z?)$/.exec(text);
  if (dateTimeMatch === null) throw impossibleDate(name, text);
  const [year, month, day, hour, minute, second] = dateTimeMatch.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  assertPossible(name, text, year, month, day, hour, minute, second);
  const wallClock = Date.UTC(year, month - 1, day, hour, minute, second);
  const tzid = typeof parameters.tzid === 'string' ? parameters.tzid : undefined;
  let instant: number;
  if (dateTimeMatch[7] === 'Z') {
    instant = wallClock;
  } else if (tzid !== undefined && isKnownTimeZone(tzid)) {
    instant = instantOfWallClock(wallClock, tzid);
  } else if (tzid !== undefined && feedTimeZones.has(tzid)) {
    const zone = feedTimeZones.get(tzid) as ICAL.Timezone;
    const time = new ICAL.Time({ year, month, day, hour, minute, second, isDate: false }, zone);
    instant = time.toUnixTime() * 1000;
  } else {
    // Floating time, or a TZID nothing defines: read as the listing's own wall clock.
    instant = instantOfWallClock(wallClock, timeZone);
  }
  return { kind: 'date-time', date: localDateOf(instant, timeZone), instant };
}

function assertPossible(
  name: string,
  text: string,
  ...[year, month, day, hour, minute, second]: [number, number, number, number, number, number]
): void {
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const possible =
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth &&
    hour <= 23 &&
    minute <= 59 &&
    // 60 is a leap second.
    second <= 60;
  if (!possible) throw impossibleDate(name, text);
}

function impossibleDate(name: string, text: string): ImpossibleDateError {
  return new ImpossibleDateError(
    `An event of the calendar has an impossible ${name.toUpperCase()} (${text.replace(/T::$/, '')}).`,
  );
}

/**
 * `derived-` and 32 hex digits of the SHA-256 of the event's DTSTART, DTEND, DURATION and SUMMARY lines as
 * written (parameters included), so the same event always gets the same UID.
 */
function derivedUid(event: ICAL.Component, summary: string | null): string {
  const parts = ['dtstart', 'dtend', 'duration'].map((name) =>
    JSON.stringify(event.getFirstProperty(name)?.toJSON()),
  );
  parts.push(summary ?? '');
  return `derived-${createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 32)}`;
}

function textOf(event: ICAL.Component, name: string): string | null {
  const value = event.getFirstPropertyValue(name);
  return typeof value === 'string' && value !== '' ? value : null;
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * secondsPerDay * 1000).toISOString().slice(0, 10);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** A cached formatter of an instant's wall clock in `timeZone`; throws a RangeError for an unknown zone. */
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

function isKnownTimeZone(tzid: string): boolean {
  try {
    formatterFor(tzid);
    return true;
  } catch {
    return false;
  }
}

/** The wall clock of `instant` in `timeZone`, as milliseconds of a UTC date with the same fields. */
function wallClockOf(instant: number, timeZone: string): number {
  const fields = Object.fromEntries(
    formatterFor(timeZone)
      .formatToParts(instant)
      .map((part) => [part.type, Number(part.value)]),
  ) as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>;
  return Date.UTC(fields.year, fields.month - 1, fields.day, fields.hour, fields.minute, fields.second);
}

/**
 * The instant a wall clock shows in `timeZone`. The zone's offset is read at a first guess and read again at
 * the result, which settles it across a daylight-saving change; a wall clock the change skips lands after it.
 */
function instantOfWallClock(wallClock: number, timeZone: string): number {
  const firstGuess = wallClock - (wallClockOf(wallClock, timeZone) - wallClock);
  return wallClock - (wallClockOf(firstGuess, timeZone) - firstGuess);
}

function localDateOf(instant: number, timeZone: string): string {
  return new Date(wallClockOf(instant, timeZone)).toISOString().slice(0, 10);
}
