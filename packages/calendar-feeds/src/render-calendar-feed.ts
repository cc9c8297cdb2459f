import type { CalendarFeed, CalendarFeedStay } from '@innkeep/domain';
import ICAL from 'ical.js';
import { foldContentLines } from './fold-content-lines.ts';

/**
 * How often calendar clients are asked to poll, as an iCalendar duration (REFRESH-INTERVAL, RFC 7986, and
 * its older spelling X-PUBLISHED-TTL). Channels poll on their own schedules (hours apart); clients that follow
 * the hint learn of a new booking within a quarter of an hour, and the ETag keeps each poll cheap.
 */
export const calendarFeedRefreshInterval = 'PT15M';

/** The iCalendar product identifier of every feed. */
const productId = '-//Innkeep//Calendar export//EN';

/** What a stay is called in the feed; never a guest's name, nor anything else about the guest. */
const summaries: Readonly<Record<CalendarFeedStay['kind'], string>> = {
  reservation: 'Reserved',
  block: 'Not available',
};

/**
 * A channel link's feed as an iCalendar stream (RFC 5545) that Airbnb, Vrbo and Booking.com import: one
 * all-day VEVENT per stay, from its first night up to its check-out date, which is excluded and so stays open
 * for the next arrival. UIDs are `<id>@innkeep`, stable while a stay's dates change. DTSTAMP is the feed's
 * `lastModified` in UTC: with METHOD PUBLISH it is when this version of the calendar was made (RFC 5545,
 * section 3.8.7.2), and the same feed always renders to the same bytes, so its ETag changes only with it.
 * Lines end in CRLF and fold at 75 octets.
 */
export function renderCalendarFeed(feed: CalendarFeed): string {
  const calendar = new ICAL.Component('vcalendar');
  calendar.addPropertyWithValue('prodid', productId);
  calendar.addPropertyWithValue('version', '2.0');
  calendar.addPropertyWithValue('calscale', 'GREGORIAN');
  calendar.addPropertyWithValue('method', 'PUBLISH');
  calendar.addPropertyWithValue('x-wr-calname', escapeText(feed.listingName));
  // ical.js does not know the property, so it writes the VALUE=DURATION that RFC 7986 requires.
  calendar.addPropertyWithValue('refresh-interval', ICAL.Duration.fromString(calendarFeedRefreshInterval));
  calendar.addPropertyWithValue('x-published-ttl', calendarFeedRefreshInterval);

  const stamp = ICAL.Time.fromJSDate(feed.lastModified, true);
  for (const stay of feed.stays) {
    const event = new ICAL.Component('vevent');
    event.addPropertyWithValue('uid', `${stay.uid}@innkeep`);
    event.addPropertyWithValue('dtstamp', stamp);
    event.addPropertyWithValue('dtstart', ICAL.Time.fromDateString(stay.startDate));
    event.addPropertyWithValue('dtend', ICAL.Time.fromDateString(stay.endDate));
    event.addPropertyWithValue('summary', summaries[stay.kind]);
    calendar.addSubcomponent(event);
  }
  return foldContentLines(`${calendar.toString()}\r\n`);
}

/**
 * `value` escaped as an iCalendar TEXT value (RFC 5545, section 3.3.11). ical.js escapes the properties it
 * knows as text, but writes an unknown X- property as it is given, and calendar clients read X-WR-CALNAME as
 * text: a listing named "Loft, sea view" would otherwise lose its comma to them.
 */
function escapeText(value: string): string {
  return value.replace(/[\\;,]/g, (character) => `\\${character}`).replace(/\r?\n/g, '\\n');
}
