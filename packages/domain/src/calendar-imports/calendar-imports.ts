import { z } from 'zod';
import { holdKinds } from '../calendar/holds.ts';
import type { LocalDate } from '../core/dates.ts';
import { isAllowedOutboundUrl } from '../core/outbound-url.ts';
import type { Channel } from '../listings/listings.ts';

/** Minutes between two polls of a channel link's calendar unless configured otherwise. */
export const defaultCalendarImportIntervalMinutes = 15;

/** Longest calendar URL a host may give: channels' export URLs are well under it. */
export const maxCalendarImportUrlLength = 2000;

/**
 * Where a channel link's calendar import stands. `pending`: not fetched yet since its URL was set;
 * `connected`: the last poll read the feed (or was told it had not changed); `error`: the last poll failed or
 * refused the feed, and `lastError` says why. Nights held from an earlier good poll stay held through errors.
 */
export const calendarImportStatuses = ['pending', 'connected', 'error'] as const;

/** A reservation or block here that holds some of the nights a channel's stay asks for. */
export const calendarImportClashSchema = z.object({
  startDate: z.string(),
  endDate: z.string(),
  kind: z.enum(holdKinds),
  reservationId: z.string().nullable(),
});

/** A stay of a channel's feed that clashes with nights already held here; it is not written over them. */
export const calendarImportConflictSchema = z.object({
  eventUid: z.string(),
  startDate: z.string(),
  endDate: z.string().describe('Check-out day.'),
  summary: z.string().nullable(),
  clashes: z
    .array(calendarImportClashSchema)
    .describe('Reservations and blocks here holding some of those nights.'),
  since: z.string(),
});
/** One open conflict of a calendar import. */
export type CalendarImportConflict = z.infer<typeof calendarImportConflictSchema>;

/** A channel link's calendar import: the channel's own iCal URL polled for its stays, and how that goes. */
export const calendarImportSchema = z.object({
  url: z.string(),
  status: z
    .enum(calendarImportStatuses)
    .describe('pending (not polled yet), connected or error (see lastError).'),
  lastSuccessAt: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
  lastError: z.string().nullable(),
  heldStays: z
    .number()
    .int()
    .describe('Feed stays held here, as nights blocked with reason channel, that have not ended.'),
  conflicts: z
    .array(calendarImportConflictSchema)
    .describe('Feed stays clashing with a booking or block here: not imported.'),
});
/** A channel link's calendar import. */
export type CalendarImport = z.infer<typeof calendarImportSchema>;

/** Validates a calendar import URL; null stops importing and releases the nights the feed held. */
export const calendarImportUrlSchema = z
  .string()
  .trim()
  .max(maxCalendarImportUrlLength)
  .refine(
    isAllowedOutboundUrl,
    'Must be an https:// URL (http:// is allowed only for localhost and 127.0.0.1).',
  )
  .nullable()
  .describe('The channel’s iCal export URL of this listing; null stops importing and frees its nights.');

/** A channel link due to be polled, as the poller needs it. */
export interface DueCalendarImport {
  readonly accountId: string;
  readonly listingId: string;
  readonly channelAccountId: string;
  readonly channel: Channel;
  /** The URL as claimed; outcomes are recorded only while the link still has it. */
  readonly url: string;
  /** The listing's IANA time zone, to read date-time events by local dates. */
  readonly timeZone: string;
  /** The listing's today (`YYYY-MM-DD`) when claimed: stays that ended before it are not held. */
  readonly today: LocalDate;
  /** Validators of the last feed read, sent back so an unchanged feed costs one 304. */
  readonly etag: string | null;
  readonly lastModified: string | null;
}

/** The key an outcome is recorded under: the link, and the URL that was fetched. */
export type CalendarImportKey = Pick<DueCalendarImport, 'listingId' | 'channelAccountId' | 'url'>;

/** One stay of a channel's feed, read by the listing's local dates. */
export interface FeedStay {
  readonly uid: string;
  readonly startDate: LocalDate;
  /** Check-out day, excluded. */
  readonly endDate: LocalDate;
  readonly summary: string | null;
}

/** What applying a feed changed on the listing's calendar. */
export interface AppliedCalendarImport {
  /** Stays held for the first time. */
  readonly added: number;
  /** Stays whose nights changed. */
  readonly moved: number;
  /** Stays gone from the feed (or ended), whose nights were freed. */
  readonly released: number;
  /** Stays of the feed that clash with holds here, open after this poll. */
  readonly conflicts: number;
  /** Of {@link conflicts}, those first seen in this poll (each announced once). */
  readonly newConflicts: number;
}

/**
 * Channel links with a calendar import URL, polled on a schedule by any number of instances: each due link is
 * claimed by one poller at a time under a lease, and every outcome sets the link's next poll.
 */
export interface CalendarImportQueue {
  /**
   * Claims up to `limit` links whose next poll is due at `now`, most overdue first, each leased until
   * `now + leaseMs`: no other caller gets it before its outcome is recorded or the lease runs out.
   */
  claimDue(now: Date, limit: number, leaseMs: number): Promise<readonly DueCalendarImport[]>;
  /**
   * Records a feed read whole: holds its stays as blocks of reason `channel` (a new UID held, a changed one
   * moved, a missing one released); a stay that clashes with another hold of the listing is not written but
   * kept as an open conflict (a new one is announced as a `calendar.import_conflict` webhook event); the link
   * becomes `connected` with these validators, and is next polled at `nextPollAt`. All in one transaction.
   * Undefined, and nothing changed, when the link no longer has `key.url`.
   */
  recordFeed(
    key: CalendarImportKey,
    stays: readonly FeedStay[],
    validators: { readonly etag: string | null; readonly lastModified: string | null },
    now: Date,
    nextPollAt: Date,
  ): Promise<AppliedCalendarImport | undefined>;
  /** Records a 304: the link is `connected` as of `now`, its holds as they were. False when the URL changed. */
  recordUnchanged(key: CalendarImportKey, now: Date, nextPollAt: Date): Promise<boolean>;
  /**
   * Records a failed poll or a refused feed: the link is `error` with `error`, its holds as they were (a feed
   * that cannot be read says nothing about which nights are free). False when the URL changed.
   */
  recordFailure(key: CalendarImportKey, error: string, now: Date, nextPollAt: Date): Promise<boolean>;
}
