import type {
  AppliedCalendarImport,
  CalendarImportKey,
  CalendarImportQueue,
  DueCalendarImport,
  FeedStay,
} from '@innkeep/domain';

/** One call the fake queue got, with its arguments. */
export type RecordedCall =
  | {
      readonly method: 'recordFeed';
      readonly key: CalendarImportKey;
      readonly stays: readonly FeedStay[];
      readonly validators: { readonly etag: string | null; readonly lastModified: string | null };
      readonly now: Date;
      readonly nextPollAt: Date;
    }
  | {
      readonly method: 'recordUnchanged';
      readonly key: CalendarImportKey;
      readonly now: Date;
      readonly nextPollAt: Date;
    }
  | {
      readonly method: 'recordFailure';
      readonly key: CalendarImportKey;
      readonly error: string;
      readonly now: Date;
      readonly nextPollAt: Date;
    };

/** An in-memory {@link CalendarImportQueue} for the poller's tests: it records every call. */
export interface FakeCalendarImportQueue extends CalendarImportQueue {
  /** The links the next claims hand out; a recorded feed updates their validators, as the store does. */
  readonly links: DueCalendarImport[];
  /** Every record call, in order. */
  readonly calls: RecordedCall[];
  /** Every claim's arguments, in order. */
  readonly claims: { readonly now: Date; readonly limit: number; readonly leaseMs: number }[];
  /** Makes every record call for `listingId` throw, as a failing database would. */
  failFor(listingId: string): void;
}

/** A {@link FakeCalendarImportQueue} handing out `links` on every claim (up to the limit), all due. */
export function fakeCalendarImportQueue(links: readonly DueCalendarImport[]): FakeCalendarImportQueue {
  const state = [...links];
  const calls: RecordedCall[] = [];
  const claims: { now: Date; limit: number; leaseMs: number }[] = [];
  const failing = new Set<string>();
  const guard = (key: CalendarImportKey) => {
    if (failing.has(key.listingId)) throw new Error(`The store is down for ${key.listingId}.`);
  };
  return {
    links: state,
    calls,
    claims,
    failFor(listingId) {
      failing.add(listingId);
    },
    async claimDue(now, limit, leaseMs) {
      claims.push({ now, limit, leaseMs });
      return state.slice(0, limit);
    },
    async recordFeed(key, stays, validators, now, nextPollAt): Promise<AppliedCalendarImport | undefined> {
      guard(key);
      calls.push({ method: 'recordFeed', key, stays, validators, now, nextPollAt });
      const index = state.findIndex((link) => link.listingId === key.listingId && link.url === key.url);
      const link = state[index];
      if (link === undefined) return undefined;
      state[index] = { ...link, ...validators };
      return { added: stays.length, moved: 0, released: 0, conflicts: 0, newConflicts: 0 };
    },
    async recordUnchanged(key, now, nextPollAt) {
      guard(key);
      calls.push({ method: 'recordUnchanged', key, now, nextPollAt });
      return true;
    },
    async recordFailure(key, error, now, nextPollAt) {
      guard(key);
      calls.push({ method: 'recordFailure', key, error, now, nextPollAt });
      return true;
    },
  };
}
