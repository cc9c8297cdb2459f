import { readFileSync } from 'node:fs';
import type { CalendarFeed } from '@innkeep/domain';
import { describe, expect, it } from 'vitest';
import {
  type CalendarFeedParseResult,
  maxCalendarFeedBytes,
  maxCalendarFeedEvents,
  parseCalendarFeed,
  renderCalendarFeed,
} from '../src/index.ts';

function fixture(name: string): string {
  return readFileSync(new URL(`fixtures/${name}`, import.meta.url), 'utf8');
}

/** The result's stays, failing the test with the refusal's reason if the feed was refused. */
function staysOf(result: CalendarFeedParseResult) {
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  return result.events;
}

function reasonOf(result: CalendarFeedParseResult): string {
  if (result.ok) throw new Error('the feed was accepted');
  return result.reason;
}

const lisbon = { timeZone: 'Europe/Lisbon' };

/** A calendar of the given VEVENT bodies, CRLF-ended. */
function calendarOf(...events: string[]): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//EN'];
  for (const event of events) lines.push('BEGIN:VEVENT', event, 'END:VEVENT');
  lines.push('END:VCALENDAR', '');
  return lines.join('\r\n');
}

describe('parseCalendarFeed', () => {
  it('reads an Airbnb feed: all-day stays, check-out day excluded, folded descriptions', () => {
    expect(staysOf(parseCalendarFeed(fixture('airbnb.ics'), lisbon))).toEqual([
      {
        uid: '1418fb94e984-6a0b2c4d8e1f3a5b7c9d0e2f4a6b8c0d@airbnb.com',
        startDate: '2026-12-03',
        endDate: '2026-12-06',
        summary: 'Reserved',
      },
      {
        uid: '1418fb94e984-0f1e2d3c4b5a69788796a5b4c3d2e1f0@airbnb.com',
        startDate: '2026-12-15',
        endDate: '2026-12-20',
        summary: 'Airbnb (Not available)',
      },
      {
        uid: '1418fb94e984-aa11bb22cc33dd44ee55ff6600778899@airbnb.com',
        startDate: '2026-10-30',
        endDate: '2026-11-02',
        summary: 'Reserved',
      },
    ]);
  });

  it('reads the same feed with LF line ends and a byte order mark', () => {
    const lfOnly = `\uFEFF${fixture('airbnb.ics').replace(/\r\n/g, '\n')}`;
    expect(lfOnly).not.toContain('\r');
    expect(parseCalendarFeed(lfOnly, lisbon)).toEqual(parseCalendarFeed(fixture('airbnb.ics'), lisbon));
  });

  it('unfolds folded lines, CRLF or LF ended', () => {
    const folded = calendarOf(
      'UID:folded-\r\n uid@example.com\r\nDTSTART;VALUE=DATE:2026\r\n 1203\r\nSUMMARY:Not\r\n  available',
    );
    const expected = [
      {
        uid: 'folded-uid@example.com',
        startDate: '2026-12-03',
        endDate: '2026-12-04',
        summary: 'Not available',
      },
    ];
    expect(staysOf(parseCalendarFeed(folded, lisbon))).toEqual(expected);
    expect(staysOf(parseCalendarFeed(folded.replace(/\r\n/g, '\n'), lisbon))).toEqual(expected);
  });

  it('reads a date written without VALUE=DATE as a date', () => {
    const body = calendarOf('UID:a\r\nDTSTART:20261212\r\nDTEND:20261214\r\nSUMMARY:CLOSED - Not available');
    expect(staysOf(parseCalendarFeed(body, { timeZone: 'Pacific/Auckland' }))).toEqual([
      { uid: 'a', startDate: '2026-12-12', endDate: '2026-12-14', summary: 'CLOSED - Not available' },
    ]);
  });

  it('leaves out stays that end on or before the listing’s today', () => {
    const stays = staysOf(parseCalendarFeed(fixture('airbnb.ics'), { ...lisbon, today: '2026-12-06' }));
    expect(stays.map((stay) => stay.startDate)).toEqual(['2026-12-15']);
  });

  it('reads a Vrbo feed (LF only): X- properties, one night without DTEND, DURATION', () => {
    const body = fixture('vrbo.ics');
    expect(body).not.toContain('\r');
    expect(staysOf(parseCalendarFeed(body, lisbon))).toEqual([
      {
        uid: '9f3c1e27-5b4a-4d8e-a1c2-7e6f5d4c3b2a',
        startDate: '2026-12-08',
        endDate: '2026-12-11',
        summary: 'Reserved - Maria',
      },
      {
        uid: '4b8d2f61-0c3e-4a7b-9d1f-2e5c8a6b4f30',
        startDate: '2026-12-22',
        endDate: '2026-12-23',
        summary: 'Blocked',
      },
      {
        uid: 'c0ffee00-1111-4222-8333-944455556666',
        startDate: '2027-01-04',
        endDate: '2027-01-08',
        summary: 'Blocked',
      },
    ]);
  });

  it('reads a Booking.com feed', () => {
    expect(staysOf(parseCalendarFeed(fixture('booking.ics'), lisbon))).toEqual([
      {
        uid: '3d5a0c9e41f2b7a86e1d0c4b9a8f7e6d@booking.com',
        startDate: '2026-12-12',
        endDate: '2026-12-14',
        summary: 'CLOSED - Not available',
      },
      {
        uid: '8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b@booking.com',
        startDate: '2027-01-01',
        endDate: '2027-01-03',
        summary: 'CLOSED - Not available',
      },
    ]);
  });

  describe('date-time events', () => {
    function datesIn(timeZone: string) {
      const stays = staysOf(parseCalendarFeed(fixture('date-times.ics'), { timeZone }));
      return Object.fromEntries(
        stays.map((stay) => [stay.uid.replace(/@example\.com$/, ''), [stay.startDate, stay.endDate]]),
      );
    }

    it('count by their local dates in the listing’s time zone, at least one night', () => {
      expect(datesIn('Europe/Paris')).toEqual({
        'paris-stay': ['2026-12-10', '2026-12-13'],
        'windows-zone-stay': ['2026-12-18', '2026-12-20'],
        // 23:00Z is midnight in Paris: the next day.
        'utc-stay': ['2026-12-15', '2026-12-16'],
        // Arrival and departure the same day still hold that night.
        'day-use': ['2026-12-22', '2026-12-23'],
        'duration-stay': ['2026-12-28', '2026-12-31'],
      });
    });

    it('move across the date line with the listing’s time zone', () => {
      expect(datesIn('Pacific/Auckland')['utc-stay']).toEqual(['2026-12-15', '2026-12-17']);
      expect(datesIn('America/Los_Angeles')['utc-stay']).toEqual(['2026-12-14', '2026-12-16']);
    });

    it('read a TZID that is no IANA name through the feed’s VTIMEZONE', () => {
      // 00:30 in Paris is 23:30 the day before in London: read as floating time, it would stay on the 18th.
      expect(datesIn('Europe/London')['windows-zone-stay']).toEqual(['2026-12-17', '2026-12-20']);
    });
  });

  it('skips cancelled, repeating, backwards and repeated-UID events, saying why, and derives missing UIDs', () => {
    const result = parseCalendarFeed(fixture('skipped-events.ics'), lisbon);
    if (!result.ok) throw new Error(result.reason);
    expect(result.events.map((stay) => [stay.uid, stay.startDate, stay.endDate])).toEqual([
      ['kept@example.com', '2026-12-03', '2026-12-05'],
      [expect.stringMatching(/^derived-[0-9a-f]{32}$/), '2026-12-14', '2026-12-16'],
    ]);
    expect(result.skipped).toEqual([
      { uid: 'cancelled@example.com', reason: 'The event is cancelled.' },
      { uid: 'weekly@example.com', reason: expect.stringContaining('repeats') },
      { uid: 'backwards@example.com', reason: 'The event does not end after it starts.' },
      { uid: 'kept@example.com', reason: 'Another event of the calendar has the same UID.' },
    ]);
  });

  it('derives the same UID for the same event, and another once it moves', () => {
    const event = (end: string) =>
      `DTSTART;VALUE=DATE:20261214\r\nDTEND;VALUE=DATE:${end}\r\nSUMMARY:Not available`;
    const uidOf = (body: string) => staysOf(parseCalendarFeed(body, lisbon))[0]?.uid;
    const first = uidOf(calendarOf(event('20261216')));
    expect(first).toMatch(/^derived-/);
    expect(uidOf(calendarOf(event('20261216')))).toBe(first);
    expect(uidOf(calendarOf(event('20261217')))).not.toBe(first);
  });

  it('reads back our own export (round trip)', () => {
    const feed: CalendarFeed = {
      listingId: 'lst_1',
      listingName: 'Loft, sea view',
      timeZone: 'Europe/Lisbon',
      channel: 'airbnb',
      stays: [
        { uid: 'res_1', startDate: '2026-12-03', endDate: '2026-12-06', kind: 'reservation' },
        { uid: 'block_1', startDate: '2026-12-06', endDate: '2026-12-08', kind: 'block' },
      ],
      lastModified: new Date('2026-11-28T09:15:42.123Z'),
    };
    expect(staysOf(parseCalendarFeed(renderCalendarFeed(feed), lisbon))).toEqual([
      { uid: 'res_1@innkeep', startDate: '2026-12-03', endDate: '2026-12-06', summary: 'Reserved' },
      { uid: 'block_1@innkeep', startDate: '2026-12-06', endDate: '2026-12-08', summary: 'Not available' },
    ]);
  });

  it('accepts a calendar without events', () => {
    expect(parseCalendarFeed(calendarOf(), lisbon)).toEqual({ ok: true, events: [], skipped: [] });
  });

  describe('refuses, with a reason a host can read', () => {
    it('a web page', () => {
      const page =
        '\n  <!DOCTYPE html>\n<html><head><title>Log in</title></head><body>BEGIN:VCALENDAR</body></html>';
      expect(reasonOf(parseCalendarFeed(page, lisbon))).toBe(
        'The address returned a web page, not a calendar.',
      );
    });

    it('an empty answer', () => {
      expect(reasonOf(parseCalendarFeed(' \r\n', lisbon))).toBe(
        'The address returned an empty answer, not a calendar.',
      );
    });

    it('anything not beginning with BEGIN:VCALENDAR', () => {
      expect(reasonOf(parseCalendarFeed('{"error":"not found"}', lisbon))).toContain('BEGIN:VCALENDAR');
      expect(reasonOf(parseCalendarFeed('BEGIN:VCARD\r\nEND:VCARD\r\n', lisbon))).toContain(
        'BEGIN:VCALENDAR',
      );
    });

    it('text ical.js cannot parse', () => {
      const truncated = calendarOf('UID:a\r\nDTSTART;VALUE=DATE:20261203').replace('END:VCALENDAR\r\n', '');
      expect(reasonOf(parseCalendarFeed(truncated, lisbon))).toMatch(/^The calendar could not be read: /);
      expect(reasonOf(parseCalendarFeed('BEGIN:VCALENDAR\r\nnonsense\r\nEND:VCALENDAR\r\n', lisbon))).toMatch(
        /^The calendar could not be read: /,
      );
    });

    it('an event with an impossible date', () => {
      const february31 = calendarOf('UID:a\r\nDTSTART;VALUE=DATE:20270231\r\nDTEND;VALUE=DATE:20270303');
      expect(reasonOf(parseCalendarFeed(february31, lisbon))).toBe(
        'An event of the calendar has an impossible DTSTART (2027-02-31).',
      );
      const hour25 = calendarOf('UID:a\r\nDTSTART:20261203T150000Z\r\nDTEND:20261205T250000Z');
      expect(reasonOf(parseCalendarFeed(hour25, lisbon))).toBe(
        'An event of the calendar has an impossible DTEND (2026-12-05T25:00:00Z).',
      );
      const garbled = calendarOf('UID:a\r\nDTSTART;VALUE=DATE:2026');
      expect(reasonOf(parseCalendarFeed(garbled, lisbon))).toContain('impossible DTSTART');
    });

    it('more events than a listing’s calendar holds', () => {
      const event = 'UID:a\r\nDTSTART;VALUE=DATE:20261203\r\nDTEND;VALUE=DATE:20261204';
      const atLimit = calendarOf(...Array.from({ length: maxCalendarFeedEvents }, () => event));
      expect(parseCalendarFeed(atLimit, lisbon).ok).toBe(true);
      const overLimit = calendarOf(...Array.from({ length: maxCalendarFeedEvents + 1 }, () => event));
      expect(reasonOf(parseCalendarFeed(overLimit, lisbon))).toBe(
        'The calendar holds 5001 events, more than the 5000 one listing’s calendar may hold.',
      );
    });

    it('a body larger than the limit', () => {
      const padding = `X-PADDING:${'x'.repeat(70)}\r\n`.repeat(Math.ceil(maxCalendarFeedBytes / 80) + 1);
      const large = calendarOf().replace('END:VCALENDAR', `${padding}END:VCALENDAR`);
      expect(reasonOf(parseCalendarFeed(large, lisbon))).toBe(
        'The calendar is larger than 2 MiB, far more than one listing’s calendar.',
      );
    });
  });

  it('throws on an unknown listing time zone, the caller’s mistake rather than the feed’s', () => {
    expect(() => parseCalendarFeed(fixture('booking.ics'), { timeZone: 'Mars/Olympus' })).toThrow(RangeError);
  });
});
