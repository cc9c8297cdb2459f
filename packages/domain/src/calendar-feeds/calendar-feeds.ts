import type { HoldKind } from '../calendar/holds.ts';
import { addDays, type LocalDate } from '../core/dates.ts';
import type { Channel } from '../listings/listings.ts';

/** Path prefix of calendar export URLs; the feed is served at `/ical/<token>.ics`. */
export const calendarFeedPathPrefix = '/ical/';

/** File extension of a calendar export URL, after the token. */
export const calendarFeedFileExtension = '.ics';

/**
 * Days before the listing's today a feed still lists: channels keep a stay that just ended on their
 * calendars, and a stay in progress must never vanish from the feed while the guest is in the house.
 */
export const calendarFeedPastDays = 30;

/** Days after the listing's today a feed lists: two years, as far ahead as channels open their calendars. */
export const calendarFeedFutureDays = 730;

/**
 * The calendar export URL of a channel link's `token`: `${baseUrl}/ical/<token>.ics`, or the path alone when
 * the deployment's public base URL is not known (the caller prepends it).
 * @param baseUrl - the public address, without a trailing slash.
 */
export function calendarExportUrl(baseUrl: string | undefined, token: string): string {
  return `${baseUrl ?? ''}${calendarFeedPathPrefix}${token}${calendarFeedFileExtension}`;
}

/**
 * The nights a feed lists for a listing whose local date is `today`: from {@link calendarFeedPastDays} before
 * up to (not including) {@link calendarFeedFutureDays} after. A stay that overlaps them is listed whole.
 */
export function calendarFeedWindow(today: LocalDate): { readonly from: LocalDate; readonly to: LocalDate } {
  return { from: addDays(today, -calendarFeedPastDays), to: addDays(today, calendarFeedFutureDays) };
}

/** One run of unavailable nights in a feed, without any guest detail. */
export interface CalendarFeedStay {
  /** Stable across changes of the stay's dates: the reservation's id, or the block's. */
  readonly uid: string;
  /** The first unavailable night. */
  readonly startDate: LocalDate;
  /** The day after the last unavailable night (a reservation's check-out date), which stays open. */
  readonly endDate: LocalDate;
  readonly kind: HoldKind;
}

/** What a channel link's calendar export shows: its listing's unavailable nights. */
export interface CalendarFeed {
  readonly listingId: string;
  readonly listingName: string;
  readonly timeZone: string;
  /** The channel that polls the feed; its own reservations are left out, since it already holds them. */
  readonly channel: Channel;
  /** Reservations and blocks overlapping {@link calendarFeedWindow}, by first night. */
  readonly stays: readonly CalendarFeedStay[];
  /**
   * When the feed last changed (to the millisecond): its listing's holds or settings, or the window's move at
   * the listing's midnight. Later than any value served before a change of the feed.
   */
  readonly lastModified: Date;
}

/**
 * Reads calendar exports by their secret token. There is no actor: holding the token is the permission, as
 * channels poll the feed without credentials.
 */
export interface CalendarFeedReader {
  /** The feed of the channel link whose export token is `token`; undefined for an unknown or reissued one. */
  findByToken(token: string): Promise<CalendarFeed | undefined>;
}
