import {
  type CalendarImportKey,
  type CalendarImportQueue,
  type Channel,
  type DueCalendarImport,
  localDateIn,
} from '@innkeep/domain';
import { sql } from 'kysely';
import type { Executor } from '../database.ts';
import { assertPositiveInteger } from '../queue-arguments.ts';
import type { StoreDeps } from '../store-deps.ts';
import { inTransaction } from '../transaction.ts';
import { applyCalendarFeed } from './apply-calendar-feed.ts';

// The queue lives in the channel links themselves, as the email queue lives in its messages: claims are row
// locks taken with SKIP LOCKED (concurrent pollers pass each other's links instead of waiting), and each
// link's next poll is a committed column, so any instance can poll it and a restart resumes where it stopped.

/** Longest part of a failure kept as a link's `import_last_error`. */
const storedErrorLength = 500;

/** The calendar import queue over PostgreSQL or PGlite; every time comes from the caller, never the database. */
export function createCalendarImportQueue({ db }: StoreDeps): CalendarImportQueue {
  return {
    async claimDue(now, limit, leaseMs) {
      assertPositiveInteger('limit', limit);
      assertPositiveInteger('leaseMs', leaseMs);
      const leaseUntil = new Date(now.getTime() + leaseMs);
      // One statement: the subquery locks due links nobody else has locked, and the update stamps the lease
      // before the locks are released, so a link is claimed here or by the other claimer, never both. A lease
      // that ran out (a poller that died) is due again; a link never polled (null) is the most overdue.
      const { rows } = await sql<ClaimedRow>`
        update listing_channel_links as claimed
        set import_lease_until = ${leaseUntil}
        from listings as l, channel_accounts as ca
        where (claimed.listing_id, claimed.channel_account_id) in (
            select due.listing_id, due.channel_account_id
            from listing_channel_links as due
            where due.calendar_import_url is not null
              and (due.import_next_poll_at is null or due.import_next_poll_at <= ${now})
              and (due.import_lease_until is null or due.import_lease_until <= ${now})
            order by due.import_next_poll_at nulls first, due.listing_id, due.channel_account_id
            limit ${limit}
            for update of due skip locked)
          and l.id = claimed.listing_id
          and ca.id = claimed.channel_account_id
        returning l.account_id, claimed.listing_id, claimed.channel_account_id, ca.channel,
          claimed.calendar_import_url as url, l.time_zone, claimed.import_etag as etag,
          claimed.import_last_modified as last_modified, claimed.import_next_poll_at as next_poll_at`.execute(
        db,
      );
      return rows.sort(mostOverdueFirst).map(
        (row): DueCalendarImport => ({
          accountId: row.account_id,
          listingId: row.listing_id,
          channelAccountId: row.channel_account_id,
          channel: row.channel as Channel,
          url: row.url,
          timeZone: row.time_zone,
          today: localDateIn(row.time_zone, now),
          etag: row.etag,
          lastModified: row.last_modified,
        }),
      );
    },

    async recordFeed(key, stays, validators, now, nextPollAt) {
      return inTransaction(db, async (trx) => {
        // The listing's lock first, as reservations and blocks take it, so no hold lands between the read of
        // the calendar and the writes of the feed's stays.
        const listing = await trx
          .selectFrom('listings')
          .select(['id', 'account_id', 'time_zone'])
          .where('id', '=', key.listingId)
          .forNoKeyUpdate()
          .executeTakeFirst();
        if (listing === undefined) return undefined;
        const link = await lockLinkWithUrl(trx, key);
        if (link === undefined) return undefined;
        const applied = await applyCalendarFeed(
          trx,
          {
            accountId: listing.account_id,
            listingId: key.listingId,
            channelAccountId: key.channelAccountId,
            channel: link.channel as Channel,
            today: localDateIn(listing.time_zone, now),
          },
          stays,
          now,
        );
        await trx
          .updateTable('listing_channel_links')
          .set({
            import_status: 'connected',
            import_etag: validators.etag,
            import_last_modified: validators.lastModified,
            import_last_success_at: now,
            import_last_error_at: null,
            import_last_error: null,
            import_next_poll_at: nextPollAt,
            import_lease_until: null,
          })
          .where('listing_id', '=', key.listingId)
          .where('channel_account_id', '=', key.channelAccountId)
          .execute();
        return applied;
      });
    },

    async recordUnchanged(key, now, nextPollAt) {
      const updated = await whereKey(db, key)
        .set({
          import_status: 'connected',
          import_last_success_at: now,
          import_last_error_at: null,
          import_last_error: null,
          import_next_poll_at: nextPollAt,
          import_lease_until: null,
        })
        .executeTakeFirst();
      return updated.numUpdatedRows > 0n;
    },

    async recordFailure(key, error, now, nextPollAt) {
      // The last success stays: it says how old the nights held from the feed are.
      const updated = await whereKey(db, key)
        .set({
          import_status: 'error',
          import_last_error_at: now,
          import_last_error: clipped(error),
          import_next_poll_at: nextPollAt,
          import_lease_until: null,
        })
        .executeTakeFirst();
      return updated.numUpdatedRows > 0n;
    },
  };
}

/** An update of the link of `key`, only while it still has the URL that was fetched. */
function whereKey(db: Executor, key: CalendarImportKey) {
  return db
    .updateTable('listing_channel_links')
    .where('listing_id', '=', key.listingId)
    .where('channel_account_id', '=', key.channelAccountId)
    .where('calendar_import_url', '=', key.url);
}

/** Locks the link of `key` with its channel, when it still has the URL that was fetched. */
async function lockLinkWithUrl(trx: Executor, key: CalendarImportKey) {
  return trx
    .selectFrom('listing_channel_links as link')
    .innerJoin('channel_accounts as channel_account', 'channel_account.id', 'link.channel_account_id')
    .select('channel_account.channel')
    .where('link.listing_id', '=', key.listingId)
    .where('link.channel_account_id', '=', key.channelAccountId)
    .where('link.calendar_import_url', '=', key.url)
    .forUpdate('link')
    .executeTakeFirst();
}

/** A link {@link CalendarImportQueue.claimDue} claimed, as the database returns it. */
interface ClaimedRow {
  readonly account_id: string;
  readonly listing_id: string;
  readonly channel_account_id: string;
  readonly channel: string;
  readonly url: string;
  readonly time_zone: string;
  readonly etag: string | null;
  readonly last_modified: string | null;
  readonly next_poll_at: Date | null;
}

/** Never polled first, then by the time each was due. */
function mostOverdueFirst(a: ClaimedRow, b: ClaimedRow): number {
  const dueA = a.next_poll_at?.getTime() ?? Number.NEGATIVE_INFINITY;
  const dueB = b.next_poll_at?.getTime() ?? Number.NEGATIVE_INFINITY;
  return dueA === dueB ? 0 : dueA < dueB ? -1 : 1;
}

function clipped(error: string): string {
  return error.length > storedErrorLength ? `${error.slice(0, storedErrorLength - 1)}…` : error;
}
