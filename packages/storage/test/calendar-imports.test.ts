import {
  type Actor,
  type CalendarImportKey,
  type Channel,
  type Clock,
  type FeedStay,
  newId,
  type WebhookEvent,
  webhookEventDataSchemas,
} from '@innkeep/domain';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCalendarUseCases } from '../src/calendar/calendar.store.ts';
import { createCalendarFeedReader } from '../src/calendar-feeds/calendar-feeds.store.ts';
import { createCalendarImportQueue } from '../src/calendar-imports/calendar-import.store.ts';
import { createChannelAccountUseCases } from '../src/channel-accounts/channel-accounts.store.ts';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { createListingUseCases } from '../src/listings/listings.store.ts';
import { domainMigrations } from '../src/migrations/index.ts';
import { createReservationUseCases } from '../src/reservations/reservations.store.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { createTestAccount, createTestListing, type TestAccount } from './support/fixtures.ts';

const start = new Date('2026-04-01T12:00:00.000Z').getTime();
const minute = 60_000;
const leaseMs = 5 * minute;
const noValidators = { etag: null, lastModified: null };

/** The time the stores see; cases move it by hand. */
let nowMs = start;
const clock: Clock = { now: () => new Date(nowMs) };
const now = () => new Date(nowMs);
const later = (minutes: number) => new Date(nowMs + minutes * minute);

function stay(
  uid: string,
  startDate: string,
  endDate: string,
  summary: string | null = 'Reserved',
): FeedStay {
  return { uid, startDate, endDate, summary };
}

describe.each(testDatabaseKinds)('calendar imports on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let account: TestAccount;
  const queue = () => createCalendarImportQueue({ db, clock });
  const listings = () => createListingUseCases({ db, clock });
  const calendar = () => createCalendarUseCases({ db, clock });
  const reservations = () => createReservationUseCases({ db, clock });
  const channelAccounts = () => createChannelAccountUseCases({ db, clock });

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    account = await createTestAccount(db);
  }, 180_000);

  beforeEach(async () => {
    nowMs = start;
    // Every case claims only its own links, and reads only its own events.
    await db
      .updateTable('listing_channel_links')
      .set({ calendar_import_url: null, import_status: null })
      .execute();
    await db.deleteFrom('webhook_events').execute();
  });

  afterAll(async () => {
    await handle?.close();
  });

  /** A new listing linked to a new channel account of each of `channels`. */
  async function linkedListing(channels: readonly Channel[] = ['airbnb', 'vrbo']) {
    const listingId = await createTestListing(db, account.accountId, { time_zone: 'Europe/Lisbon' });
    const channelAccountIds: string[] = [];
    for (const channel of channels) {
      const channelAccountId = newId('channelAccount');
      await db
        .insertInto('channel_accounts')
        .values({
          id: channelAccountId,
          account_id: account.accountId,
          channel,
          display_name: channel,
          connection_type: 'ical',
          status: 'connected',
        })
        .execute();
      await db
        .insertInto('listing_channel_links')
        .values({
          listing_id: listingId,
          channel_account_id: channelAccountId,
          external_listing_id: `${channel}-1`,
          url: null,
        })
        .execute();
      channelAccountIds.push(channelAccountId);
    }
    return { listingId, channelAccountIds };
  }

  /** Sets the import URL of the link through the use case and returns its key. */
  async function importing(listingId: string, channelAccountId: string, url?: string) {
    const key: CalendarImportKey = {
      listingId,
      channelAccountId,
      url: url ?? `https://calendar.example/${channelAccountId}.ics`,
    };
    await listings().setCalendarImportUrl(account.owner, { ...key });
    return key;
  }

  /** The channel holds of the listing, by first night. */
  async function channelHolds(listingId: string) {
    return db
      .selectFrom('calendar_holds')
      .select([
        'channel_account_id',
        'import_uid',
        'note',
        sql<string>`to_char(lower(nights), 'YYYY-MM-DD')`.as('start_date'),
        sql<string>`to_char(upper(nights), 'YYYY-MM-DD')`.as('end_date'),
      ])
      .where('listing_id', '=', listingId)
      .where('block_reason', '=', 'channel')
      .orderBy(sql`lower(nights)`)
      .execute();
  }

  /** Records a fetched feed without validators for `key`, now, due again in 15 minutes. */
  function applyFeed(key: CalendarImportKey, stays: FeedStay[]) {
    return queue().recordFeed(key, stays, noValidators, now(), later(15));
  }

  /** The ids of the listing's channel holds by event UID. */
  async function holdIdsByUid(listingId: string): Promise<Record<string, string>> {
    const rows = await db
      .selectFrom('calendar_holds')
      .select(['import_uid', 'id'])
      .where('listing_id', '=', listingId)
      .where('block_reason', '=', 'channel')
      .execute();
    return Object.fromEntries(rows.map((row) => [row.import_uid ?? '', row.id]));
  }

  async function events(event?: WebhookEvent) {
    const rows = await db
      .selectFrom('webhook_events')
      .select(['event', 'data'])
      .where('account_id', '=', account.accountId)
      .orderBy('created')
      .orderBy('id')
      .execute();
    return rows
      .filter((row) => event === undefined || row.event === event)
      .map((row) => {
        const name = row.event as WebhookEvent;
        expect(webhookEventDataSchemas[name].parse(row.data)).toEqual(row.data);
        return { event: name, data: row.data };
      });
  }

  async function linkRow(listingId: string, channelAccountId: string) {
    return db
      .selectFrom('listing_channel_links')
      .selectAll()
      .where('listing_id', '=', listingId)
      .where('channel_account_id', '=', channelAccountId)
      .executeTakeFirstOrThrow();
  }

  async function book(listingId: string, startDate: string, endDate: string) {
    return reservations().create(account.owner, {
      listingId,
      startDate,
      endDate,
      guest: { firstName: 'Grace', lastName: 'Guest' },
      adults: 2,
      guestPrice: 300,
    });
  }

  describe('claimDue', () => {
    it('claims due links, most overdue first, under a lease that keeps others off until it runs out', async () => {
      const { listingId, channelAccountIds } = await linkedListing(['airbnb', 'vrbo', 'booking']);
      const [fresh = '', overdue = '', notDue = ''] = channelAccountIds;
      await importing(listingId, fresh);
      const overdueKey = await importing(listingId, overdue);
      const notDueKey = await importing(listingId, notDue);
      await queue().recordUnchanged(overdueKey, now(), later(-10));
      await queue().recordFeed(
        notDueKey,
        [],
        { etag: '"v1"', lastModified: 'Tue, 31 Mar 2026' },
        now(),
        later(15),
      );

      const claimed = await queue().claimDue(now(), 10, leaseMs);
      expect(claimed.map((link) => link.channelAccountId)).toEqual([fresh, overdue]);
      expect(claimed[0]).toEqual({
        accountId: account.accountId,
        listingId,
        channelAccountId: fresh,
        channel: 'airbnb',
        url: `https://calendar.example/${fresh}.ics`,
        timeZone: 'Europe/Lisbon',
        today: '2026-04-01',
        etag: null,
        lastModified: null,
      });
      // Leased: nobody else gets them, however often they ask.
      expect(await queue().claimDue(later(1), 10, leaseMs)).toEqual([]);

      // The lease ran out (the poller died): due again. The link polled at 15 minutes is due from then on,
      // with the validators of its last feed.
      nowMs += 20 * minute;
      const again = await queue().claimDue(now(), 10, leaseMs);
      expect(again.map((link) => link.channelAccountId)).toEqual([fresh, overdue, notDue]);
      expect(again[2]).toMatchObject({ etag: '"v1"', lastModified: 'Tue, 31 Mar 2026' });
    });

    it('gives two concurrent callers disjoint links', async () => {
      const { listingId, channelAccountIds } = await linkedListing(['airbnb', 'vrbo', 'booking', 'direct']);
      for (const channelAccountId of channelAccountIds) await importing(listingId, channelAccountId);
      const [first, second] = await Promise.all([
        queue().claimDue(now(), 3, leaseMs),
        queue().claimDue(now(), 3, leaseMs),
      ]);
      const ids = [...(first ?? []), ...(second ?? [])].map((link) => link.channelAccountId);
      expect(new Set(ids).size).toBe(ids.length);
      expect(new Set(ids)).toEqual(new Set(channelAccountIds));
    });

    it('skips links whose URL was removed', async () => {
      const { listingId, channelAccountIds } = await linkedListing(['airbnb']);
      const [channelAccountId = ''] = channelAccountIds;
      await importing(listingId, channelAccountId);
      await listings().setCalendarImportUrl(account.owner, { listingId, channelAccountId, url: null });
      expect(await queue().claimDue(now(), 10, leaseMs)).toEqual([]);
    });

    it('refuses a limit or lease that is not a whole number above zero', async () => {
      await expect(queue().claimDue(now(), 0, leaseMs)).rejects.toMatchObject({ code: 'invalid_argument' });
      await expect(queue().claimDue(now(), 1, 0.5)).rejects.toMatchObject({ code: 'invalid_argument' });
    });
  });

  describe('recordFeed', () => {
    it('adds, keeps, moves and releases stays, and announces the changed nights', async () => {
      const { listingId, channelAccountIds } = await linkedListing(['airbnb']);
      const [channelAccountId = ''] = channelAccountIds;
      const key = await importing(listingId, channelAccountId);

      const first = await queue().recordFeed(
        key,
        [stay('a', '2026-05-01', '2026-05-04', '  Reserved  '), stay('b', '2026-05-10', '2026-05-12', null)],
        { etag: '"1"', lastModified: null },
        now(),
        later(15),
      );
      expect(first).toEqual({ added: 2, moved: 0, released: 0, conflicts: 0, newConflicts: 0 });
      expect(await channelHolds(listingId)).toEqual([
        {
          channel_account_id: channelAccountId,
          import_uid: 'a',
          note: 'Reserved',
          start_date: '2026-05-01',
          end_date: '2026-05-04',
        },
        {
          channel_account_id: channelAccountId,
          import_uid: 'b',
          note: null,
          start_date: '2026-05-10',
          end_date: '2026-05-12',
        },
      ]);
      expect(await events()).toEqual([
        {
          event: 'calendar.updated',
          data: { listingId, startDate: '2026-05-01', endDate: '2026-05-11', change: 'availability' },
        },
      ]);
      expect(await linkRow(listingId, channelAccountId)).toMatchObject({
        import_status: 'connected',
        import_etag: '"1"',
        import_last_success_at: now(),
        import_next_poll_at: later(15),
        import_lease_until: null,
      });

      // The calendar shows them blocked by the channel, with the event's title.
      const days = await calendar().get(account.owner, {
        listingId,
        startDate: '2026-05-03',
        endDate: '2026-05-04',
      });
      expect(days.days.map(({ status, blockReason, note }) => ({ status, blockReason, note }))).toEqual([
        { status: 'blocked', blockReason: 'channel', note: 'Reserved' },
        { status: 'available', blockReason: null, note: null },
      ]);

      // The same feed again changes nothing, and says nothing.
      await db.deleteFrom('webhook_events').execute();
      const same = await applyFeed(key, [
        stay('a', '2026-05-01', '2026-05-04'),
        stay('b', '2026-05-10', '2026-05-12', null),
      ]);
      expect(same).toEqual({ added: 0, moved: 0, released: 0, conflicts: 0, newConflicts: 0 });
      expect(await events()).toEqual([]);

      // b moves onto nights a used to hold, a moves on, c is new. The moved stays keep their holds' ids.
      const idsBefore = await holdIdsByUid(listingId);
      const second = await applyFeed(key, [
        stay('a', '2026-05-20', '2026-05-22'),
        stay('b', '2026-05-02', '2026-05-05'),
        stay('c', '2026-06-01', '2026-06-03'),
      ]);
      expect(second).toEqual({ added: 1, moved: 2, released: 0, conflicts: 0, newConflicts: 0 });
      expect(
        (await channelHolds(listingId)).map((hold) => [hold.import_uid, hold.start_date, hold.end_date]),
      ).toEqual([
        ['b', '2026-05-02', '2026-05-05'],
        ['a', '2026-05-20', '2026-05-22'],
        ['c', '2026-06-01', '2026-06-03'],
      ]);
      expect(await holdIdsByUid(listingId)).toEqual({ ...idsBefore, c: expect.any(String) });

      // Gone from the feed: released.
      await db.deleteFrom('webhook_events').execute();
      const third = await applyFeed(key, [stay('c', '2026-06-01', '2026-06-03')]);
      expect(third).toEqual({ added: 0, moved: 0, released: 2, conflicts: 0, newConflicts: 0 });
      expect((await channelHolds(listingId)).map((hold) => hold.import_uid)).toEqual(['c']);
      expect(await events('calendar.updated')).toEqual([
        {
          event: 'calendar.updated',
          data: { listingId, startDate: '2026-05-02', endDate: '2026-05-21', change: 'availability' },
        },
      ]);
    });

    it('keeps stays that have ended held when the feed drops them or the import stops', async () => {
      const { listingId, channelAccountIds } = await linkedListing(['airbnb']);
      const [channelAccountId = ''] = channelAccountIds;
      const key = await importing(listingId, channelAccountId);
      await applyFeed(key, [
        stay('past', '2026-04-02', '2026-04-05'),
        stay('future', '2026-04-20', '2026-04-23'),
      ]);
      // A week on, the first stay has ended, and feeds (and the poller) leave ended stays out.
      nowMs = start + 7 * 24 * 60 * minute;
      const applied = await applyFeed(key, [stay('future', '2026-04-20', '2026-04-23')]);
      expect(applied).toMatchObject({ added: 0, moved: 0, released: 0 });
      expect((await channelHolds(listingId)).map((hold) => hold.import_uid)).toEqual(['past', 'future']);
      // The link's health counts the stays still to come.
      const [link] = (await listings().get(account.owner, listingId)).channels;
      expect(link?.calendarImport?.heldStays).toBe(1);

      await listings().setCalendarImportUrl(account.owner, { listingId, channelAccountId, url: null });
      expect((await channelHolds(listingId)).map((hold) => hold.import_uid)).toEqual(['past']);
    });

    it('holds a new stay under the UID of a stay that has ended, keeping the ended one as history', async () => {
      const { listingId, channelAccountIds } = await linkedListing(['airbnb']);
      const [channelAccountId = ''] = channelAccountIds;
      const key = await importing(listingId, channelAccountId);
      await applyFeed(key, [stay('reused', '2026-04-02', '2026-04-05')]);
      nowMs = start + 7 * 24 * 60 * minute;
      const applied = await applyFeed(key, [stay('reused', '2026-04-20', '2026-04-23')]);
      expect(applied).toMatchObject({ added: 1, moved: 0, released: 0, conflicts: 0 });
      expect(
        (await channelHolds(listingId)).map((hold) => [hold.import_uid, hold.start_date, hold.end_date]),
      ).toEqual([
        ['reused (ended 2026-04-05)', '2026-04-02', '2026-04-05'],
        ['reused', '2026-04-20', '2026-04-23'],
      ]);
    });

    it('leaves a link’s imported stays out of that link’s calendar export, not out of the others’', async () => {
      const { listingId, channelAccountIds } = await linkedListing(['airbnb', 'vrbo']);
      const [airbnb = '', vrbo = ''] = channelAccountIds;
      const key = await importing(listingId, airbnb);
      await applyFeed(key, [stay('a', '2026-05-01', '2026-05-04')]);
      const tokens = await db
        .selectFrom('listing_channel_links')
        .select(['channel_account_id', 'calendar_export_token'])
        .where('listing_id', '=', listingId)
        .execute();
      const tokenOf = (channelAccountId: string) =>
        tokens.find((row) => row.channel_account_id === channelAccountId)?.calendar_export_token ?? '';
      const feeds = createCalendarFeedReader({ db, clock });
      expect((await feeds.findByToken(tokenOf(airbnb)))?.stays).toEqual([]);
      expect((await feeds.findByToken(tokenOf(vrbo)))?.stays).toEqual([
        expect.objectContaining({ startDate: '2026-05-01', endDate: '2026-05-04', kind: 'block' }),
      ]);
    });

    it('keeps a stay that clashes with a reservation as a conflict, announced once, held once resolved', async () => {
      const { listingId, channelAccountIds } = await linkedListing(['airbnb']);
      const [channelAccountId = ''] = channelAccountIds;
      const key = await importing(listingId, channelAccountId);
      const reservation = await book(listingId, '2026-05-03', '2026-05-06');
      await db.deleteFrom('webhook_events').execute();

      const feed = [stay('a', '2026-05-01', '2026-05-04', 'Reserved'), stay('b', '2026-05-10', '2026-05-12')];
      const first = await queue().recordFeed(key, feed, noValidators, now(), later(15));
      expect(first).toEqual({ added: 1, moved: 0, released: 0, conflicts: 1, newConflicts: 1 });
      expect((await channelHolds(listingId)).map((hold) => hold.import_uid)).toEqual(['b']);
      const clash = {
        startDate: '2026-05-03',
        endDate: '2026-05-06',
        kind: 'reservation',
        reservationId: reservation.id,
      };
      expect(await events('calendar.import_conflict')).toEqual([
        {
          event: 'calendar.import_conflict',
          data: {
            listingId,
            channelAccountId,
            channel: 'airbnb',
            eventUid: 'a',
            startDate: '2026-05-01',
            endDate: '2026-05-04',
            clashes: [clash],
          },
        },
      ]);
      const link = (await listings().get(account.owner, listingId)).channels[0];
      expect(link?.calendarImport).toEqual({
        url: key.url,
        status: 'connected',
        lastSuccessAt: now().toISOString(),
        lastErrorAt: null,
        lastError: null,
        heldStays: 1,
        conflicts: [
          {
            eventUid: 'a',
            startDate: '2026-05-01',
            endDate: '2026-05-04',
            summary: 'Reserved',
            clashes: [clash],
            since: now().toISOString(),
          },
        ],
      });

      // Still clashing at the next poll: still open, since its first sighting, not announced again.
      await db.deleteFrom('webhook_events').execute();
      nowMs += 15 * minute;
      const second = await queue().recordFeed(key, feed, noValidators, now(), later(15));
      expect(second).toEqual({ added: 0, moved: 0, released: 0, conflicts: 1, newConflicts: 0 });
      expect(await events()).toEqual([]);
      const open = (await listings().get(account.owner, listingId)).channels[0]?.calendarImport?.conflicts;
      expect(open?.map((conflict) => conflict.since)).toEqual([new Date(start).toISOString()]);

      // The reservation is cancelled: the next poll holds the stay and closes the conflict.
      await reservations().cancel(account.owner, { reservationId: reservation.id });
      await db.deleteFrom('webhook_events').execute();
      const third = await queue().recordFeed(key, feed, noValidators, now(), later(15));
      expect(third).toEqual({ added: 1, moved: 0, released: 0, conflicts: 0, newConflicts: 0 });
      expect((await channelHolds(listingId)).map((hold) => hold.import_uid)).toEqual(['a', 'b']);
      expect(await events()).toEqual([
        {
          event: 'calendar.updated',
          data: { listingId, startDate: '2026-05-01', endDate: '2026-05-03', change: 'availability' },
        },
      ]);
      const resolved = (await listings().get(account.owner, listingId)).channels[0]?.calendarImport;
      expect(resolved).toMatchObject({ heldStays: 2, conflicts: [] });
    });

    it('releases a held stay that moves onto nights another channel holds, and announces the clash', async () => {
      const { listingId, channelAccountIds } = await linkedListing(['airbnb', 'vrbo']);
      const [airbnb = '', vrbo = ''] = channelAccountIds;
      const airbnbKey = await importing(listingId, airbnb);
      const vrboKey = await importing(listingId, vrbo);
      await queue().recordFeed(
        vrboKey,
        [stay('v', '2026-05-10', '2026-05-14')],
        noValidators,
        now(),
        later(15),
      );
      await queue().recordFeed(
        airbnbKey,
        [stay('a', '2026-05-01', '2026-05-04')],
        noValidators,
        now(),
        later(15),
      );
      await db.deleteFrom('webhook_events').execute();

      const moved = await queue().recordFeed(
        airbnbKey,
        [stay('a', '2026-05-12', '2026-05-15')],
        noValidators,
        now(),
        later(15),
      );
      expect(moved).toEqual({ added: 0, moved: 0, released: 1, conflicts: 1, newConflicts: 1 });
      expect(
        (await channelHolds(listingId)).map((hold) => [hold.channel_account_id, hold.import_uid]),
      ).toEqual([[vrbo, 'v']]);
      expect((await events()).map((event) => event.event).sort()).toEqual([
        'calendar.import_conflict',
        'calendar.updated',
      ]);
      const [conflict] = (await events('calendar.import_conflict')).map((event) => event.data);
      expect(conflict).toMatchObject({
        clashes: [{ startDate: '2026-05-10', endDate: '2026-05-14', kind: 'block', reservationId: null }],
      });
    });

    // One connection on PGlite: two transactions cannot be open at once there.
    it.skipIf(kind === 'pglite')(
      'waits for a hold written under the listing’s lock, then sees it',
      async () => {
        const { listingId, channelAccountIds } = await linkedListing(['airbnb']);
        const [channelAccountId = ''] = channelAccountIds;
        const key = await importing(listingId, channelAccountId);
        let release = () => {};
        const released = new Promise<void>((resolve) => {
          release = resolve;
        });
        let locked = () => {};
        const isLocked = new Promise<void>((resolve) => {
          locked = resolve;
        });
        const writer = db.transaction().execute(async (trx) => {
          await trx
            .selectFrom('listings')
            .select('id')
            .where('id', '=', listingId)
            .forNoKeyUpdate()
            .execute();
          await trx
            .insertInto('calendar_holds')
            .values({
              id: newId('block'),
              account_id: account.accountId,
              listing_id: listingId,
              nights: '[2026-05-02,2026-05-03)',
              kind: 'block',
              reservation_id: null,
              block_reason: 'owner',
              note: null,
              created_by: null,
            })
            .execute();
          locked();
          await released;
        });
        await isLocked;
        let settled = false;
        const applying = queue()
          .recordFeed(key, [stay('a', '2026-05-01', '2026-05-04')], noValidators, now(), later(15))
          .finally(() => {
            settled = true;
          });
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(settled).toBe(false);
        release();
        await writer;
        expect(await applying).toEqual({ added: 0, moved: 0, released: 0, conflicts: 1, newConflicts: 1 });
      },
    );

    it('changes nothing when the link’s URL changed since the claim', async () => {
      const { listingId, channelAccountIds } = await linkedListing(['airbnb']);
      const [channelAccountId = ''] = channelAccountIds;
      const key = await importing(listingId, channelAccountId);
      await applyFeed(key, [stay('a', '2026-05-01', '2026-05-04')]);
      nowMs += 20 * minute;
      const [claimed] = await queue().claimDue(now(), 1, leaseMs);
      expect(claimed?.url).toBe(key.url);
      await importing(listingId, channelAccountId, 'https://calendar.example/new.ics');
      const before = await linkRow(listingId, channelAccountId);
      await db.deleteFrom('webhook_events').execute();

      expect(await applyFeed(key, [])).toBeUndefined();
      expect(await queue().recordUnchanged(key, now(), later(15))).toBe(false);
      expect(await queue().recordFailure(key, 'timed out', now(), later(15))).toBe(false);
      expect(await linkRow(listingId, channelAccountId)).toEqual(before);
      expect((await channelHolds(listingId)).map((hold) => hold.import_uid)).toEqual(['a']);
      expect(await events()).toEqual([]);
      expect(before).toMatchObject({ import_status: 'pending', import_next_poll_at: null });
    });

    it('keeps the holds and the last success through a failure, and reports the error', async () => {
      const { listingId, channelAccountIds } = await linkedListing(['airbnb']);
      const [channelAccountId = ''] = channelAccountIds;
      const key = await importing(listingId, channelAccountId);
      await applyFeed(key, [stay('a', '2026-05-01', '2026-05-04')]);
      const succeededAt = now();
      nowMs += 15 * minute;
      expect(await queue().recordFailure(key, 'HTTP 500', now(), later(15))).toBe(true);
      expect((await channelHolds(listingId)).map((hold) => hold.import_uid)).toEqual(['a']);
      expect((await listings().get(account.owner, listingId)).channels[0]?.calendarImport).toMatchObject({
        status: 'error',
        lastSuccessAt: succeededAt.toISOString(),
        lastErrorAt: now().toISOString(),
        lastError: 'HTTP 500',
        heldStays: 1,
      });
      expect(await queue().recordUnchanged(key, later(15), later(30))).toBe(true);
      expect((await listings().get(account.owner, listingId)).channels[0]?.calendarImport).toMatchObject({
        status: 'connected',
        lastSuccessAt: later(15).toISOString(),
        lastError: null,
      });
    });
  });

  describe('setCalendarImportUrl', () => {
    it('refuses viewers, and links outside the account', async () => {
      const { listingId, channelAccountIds } = await linkedListing(['airbnb']);
      const [channelAccountId = ''] = channelAccountIds;
      const viewer: Actor = { ...account.owner, role: 'viewer' };
      const url = 'https://calendar.example/a.ics';
      await expect(
        listings().setCalendarImportUrl(viewer, { listingId, channelAccountId, url }),
      ).rejects.toMatchObject({ code: 'permission_denied' });
      const other = await createTestAccount(db);
      await expect(
        listings().setCalendarImportUrl(other.owner, { listingId, channelAccountId, url }),
      ).rejects.toMatchObject({ code: 'not_found' });
      const unlinked = (await linkedListing(['vrbo'])).channelAccountIds[0] ?? '';
      await expect(
        listings().setCalendarImportUrl(account.owner, { listingId, channelAccountId: unlinked, url }),
      ).rejects.toMatchObject({ code: 'not_found' });
      await expect(
        listings().setCalendarImportUrl(account.owner, { listingId, channelAccountId, url: 'ftp://x' }),
      ).rejects.toMatchObject({ code: 'invalid_argument' });
      expect((await linkRow(listingId, channelAccountId)).calendar_import_url).toBeNull();
    });

    it('sets a URL due at once, keeps held stays on a new URL, and frees them when removed', async () => {
      const { listingId, channelAccountIds } = await linkedListing(['airbnb']);
      const [channelAccountId = ''] = channelAccountIds;
      const link = await listings().setCalendarImportUrl(account.owner, {
        listingId,
        channelAccountId,
        url: 'https://calendar.example/a.ics',
      });
      expect(link.calendarImport).toEqual({
        url: 'https://calendar.example/a.ics',
        status: 'pending',
        lastSuccessAt: null,
        lastErrorAt: null,
        lastError: null,
        heldStays: 0,
        conflicts: [],
      });
      const key = { listingId, channelAccountId, url: 'https://calendar.example/a.ics' };
      await book(listingId, '2026-05-20', '2026-05-22');
      await queue().recordFeed(
        key,
        [stay('a', '2026-05-01', '2026-05-04'), stay('x', '2026-05-21', '2026-05-23')],
        { etag: '"1"', lastModified: null },
        now(),
        later(15),
      );

      // The same URL again changes nothing: no audit entry, the import as it was.
      const audits = async () =>
        (
          await db
            .selectFrom('audit_log')
            .select('action')
            .where('target_id', '=', listingId)
            .where('action', '=', 'listing.calendar_import_url.set')
            .execute()
        ).length;
      expect(await audits()).toBe(1);
      const same = await listings().setCalendarImportUrl(account.owner, { ...key });
      expect(same.calendarImport).toMatchObject({ status: 'connected', heldStays: 1 });
      expect(await audits()).toBe(1);

      const renewed = await listings().setCalendarImportUrl(account.owner, {
        ...key,
        url: 'https://calendar.example/b.ics',
      });
      expect(renewed.calendarImport).toMatchObject({ status: 'pending', lastSuccessAt: null, heldStays: 1 });
      expect(await linkRow(listingId, channelAccountId)).toMatchObject({
        import_etag: null,
        import_next_poll_at: null,
      });
      expect(await audits()).toBe(2);

      await db.deleteFrom('webhook_events').execute();
      const removed = await listings().setCalendarImportUrl(account.owner, { ...key, url: null });
      expect(removed.calendarImport).toBeNull();
      expect(await channelHolds(listingId)).toEqual([]);
      expect(
        await db
          .selectFrom('calendar_import_conflicts')
          .selectAll()
          .where('listing_id', '=', listingId)
          .execute(),
      ).toEqual([]);
      expect(await linkRow(listingId, channelAccountId)).toMatchObject({
        import_status: null,
        import_last_success_at: null,
      });
      expect(await events()).toEqual([
        {
          event: 'calendar.updated',
          data: { listingId, startDate: '2026-05-01', endDate: '2026-05-03', change: 'availability' },
        },
      ]);
    });

    it('removes the link’s holds and conflicts with the link', async () => {
      const { listingId, channelAccountIds } = await linkedListing(['airbnb']);
      const [channelAccountId = ''] = channelAccountIds;
      const key = await importing(listingId, channelAccountId);
      await book(listingId, '2026-05-20', '2026-05-22');
      await applyFeed(key, [stay('a', '2026-05-01', '2026-05-04'), stay('x', '2026-05-21', '2026-05-23')]);
      await db
        .deleteFrom('listing_channel_links')
        .where('channel_account_id', '=', channelAccountId)
        .execute();
      expect(await channelHolds(listingId)).toEqual([]);
      expect(
        await db
          .selectFrom('calendar_import_conflicts')
          .selectAll()
          .where('listing_id', '=', listingId)
          .execute(),
      ).toEqual([]);
    });
  });

  describe('setAvailability', () => {
    it('cannot open a channel’s nights, and blocks around them', async () => {
      const { listingId, channelAccountIds } = await linkedListing(['airbnb']);
      const [channelAccountId = ''] = channelAccountIds;
      const key = await importing(listingId, channelAccountId);
      await applyFeed(key, [stay('a', '2026-05-03', '2026-05-05')]);

      const opened = await calendar().setAvailability(account.owner, {
        listingId,
        startDate: '2026-05-01',
        endDate: '2026-05-06',
        available: true,
      });
      expect(opened).toMatchObject({ changedNights: 0, stillBookedNights: ['2026-05-03', '2026-05-04'] });
      expect((await channelHolds(listingId)).map((hold) => hold.import_uid)).toEqual(['a']);

      const blocked = await calendar().setAvailability(account.owner, {
        listingId,
        startDate: '2026-05-01',
        endDate: '2026-05-06',
        available: false,
        reason: 'owner',
      });
      expect(blocked.changedNights).toBe(4);
      const days = await calendar().get(account.owner, {
        listingId,
        startDate: '2026-05-01',
        endDate: '2026-05-06',
      });
      expect(days.days.map((day) => day.blockReason)).toEqual([
        'owner',
        'owner',
        'channel',
        'channel',
        'owner',
        'owner',
      ]);

      const reopened = await calendar().setAvailability(account.owner, {
        listingId,
        startDate: '2026-05-01',
        endDate: '2026-05-06',
        available: true,
      });
      expect(reopened).toMatchObject({ changedNights: 4, stillBookedNights: ['2026-05-03', '2026-05-04'] });
      expect((await channelHolds(listingId)).map((hold) => hold.import_uid)).toEqual(['a']);
    });
  });

  describe('migration', () => {
    it('undoes itself over imported stays and conflicts, and applies again', async () => {
      const { listingId, channelAccountIds } = await linkedListing(['airbnb']);
      const [channelAccountId = ''] = channelAccountIds;
      const key = await importing(listingId, channelAccountId);
      await book(listingId, '2026-05-20', '2026-05-22');
      await calendar().setAvailability(account.owner, {
        listingId,
        startDate: '2026-06-01',
        endDate: '2026-06-02',
        available: false,
        reason: 'owner',
      });
      await applyFeed(key, [stay('a', '2026-05-01', '2026-05-04'), stay('x', '2026-05-21', '2026-05-23')]);
      const migration = domainMigrations['2026_11_28_0034_calendar_imports'];
      if (!migration?.down) throw new Error('the calendar imports migration is missing');
      await migration.down(db);
      const holds = await sql<{ block_reason: string | null }>`
        select block_reason from calendar_holds where listing_id = ${listingId} order by lower(nights)`.execute(
        db,
      );
      expect(holds.rows.map((row) => row.block_reason)).toEqual([null, 'owner']);
      await migration.up(db);
      expect(await linkRow(listingId, channelAccountId)).toMatchObject({
        calendar_import_url: null,
        import_status: null,
      });
      expect(await channelHolds(listingId)).toEqual([]);
    });
  });

  describe('channel account health', () => {
    it('reports an account’s health from its import URLs when it has any', async () => {
      const { listingId, channelAccountIds } = await linkedListing(['airbnb']);
      const [channelAccountId = ''] = channelAccountIds;
      const secondListing = await createTestListing(db, account.accountId);
      await db
        .insertInto('listing_channel_links')
        .values({
          listing_id: secondListing,
          channel_account_id: channelAccountId,
          external_listing_id: 'x',
          url: null,
        })
        .execute();
      await db
        .updateTable('channel_accounts')
        .set({
          status: 'needs_reauth',
          last_error: 'stored error',
          last_sync_at: new Date(start - 60 * minute),
        })
        .where('id', '=', channelAccountId)
        .execute();
      const health = async () => {
        const { status, lastSyncAt, lastError } = await channelAccounts().get(
          account.owner,
          channelAccountId,
        );
        return { status, lastSyncAt, lastError };
      };
      // No import URL: the stored columns.
      expect(await health()).toEqual({
        status: 'needs_reauth',
        lastSyncAt: new Date(start - 60 * minute).toISOString(),
        lastError: 'stored error',
      });

      const first = await importing(listingId, channelAccountId);
      const second = await importing(secondListing, channelAccountId);
      expect(await health()).toEqual({ status: 'connected', lastSyncAt: null, lastError: null });

      await queue().recordFeed(first, [], noValidators, now(), later(15));
      await queue().recordUnchanged(second, later(1), later(15));
      expect(await health()).toEqual({
        status: 'connected',
        lastSyncAt: later(1).toISOString(),
        lastError: null,
      });

      await queue().recordFailure(first, 'HTTP 404', later(2), later(15));
      await queue().recordFailure(second, 'HTTP 500', later(3), later(15));
      expect(await health()).toEqual({
        status: 'error',
        lastSyncAt: later(1).toISOString(),
        lastError: `${secondListing}: HTTP 500`,
      });
      const [listed] = (await channelAccounts().list(account.owner, {})).items.filter(
        (item) => item.id === channelAccountId,
      );
      expect(listed?.status).toBe('error');
    });
  });
});
