import {
  type Actor,
  addDays,
  areLocalDates,
  daysBetween,
  type InnkeepDomain,
  type Listing,
  listingSchema,
  localDateSchema,
  minDate,
  pageInputShape,
} from '@innkeep/domain';
import { z } from 'zod';
import { defineOperation } from '../operation.ts';
import { pageOutput } from '../page-output.ts';

/** Most nights an availability window may span: two years, as far ahead as hosts publish calendars. */
export const maxAvailabilityWindowNights = 731;

/** Days one calendar read of the domain may cover (getCalendarInputSchema); longer windows are read in parts. */
const calendarReadDays = 366;

/**
 * Listings whose calendars are read at the same time. The domain has no query for "listings free on all
 * these nights", so each listing's calendar is read on its own; a few at once keep a 2,000-listing account
 * quick without taking every pooled connection.
 */
const concurrentCalendarReads = 4;

const availableListingsInput = z
  .object({
    ...pageInputShape,
    startDate: localDateSchema
      .optional()
      .describe('With endDate: only listings free on every night from this check-in date on.'),
    endDate: localDateSchema
      .optional()
      .describe('With startDate: the check-out date; the last night that must be free is the day before.'),
  })
  .superRefine((input, context) => {
    if ((input.startDate === undefined) !== (input.endDate === undefined)) {
      context.addIssue({
        code: 'custom',
        path: [input.startDate === undefined ? 'startDate' : 'endDate'],
        message: 'Send startDate and endDate together, or neither.',
      });
      return;
    }
    if (!areLocalDates(input.startDate, input.endDate)) return;
    const nights = daysBetween(input.startDate ?? '', input.endDate ?? '');
    if (nights < 1) {
      context.addIssue({
        code: 'custom',
        path: ['endDate'],
        message: 'endDate (the check-out date) must be after startDate.',
      });
    } else if (nights > maxAvailabilityWindowNights) {
      context.addIssue({
        code: 'custom',
        path: ['endDate'],
        message: `Ask about at most ${maxAvailabilityWindowNights} nights at a time; this window has ${nights}.`,
      });
    }
  });

/** A stay window: the check-in date and the check-out date. */
interface StayWindow {
  readonly startDate: string;
  readonly endDate: string;
}

/**
 * list_available_listings: the account's listings by name, or with startDate and endDate only those whose
 * every night of the window is open (neither booked nor blocked). A page holds up to `limit` matching
 * listings; its cursor continues after the last listing examined.
 */
export const listAvailableListingsOperation = defineOperation({
  id: 'list_available_listings',
  scopes: ['listings:read'],
  access: 'read',
  input: availableListingsInput,
  output: pageOutput(listingSchema),
  run: async (input, { actor, domain }) => {
    const { limit, cursor, startDate, endDate } = input;
    if (startDate === undefined || endDate === undefined) {
      return domain.listings.list(actor, { limit, cursor });
    }
    const window = { startDate, endDate };
    const matching: Listing[] = [];
    let next = cursor;
    let hasMore = true;
    // Ask for only as many listings as are still missing, so that the cursor of the last page read is
    // exactly where the next call must go on: every listing before it was either taken or ruled out.
    while (matching.length < limit && hasMore) {
      const page = await domain.listings.list(actor, { limit: limit - matching.length, cursor: next });
      const free = await mapConcurrently(page.items, (listing) =>
        isFreeThroughout(domain, actor, listing.id, window),
      );
      matching.push(...page.items.filter((_, index) => free[index]));
      hasMore = page.hasMore;
      next = page.nextCursor ?? undefined;
    }
    return { items: matching, nextCursor: hasMore ? (next ?? null) : null, hasMore };
  },
});

/** True when no night of the window is booked or blocked on the listing's calendar. */
async function isFreeThroughout(
  domain: InnkeepDomain,
  actor: Actor,
  listingId: string,
  window: StayWindow,
): Promise<boolean> {
  const lastNight = addDays(window.endDate, -1);
  for (let from = window.startDate; from <= lastNight; from = addDays(from, calendarReadDays)) {
    const to = minDate(addDays(from, calendarReadDays - 1), lastNight);
    const calendar = await domain.calendar.get(actor, { listingId, startDate: from, endDate: to });
    if (calendar.days.some((day) => day.status !== 'available')) return false;
  }
  return true;
}

/** `work` applied to every item, at most {@link concurrentCalendarReads} at a time; results in item order. */
async function mapConcurrently<Item, Result>(
  items: readonly Item[],
  work: (item: Item) => Promise<Result>,
): Promise<Result[]> {
  const results: Result[] = new Array(items.length);
  let nextIndex = 0;
  const worker = async () => {
    while (nextIndex < items.length) {
      const index = nextIndex;
      nextIndex += 1;
      results[index] = await work(items[index] as Item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrentCalendarReads, items.length) }, worker));
  return results;
}
