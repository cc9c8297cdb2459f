import { addDays, newId } from '@innkeep/domain';
import type { GuestAnalyticsUseCases } from '@innkeep/domain/analytics';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listingWithinColumn, listingWithinSeconds } from '../src/analytics/guest-wait-buckets.ts';
import { rebuildGuestWaits, refreshGuestWaits } from '../src/analytics/guest-waits.ts';
import { bucketedMonthsOf, monthlyListingRows } from '../src/analytics/response-time-buckets.ts';
import {
  type BreakdownRow,
  toResponseBreakdown,
  type WaitSelection,
} from '../src/analytics/response-time-stats.ts';
import type { DatabaseHandle } from '../src/connection.ts';
import { createPostgresDomain } from '../src/create-domain.ts';
import type { Executor } from '../src/database.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import {
  buildRandomPortfolio,
  type Random,
  type RandomPortfolio,
  randomPeriod,
  seededRandom,
} from './support/analytics-random.ts';
import { writeWhileAnotherIsOpen } from './support/concurrent-writers.ts';

/** "Now" of these tests: inside the generated range, so recent waits are still undecided. */
const now = new Date('2026-05-10T08:00:00Z');

/** Gaps between messages, in seconds: ties, the hour and day edges, and spreads across every bucket size. */
function randomGap(random: Random): number {
  return random.pick([
    () => 0,
    () => 3_599,
    () => 3_600,
    () => 3_601,
    () => 86_400,
    () => 86_401,
    () => random.int(1, 120),
    () => random.int(120, 7_200),
    () => random.int(3_600, 30 * 3_600),
    () => random.int(1, 6 * 86_400),
  ])();
}

/** Inserts one message as a channel sync would: the stores' refresh of the thread's waits is up to the caller. */
function insertMessage(
  db: Executor,
  accountId: string,
  reservationId: string,
  sender: 'guest' | 'host' | 'automation',
  sentAt: Date | string,
) {
  return db
    .insertInto('messages')
    .values({
      id: newId('message'),
      account_id: accountId,
      reservation_id: reservationId,
      sender,
      body: `A message of the ${sender}`,
      sent_at: typeof sentAt === 'string' ? sentAt : sentAt.toISOString(),
      message_rule_id: null,
      author_user_id: null,
      delivery_status: sender === 'guest' ? 'received' : 'sent',
    })
    .execute();
}

/** Inserts a random thread of messages (guest first, then guest, host or automation) on one reservation. */
async function insertThread(
  db: Executor,
  random: Random,
  portfolio: RandomPortfolio,
  reservationId: string,
  from: Date,
  length: number,
): Promise<Date> {
  let sentAt = from.getTime();
  for (let index = 0; index < length; index += 1) {
    sentAt += randomGap(random) * 1000;
    const sender =
      index === 0 ? 'guest' : random.pick(['guest', 'guest', 'host', 'host', 'automation'] as const);
    await insertMessage(db, portfolio.account.accountId, reservationId, sender, new Date(sentAt));
  }
  return new Date(sentAt);
}

/** Reservations of an account without any message yet, in id order. */
async function quietReservations(db: Executor, accountId: string, count: number): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    select r.id from reservations r
    where r.account_id = ${accountId} and not exists (select 1 from messages m where m.reservation_id = r.id)
    order by r.id limit ${count}`.execute(db);
  expect(rows).toHaveLength(count);
  return rows.map((row) => row.id);
}

/** The buckets of an account as sums and sorted times, without rows later writes emptied. */
async function snapshotBuckets(db: Executor, accountId: string) {
  const { rows } = await sql<Record<string, unknown>>`
    select replies, month, dimension, group_key, bucket, waits, answered, total_seconds, within_hour, within_day,
      array(select t from unnest(times) t order by t) as times
    from guest_wait_buckets
    where account_id = ${accountId} and waits <> 0
    order by replies, month, dimension, group_key, bucket`.execute(db);
  return rows;
}

/** The listing months of an account with sorted times, without rows later writes emptied. */
async function snapshotListingMonths(db: Executor, accountId: string) {
  const { rows } = await sql<Record<string, unknown>>`
    select replies, month, listing_id, waits, answered, total_seconds, within_hour, within_day,
      ${sql.join(listingWithinSeconds.map((seconds) => sql.ref(listingWithinColumn(seconds))))},
      array(select t from unnest(times) t order by t) as times
    from listing_wait_months
    where account_id = ${accountId} and waits <> 0
    order by replies, month, listing_id`.execute(db);
  return rows;
}

/** Both roll-ups of an account's waits: the buckets and the listing months. */
async function snapshotRollups(db: Executor, accountId: string) {
  return {
    buckets: await snapshotBuckets(db, accountId),
    listingMonths: await snapshotListingMonths(db, accountId),
  };
}

/** `percentile_cont` of sorted numbers. */
function percentile(sorted: readonly number[], fraction: number): number | null {
  if (sorted.length === 0) return null;
  const position = fraction * (sorted.length - 1);
  const lower = sorted[Math.floor(position)] as number;
  const upper = sorted[Math.ceil(position)] as number;
  return lower + (position - Math.floor(position)) * (upper - lower);
}

interface Wait {
  listing_id: string;
  channel: string;
  stage: string;
  local_date: string;
  local_hour: number;
  local_weekday: number;
  guest_message_at: Date;
  response_seconds: number | null;
  automated_seconds: number | null;
}

/** Every wait of an account with what the breakdown groups and measures. */
async function waitsOf(db: Executor, accountId: string): Promise<Wait[]> {
  const { rows } = await sql<Wait>`
    select listing_id, channel, stage, local_date, local_hour, local_weekday, guest_message_at, response_seconds,
      automated_seconds
    from guest_waits where account_id = ${accountId}`.execute(db);
  return rows;
}

/**
 * The breakdown's small dimensions computed here from the waits themselves, as the definitions say, to hold
 * the SQL (either path) against.
 */
function expectedBreakdown(waits: readonly Wait[], selection: Omit<WaitSelection, 'scope'>) {
  const { inPeriod, rowOf } = expectedRows(waits, selection);
  const groupsOf = <K>(keyOf: (wait: Wait) => K) => {
    const groups = new Map<K, Wait[]>();
    for (const wait of inPeriod) groups.set(keyOf(wait), [...(groups.get(keyOf(wait)) ?? []), wait]);
    return [...groups];
  };
  const rows: BreakdownRow[] = [
    ...(inPeriod.length > 0 ? [rowOf('overall', {}, inPeriod)] : []),
    ...groupsOf((wait) => wait.channel).map(([channel, group]) => rowOf('channel', { channel }, group)),
    ...groupsOf((wait) => wait.stage).map(([stage, group]) => rowOf('stage', { stage }, group)),
    ...groupsOf((wait) => wait.local_hour).map(([hour, group]) => rowOf('hour', { local_hour: hour }, group)),
    ...groupsOf((wait) => wait.local_weekday).map(([day, group]) =>
      rowOf('weekday', { local_weekday: day }, group),
    ),
  ];
  const { overall, byChannel, byStage, byHour, byWeekday } = toResponseBreakdown(rows);
  return { overall, byChannel, byStage, byHour, byWeekday };
}

/**
 * The breakdown's listing rows computed here from the waits: every listing with waits in the period, the
 * slowest `listingLimit` by median (none answered first, then more waits, then id), and how many there were.
 */
function expectedListings(
  waits: readonly Wait[],
  names: ReadonlyMap<string, string>,
  selection: Omit<WaitSelection, 'scope'>,
  listingLimit: number,
) {
  const { inPeriod, rowOf } = expectedRows(waits, selection);
  const listingIds = [...new Set(inPeriod.map((wait) => wait.listing_id))];
  const ranked = listingIds
    .map((listingId) =>
      rowOf(
        'listing',
        { listing_id: listingId, listing_name: names.get(listingId) ?? null, listings: listingIds.length },
        inPeriod.filter((wait) => wait.listing_id === listingId),
      ),
    )
    .sort(
      (a, b) =>
        (b.median_seconds ?? Number.POSITIVE_INFINITY) - (a.median_seconds ?? Number.POSITIVE_INFINITY) ||
        b.waits - a.waits ||
        ((a.listing_id ?? '') < (b.listing_id ?? '') ? -1 : 1),
    );
  const { byListing, listingsTruncated, listingCount } = toResponseBreakdown(ranked.slice(0, listingLimit));
  return { byListing, listingsTruncated, listingCount };
}

/** The waits of a period and the measures of any group of them, as the definitions say. */
function expectedRows(waits: readonly Wait[], selection: Omit<WaitSelection, 'scope'>) {
  const { period, countAutomatedReplies } = selection;
  const inPeriod = waits.filter(
    (wait) => wait.local_date >= period.startDate && wait.local_date <= period.endDate,
  );
  const secondsOf = (wait: Wait) =>
    countAutomatedReplies && wait.automated_seconds !== null
      ? Math.min(wait.automated_seconds, wait.response_seconds ?? Number.POSITIVE_INFINITY)
      : wait.response_seconds;
  const rowOf = (
    dimension: BreakdownRow['dimension'],
    key: Partial<BreakdownRow>,
    group: readonly Wait[],
  ): BreakdownRow => {
    const times = group
      .map(secondsOf)
      .filter((seconds): seconds is number => seconds !== null)
      .sort((a, b) => a - b);
    const decidedAfter = (seconds: number) =>
      group.filter(
        (wait) =>
          secondsOf(wait) !== null ||
          wait.guest_message_at.getTime() <= selection.now.getTime() - seconds * 1000,
      ).length;
    return {
      dimension,
      channel: null,
      stage: null,
      local_hour: null,
      local_weekday: null,
      listing_id: null,
      listing_name: null,
      listings: null,
      ...key,
      waits: group.length,
      answered: times.length,
      median_seconds: percentile(times, 0.5),
      mean_seconds: times.length === 0 ? null : String(times.reduce((sum, t) => sum + t, 0) / times.length),
      p90_seconds: percentile(times, 0.9),
      within_hour: times.filter((t) => t <= 3_600).length,
      hour_decided: decidedAfter(3_600),
      within_day: times.filter((t) => t <= 86_400).length,
      day_decided: decidedAfter(86_400),
    };
  };
  return { inPeriod, rowOf };
}

describe.each(testDatabaseKinds)('response-time buckets on %s', (kind) => {
  let handle: DatabaseHandle;
  let portfolio: RandomPortfolio;
  let analytics: GuestAnalyticsUseCases;
  const random = seededRandom(20261125);

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    portfolio = await buildRandomPortfolio(handle.db, 7, {
      listings: 6,
      startDate: '2025-01-01',
      endDate: '2026-06-30',
    });
    analytics = createPostgresDomain({ db: handle.db, clock: { now: () => now } }).analytics;
    // Half the threads arrive in bulk and are counted by a rebuild, as the demo seed does.
    for (const stay of portfolio.stays.filter((_, index) => index % 2 === 0)) {
      const opened = new Date(`${addDays(stay.startDate, -random.int(0, 40))}T${random.int(10, 23)}:17:00Z`);
      await insertThread(handle.db, random, portfolio, stay.id, opened, random.int(2, 12));
    }
    await rebuildGuestWaits(handle.db, portfolio.account.accountId);
  }, 120_000);
  afterAll(async () => handle?.close());

  it('stay equal to a rebuild through new threads, replies to old ones and unchanged rewrites', async () => {
    const { accountId } = portfolio.account;
    const before = await snapshotRollups(handle.db, accountId);
    // The other half arrive message by message, each written with its thread's waits as the stores do.
    for (const stay of portfolio.stays.filter((_, index) => index % 2 === 1).slice(0, 40)) {
      const opened = new Date(`${addDays(stay.startDate, -random.int(0, 40))}T0${random.int(0, 9)}:05:00Z`);
      let last = opened;
      for (let message = 0; message < random.int(1, 5); message += 1) {
        last = await insertThread(handle.db, random, portfolio, stay.id, last, 1);
        await handle.db.transaction().execute((trx) => refreshGuestWaits(trx, [stay.id]));
      }
    }
    // Replies to threads counted by the rebuild answer their open waits, in months long closed.
    const bulk = portfolio.stays.filter((_, index) => index % 2 === 0).slice(0, 30);
    for (const stay of bulk) {
      await insertThread(handle.db, random, portfolio, stay.id, new Date(`${stay.endDate}T12:00:00Z`), 2);
    }
    await refreshGuestWaits(
      handle.db,
      bulk.map((stay) => stay.id),
    );
    // Rewriting threads whose messages did not change moves nothing: not even a row version changes.
    const settled = await snapshotRollups(handle.db, accountId);
    const versions = () =>
      sql<{ xmin: string }>`
        (select xmin::text from guest_wait_buckets where account_id = ${accountId}
          order by replies, month, dimension, group_key, bucket)
        union all
        (select xmin::text from listing_wait_months where account_id = ${accountId}
          order by replies, month, listing_id)`.execute(handle.db);
    const settledVersions = (await versions()).rows;
    await refreshGuestWaits(
      handle.db,
      portfolio.stays.map((stay) => stay.id),
    );
    expect((await versions()).rows).toEqual(settledVersions);

    expect(settled).not.toEqual(before);
    await rebuildGuestWaits(handle.db, accountId);
    expect(await snapshotRollups(handle.db, accountId)).toEqual(settled);
  });

  it('answer the breakdown as the waits themselves do, over whole months, edges and undecided days', async () => {
    const waits = await waitsOf(handle.db, portfolio.account.accountId);
    expect(waits.length).toBeGreaterThan(150);
    const periods = [
      { startDate: '2025-01-01', endDate: '2025-12-31' },
      { startDate: '2025-03-17', endDate: '2025-11-05' },
      { startDate: '2026-02-01', endDate: '2026-05-31' },
      { startDate: '2026-04-01', endDate: '2026-05-08' },
      { startDate: '2025-06-10', endDate: '2025-06-20' },
      ...Array.from({ length: 6 }, () => randomPeriod(random, portfolio.range, 400)),
    ];
    const scope = {
      accountId: portfolio.account.accountId,
      listingIds: null,
      listingGroupId: null,
      channel: null,
      listingCount: 6,
    };
    let bucketed = 0;
    for (const period of periods) {
      for (const countAutomatedReplies of [false, true]) {
        if (bucketedMonthsOf({ scope, period, countAutomatedReplies, now }) !== null) bucketed += 1;
        const breakdown = await analytics.getResponseTimeBreakdown(portfolio.account.owner, {
          ...period,
          countAutomatedReplies,
        });
        const { overall, byChannel, byStage, byHour, byWeekday } = breakdown;
        expect(
          { overall, byChannel, byStage, byHour, byWeekday },
          `${period.startDate}..${period.endDate}, automated replies ${countAutomatedReplies}`,
        ).toEqual(expectedBreakdown(waits, { period, countAutomatedReplies, now }));
      }
    }
    // Both paths ran: the buckets for periods with whole decided months, the waits alone for the others.
    expect(bucketed).toBeGreaterThanOrEqual(6);
    expect(bucketed).toBeLessThan(periods.length * 2);
  });

  it('rank the listings from the listing months as the waits themselves do', async () => {
    const { accountId } = portfolio.account;
    const waits = await waitsOf(handle.db, accountId);
    const names = new Map(
      (
        await handle.db
          .selectFrom('listings')
          .select(['id', 'name'])
          .where('account_id', '=', accountId)
          .execute()
      ).map((listing) => [listing.id, listing.name]),
    );
    const scope = { accountId, listingIds: null, listingGroupId: null, channel: null, listingCount: 6 };
    const periods = [
      { startDate: '2025-01-01', endDate: '2025-12-31' },
      { startDate: '2025-03-17', endDate: '2025-11-05' },
      { startDate: '2026-02-01', endDate: '2026-05-31' },
      ...Array.from({ length: 6 }, () => randomPeriod(random, portfolio.range, 400)),
    ];
    let ranked = 0;
    for (const period of periods) {
      for (const countAutomatedReplies of [false, true]) {
        const selection = { scope, period, countAutomatedReplies, now };
        const months = bucketedMonthsOf(selection);
        if (months === null) continue;
        for (const listingLimit of [3, 10]) {
          const rows = await monthlyListingRows(handle.db, selection, months, listingLimit);
          const { byListing, listingsTruncated, listingCount } = toResponseBreakdown(rows);
          expect(
            { byListing, listingsTruncated, listingCount },
            `${period.startDate}..${period.endDate}, automated replies ${countAutomatedReplies}, ${listingLimit}`,
          ).toEqual(expectedListings(waits, names, selection, listingLimit));
          ranked += 1;
        }
      }
    }
    expect(ranked).toBeGreaterThanOrEqual(8);
  });

  it('take out one of two equal times when one of their waits changes', async () => {
    const { accountId } = portfolio.account;
    const quiet = await quietReservations(handle.db, accountId, 2);
    // Two waits in one month, both answered after exactly 600 seconds: one bucket holds 600 twice.
    for (const id of quiet) {
      await insertMessage(handle.db, accountId, id, 'guest', '2024-03-05T10:00:00Z');
      await insertMessage(handle.db, accountId, id, 'host', '2024-03-05T10:10:00Z');
      await refreshGuestWaits(handle.db, [id]);
    }
    // A reply synced late turns out to be earlier: one of the two waits now took 300 seconds.
    const changed = quiet[0] ?? '';
    await insertMessage(handle.db, accountId, changed, 'host', '2024-03-05T10:05:00Z');
    await refreshGuestWaits(handle.db, [changed]);
    const written = await snapshotRollups(handle.db, accountId);
    await rebuildGuestWaits(handle.db, accountId);
    expect(await snapshotRollups(handle.db, accountId)).toEqual(written);
    expect(written.buckets).toContainEqual(
      expect.objectContaining({ replies: 'host', dimension: 'overall', answered: 1, times: [600] }),
    );
  });

  it('count a month’s last waits as undecided until a day has passed', async () => {
    const { accountId } = portfolio.account;
    const [reservationId = ''] = await quietReservations(handle.db, accountId, 1);
    // 13:00 UTC on 30 April is still 30 April in Berlin, New York and Tokyo; nobody has answered yet.
    await insertMessage(handle.db, accountId, reservationId, 'guest', '2026-04-30T13:00:00Z');
    await refreshGuestWaits(handle.db, [reservationId]);
    const waits = await waitsOf(handle.db, accountId);
    const april = { startDate: '2026-04-01', endDate: '2026-04-30' };
    // Seventeen hours later the wait is a miss within the hour, and not yet decided within the day.
    const morningAfter = new Date('2026-05-01T06:00:00Z');
    const breakdown = await createPostgresDomain({
      db: handle.db,
      clock: { now: () => morningAfter },
    }).analytics.getResponseTimeBreakdown(portfolio.account.owner, april);
    const { overall, byChannel, byStage, byHour, byWeekday } = breakdown;
    expect({ overall, byChannel, byStage, byHour, byWeekday }).toEqual(
      expectedBreakdown(waits, { period: april, countAutomatedReplies: false, now: morningAfter }),
    );
    expect(overall.waits).toBeGreaterThan(0);
  });

  it('are what whole months are read from', async () => {
    const year = { startDate: '2025-01-01', endDate: '2025-12-31' };
    const before = await analytics.getResponseTimeBreakdown(portfolio.account.owner, year);
    await sql`
      update guest_wait_buckets set waits = waits + 5
      where account_id = ${portfolio.account.accountId} and replies = 'host' and month = '2025-07-01'
        and dimension = 'overall' and bucket = -1`.execute(handle.db);
    const after = await analytics.getResponseTimeBreakdown(portfolio.account.owner, year);
    await rebuildGuestWaits(handle.db, portfolio.account.accountId);
    expect(after.overall.waits).toBe(before.overall.waits + 5);
  });

  it('rank the listings from the listing months for whole months', async () => {
    const { accountId } = portfolio.account;
    const selection = {
      scope: { accountId, listingIds: null, listingGroupId: null, channel: null, listingCount: 6 },
      period: { startDate: '2025-01-01', endDate: '2025-12-31' },
      countAutomatedReplies: false,
      now,
    };
    const months = bucketedMonthsOf(selection);
    if (months === null) throw new Error('2025 is a year of whole decided months');
    const waitsOfListings = async () =>
      new Map(
        (await monthlyListingRows(handle.db, selection, months, 10)).map((row) => [
          row.listing_id,
          Number(row.waits),
        ]),
      );
    const before = await waitsOfListings();
    const { rows } = await sql<{ listing_id: string }>`
      update listing_wait_months set waits = waits + 5
      where account_id = ${accountId} and replies = 'host' and month = '2025-07-01'
      returning listing_id`.execute(handle.db);
    const after = await waitsOfListings();
    await rebuildGuestWaits(handle.db, accountId);
    expect(rows.length).toBeGreaterThan(0);
    for (const { listing_id } of rows) expect(after.get(listing_id)).toBe((before.get(listing_id) ?? 0) + 5);
  });

  it('leave out groups whose rows later writes emptied', async () => {
    // A move leaves the rows it emptied behind, as one that locked a row and then moved nothing into it does.
    await sql`
      insert into guest_wait_buckets
        (account_id, replies, month, dimension, group_key, bucket, waits, answered, total_seconds, within_hour,
         within_day, times)
      values (${portfolio.account.accountId}, 'host', '2024-06-01', 'overall', '', 3, 0, 0, 0, 0, 0, '{}'),
        (${portfolio.account.accountId}, 'host', '2024-06-01', 'channel', 'airbnb', 3, 0, 0, 0, 0, 0, '{}')`.execute(
      handle.db,
    );
    const june = await analytics.getResponseTimeBreakdown(portfolio.account.owner, {
      startDate: '2024-06-01',
      endDate: '2024-06-30',
    });
    expect(june.byChannel).toEqual([]);
    expect(june.overall).toMatchObject({ waits: 0, answered: 0, medianMinutes: null });
  });
});

describe('response-time buckets written at once on postgres', () => {
  let handle: DatabaseHandle;
  let portfolio: RandomPortfolio;

  beforeAll(async () => {
    handle = await openTestDatabase('postgres');
    portfolio = await buildRandomPortfolio(handle.db, 11, {
      listings: 2,
      startDate: '2025-03-01',
      endDate: '2025-04-30',
    });
  }, 180_000);
  afterAll(async () => handle?.close());

  it('keeps both of two threads of one month written side by side', async () => {
    const random = seededRandom(5);
    const [first, second] = portfolio.stays;
    if (first === undefined || second === undefined)
      throw new Error('the portfolio has fewer than two stays');
    const threadOn = (stayId: string, at: string) => async (trx: Executor) => {
      await insertThread(trx, random, portfolio, stayId, new Date(at), 4);
      await refreshGuestWaits(trx, [stayId]);
    };
    // Both threads open in March at the same hour, so they share the overall, stage and hour rows.
    await writeWhileAnotherIsOpen(
      handle.db,
      threadOn(first.id, '2025-03-10T09:00:00Z'),
      threadOn(second.id, '2025-03-10T09:00:00Z'),
    );
    const written = await snapshotRollups(handle.db, portfolio.account.accountId);
    const threads = await handle.db
      .selectFrom('guest_waits')
      .select('reservation_id')
      .distinct()
      .where('account_id', '=', portfolio.account.accountId)
      .execute();
    expect(threads).toHaveLength(2);
    // A move lost to the other writer would leave the buckets short of what the waits rebuild them to.
    await rebuildGuestWaits(handle.db, portfolio.account.accountId);
    expect(await snapshotRollups(handle.db, portfolio.account.accountId)).toEqual(written);
  });

  it('keeps both of two messages written at once to one thread', async () => {
    const { accountId } = portfolio.account;
    const [reservationId = ''] = await quietReservations(handle.db, accountId, 1);
    await insertMessage(handle.db, accountId, reservationId, 'guest', '2025-04-02T08:00:00Z');
    await refreshGuestWaits(handle.db, [reservationId]);
    // The host answers while the guest writes again, each in a transaction of its own.
    const messageOn = (sender: 'guest' | 'host', at: string) => async (trx: Executor) => {
      await insertMessage(trx, accountId, reservationId, sender, at);
      await refreshGuestWaits(trx, [reservationId]);
    };
    await writeWhileAnotherIsOpen(
      handle.db,
      messageOn('host', '2025-04-02T08:30:00Z'),
      messageOn('guest', '2025-04-02T09:00:00Z'),
    );
    const { rows } = await sql<{ response_seconds: number | null }>`
      select response_seconds from guest_waits where reservation_id = ${reservationId}
      order by guest_message_at`.execute(handle.db);
    expect(rows).toEqual([{ response_seconds: 1800 }, { response_seconds: null }]);
    const written = await snapshotRollups(handle.db, accountId);
    await rebuildGuestWaits(handle.db, accountId);
    expect(await snapshotRollups(handle.db, accountId)).toEqual(written);
  });
});
