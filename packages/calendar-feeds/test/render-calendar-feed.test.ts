import type { CalendarFeed } from '@innkeep/domain';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { renderCalendarFeed } from '../src/index.ts';

const feed: CalendarFeed = {
  listingId: 'lst_1',
  listingName: 'Seaside loft',
  timeZone: 'Europe/Lisbon',
  channel: 'airbnb',
  stays: [
    { uid: 'res_1', startDate: '2026-12-03', endDate: '2026-12-06', kind: 'reservation' },
    { uid: 'block_1', startDate: '2026-12-06', endDate: '2026-12-08', kind: 'block' },
  ],
  lastModified: new Date('2026-11-28T09:15:42.123Z'),
};

function eventsOf(body: string) {
  return new ICAL.Component(ICAL.parse(body)).getAllSubcomponents('vevent');
}

describe('renderCalendarFeed', () => {
  it('publishes a calendar channels accept, with a refresh interval', () => {
    const calendar = new ICAL.Component(ICAL.parse(renderCalendarFeed(feed)));
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstPropertyValue('prodid')).toBe('-//Innkeep//Calendar export//EN');
    expect(calendar.getFirstPropertyValue('calscale')).toBe('GREGORIAN');
    expect(calendar.getFirstPropertyValue('method')).toBe('PUBLISH');
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Seaside loft');
    expect(calendar.getFirstPropertyValue('x-published-ttl')).toBe('PT15M');
    expect(renderCalendarFeed(feed)).toContain('\r\nREFRESH-INTERVAL;VALUE=DURATION:PT15M\r\n');
  });

  it('makes each stay an all-day event whose end is the check-out day, left open', () => {
    const body = renderCalendarFeed(feed);
    const [reservation, block] = eventsOf(body);
    expect(reservation?.getFirstPropertyValue('uid')).toBe('res_1@innkeep');
    expect(reservation?.getFirstPropertyValue('summary')).toBe('Reserved');
    const start = reservation?.getFirstPropertyValue('dtstart') as ICAL.Time;
    const end = reservation?.getFirstPropertyValue('dtend') as ICAL.Time;
    expect(start.isDate).toBe(true);
    expect(end.isDate).toBe(true);
    expect(start.toString()).toBe('2026-12-03');
    expect(end.toString()).toBe('2026-12-06');
    expect(block?.getFirstPropertyValue('uid')).toBe('block_1@innkeep');
    expect(block?.getFirstPropertyValue('summary')).toBe('Not available');
    expect(body).toContain('\r\nDTSTART;VALUE=DATE:20261203\r\nDTEND;VALUE=DATE:20261206\r\n');
  });

  it('stamps every event with the feed’s last change, in UTC, so the same feed renders the same bytes', () => {
    const body = renderCalendarFeed(feed);
    expect(body.match(/\r\nDTSTAMP:20261128T091542Z\r\n/g)).toHaveLength(2);
    expect(renderCalendarFeed(feed)).toBe(body);
  });

  it('ends every line in CRLF and folds it at 75 octets, never inside a character', () => {
    const listingName = `Casa “Ölbaum”, sea; view \\ ok ${'très jolie maison '.repeat(8)}🌊 end`;
    const body = renderCalendarFeed({ ...feed, listingName });
    expect(body.endsWith('\r\n')).toBe(true);
    expect(body.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const lines = body.split('\r\n').slice(0, -1);
    for (const line of lines) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    expect(lines.filter((line) => line.startsWith(' ')).length).toBeGreaterThan(1);
    const unfolded = body.replace(/\r\n /g, '');
    expect(unfolded).toContain(`\r\nX-WR-CALNAME:${listingName.replace(/[\\;,]/g, (c) => `\\${c}`)}\r\n`);
  });

  it('escapes the calendar name as text, so clients read its commas, semicolons and line breaks back', () => {
    const body = renderCalendarFeed({ ...feed, listingName: 'Loft, sea; view \\ A\nB' });
    expect(body).toContain('\r\nX-WR-CALNAME:Loft\\, sea\\; view \\\\ A\\nB\r\n');
  });

  it('lists an empty calendar when nothing is held', () => {
    expect(eventsOf(renderCalendarFeed({ ...feed, stays: [] }))).toEqual([]);
  });
});
