import {
  type CalendarImportKey,
  type CalendarImportQueue,
  type DueCalendarImport,
  defaultCalendarImportIntervalMinutes,
} from '@innkeep/domain';
import { fetchCalendarFeed } from './fetch-calendar-feed.ts';
import { parseCalendarFeed } from './parse-calendar-feed.ts';

/** Options of {@link runCalendarImports}; all have production defaults. */
export interface RunCalendarImportsOptions {
  /** Time from one poll of a link to its next; default `defaultCalendarImportIntervalMinutes` minutes. */
  readonly intervalMs?: number;
  /** The time claims and outcomes are stamped with; default the current time. Tests move it by hand. */
  readonly now?: () => Date;
  /**
   * Links claimed by one tick; default 8. The rest wait for the next tick. With 4 fetched at once and a 20 s
   * timeout, the last claimed link starts within 40 s, well inside its lease.
   */
  readonly claimLimit?: number;
  /**
   * How long a claim is this poller's; default 2 minutes, above the fetch's timeout, so a lease only runs out
   * when the poller died or could not record the outcome, and the link is then polled again.
   */
  readonly leaseMs?: number;
  /** Feeds fetched at once; default 4. */
  readonly concurrency?: number;
  /** Passed to the fetch: http and private addresses, for tests and local development only. */
  readonly allowPrivate?: boolean;
  /** Passed to the fetch; default its own (20 s). */
  readonly timeoutMs?: number;
  /** Fetches one feed; default {@link fetchCalendarFeed}. */
  readonly fetchFeed?: typeof fetchCalendarFeed;
}

/** What one tick did. Links whose URL changed while they were polled count as claimed only. */
export interface CalendarImportTick {
  /** Links this poller claimed. */
  readonly claimed: number;
  /** Feeds read and recorded whole. */
  readonly imported: number;
  /** Feeds the channel said had not changed (304). */
  readonly unchanged: number;
  /** Polls recorded as failed: the fetch failed or the feed was refused. */
  readonly failed: number;
  /** Links whose outcome could not be recorded (a queue call threw); their lease runs out and they are polled again. */
  readonly errors: number;
}

const minuteMs = 60_000;

/**
 * One tick of the calendar poller: claims the channel links whose import is due under a lease, fetches each
 * link's feed with the validators of its last read, and records the outcome: not modified → unchanged; the
 * fetch failed → the error; a feed → parsed by the listing's time zone and today, then its stays recorded, or
 * the parser's reason when the feed is refused. Every outcome sets the link's next poll `intervalMs` later.
 * One link's exception (a queue call failing) is counted and leaves the link to its lease, never stopping the
 * others. Any number of instances may tick at once: the queue gives each link to one of them.
 */
export async function runCalendarImports(
  queue: CalendarImportQueue,
  options: RunCalendarImportsOptions = {},
): Promise<CalendarImportTick> {
  const now = options.now ?? (() => new Date());
  const claimed = await queue.claimDue(now(), options.claimLimit ?? 8, options.leaseMs ?? 2 * minuteMs);
  const counts = { imported: 0, unchanged: 0, failed: 0, errors: 0 };
  let next = 0;
  const worker = async () => {
    for (let link = claimed[next++]; link !== undefined; link = claimed[next++]) {
      try {
        const outcome = await poll(queue, link, now, options);
        if (outcome !== undefined) counts[outcome] += 1;
      } catch {
        // The lease stays and runs out: the link is polled again then, by this poller or another.
        counts.errors += 1;
      }
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency ?? 4, claimed.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return { claimed: claimed.length, ...counts };
}

/** Polls one link and records the outcome; undefined when the link's URL changed meanwhile. */
async function poll(
  queue: CalendarImportQueue,
  link: DueCalendarImport,
  now: () => Date,
  options: RunCalendarImportsOptions,
): Promise<'imported' | 'unchanged' | 'failed' | undefined> {
  const fetchFeed = options.fetchFeed ?? fetchCalendarFeed;
  const fetched = await fetchFeed(link.url, {
    etag: link.etag,
    lastModified: link.lastModified,
    ...(options.allowPrivate === undefined ? {} : { allowPrivate: options.allowPrivate }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  const key: CalendarImportKey = {
    listingId: link.listingId,
    channelAccountId: link.channelAccountId,
    url: link.url,
  };
  const at = now();
  const nextPollAt = new Date(
    at.getTime() + (options.intervalMs ?? defaultCalendarImportIntervalMinutes * minuteMs),
  );

  if (fetched.kind === 'not_modified') {
    return (await queue.recordUnchanged(key, at, nextPollAt)) ? 'unchanged' : undefined;
  }
  if (fetched.kind === 'failed') {
    return (await queue.recordFailure(key, fetched.error, at, nextPollAt)) ? 'failed' : undefined;
  }
  const parsed = parseCalendarFeed(fetched.body, { timeZone: link.timeZone, today: link.today });
  if (!parsed.ok) {
    return (await queue.recordFailure(key, parsed.reason, at, nextPollAt)) ? 'failed' : undefined;
  }
  const applied = await queue.recordFeed(
    key,
    parsed.events,
    { etag: fetched.etag, lastModified: fetched.lastModified },
    at,
    nextPollAt,
  );
  return applied === undefined ? undefined : 'imported';
}
