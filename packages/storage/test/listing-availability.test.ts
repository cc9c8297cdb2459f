import {
  type Actor,
  addDays,
  type CalendarDay,
  type Clock,
  type InnkeepDomain,
  maxAvailabilityWindowNights,
  minDate,
} from '@innkeep/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/connection.ts';
import { createPostgresDomain } from '../src/create-domain.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import {
  buildRandomPortfolio,
  type RandomPortfolio,
  randomPeriod,
  seededRandom,
} from './support/analytics-random.ts';
import { createTestListing } from './support/fixtures.ts';

// listAvailable answers "which listings are free on every night of this stay" in one query. It must mean
// exactly what the calendar means by an available night, so every answer below is checked against
// calendar.get for every listing, on a seeded random portfolio (stays of every status, blocks of every
// reason, stays back to back) and through the real write paths (booking, cancelling, blocking, opening).

// The listings' today: 2026-03-16 in every zone the portfolio uses.
const clock: Clock = { now: () => new Date('2026-03-16T12:00:00.000Z') };
const today = '2026-03-16';
const seed = 20_261_127;
const guest = { firstName: 'Grace', lastName: 'Guest' };
/** Most days one calendar read returns (getCalendarInputSchema). */
const calendarReadDays = 366;

/** A stay window: check-in date and check-out date (the last night is the day before). */
interface StayWindow {
  readonly startDate: string;
  readonly endDate: string;
}

describe.each(testDatabaseKinds)('listings free for a stay on %s', (kind) => {
  let handle: DatabaseHandle;
  let domain: InnkeepDomain;
  let portfolio: RandomPortfolio;
  let stranger: RandomPortfolio;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    portfolio = await buildRandomPortfolio(handle.db, seed, { listings: 6 });
    stranger = await buildRandomPortfolio(handle.db, seed + 1, { listings: 3 });
    domain = createPostgresDomain({ db: handle.db, clock });
  }, 240_000);

  afterAll(async () => {
    await handle?.close();
  });

  const owner = () => portfolio.account.owner;

  /** Ids of the listings listAvailable answers for the window, read whole. */
  async function availableIds(actor: Actor, window: StayWindow): Promise<string[]> {
    const page = await domain.listings.listAvailable(actor, { ...window, limit: 500 });
    expect(page.hasMore).toBe(false);
    return page.items.map((listing) => listing.id);
  }

  /** The statuses the listing's calendar shows over the window's nights, read in calendar-sized parts. */
  async function calendarStatuses(
    actor: Actor,
    listingId: string,
    window: StayWindow,
  ): Promise<Set<CalendarDay['status']>> {
    const statuses = new Set<CalendarDay['status']>();
    const lastNight = addDays(window.endDate, -1);
    for (let from = window.startDate; from <= lastNight; from = addDays(from, calendarReadDays)) {
      const to = minDate(addDays(from, calendarReadDays - 1), lastNight);
      const calendar = await domain.calendar.get(actor, { listingId, startDate: from, endDate: to });
      for (const day of calendar.days) statuses.add(day.status);
    }
    return statuses;
  }

  /** Every listing of the actor's account by name, with what its calendar shows over the window. */
  async function calendarsOver(actor: Actor, window: StayWindow) {
    const listings = (await domain.listings.list(actor, { limit: 500 })).items;
    return Promise.all(
      listings.map(async (listing) => ({
        id: listing.id,
        statuses: await calendarStatuses(actor, listing.id, window),
      })),
    );
  }

  it('agrees with the calendar of every listing over past, current, future and random windows', async () => {
    const random = seededRandom(seed + 2);
    const windows: StayWindow[] = [
      { startDate: '2025-02-10', endDate: '2025-02-13' },
      { startDate: '2025-06-01', endDate: '2025-06-02' },
      { startDate: today, endDate: addDays(today, 1) },
      { startDate: today, endDate: addDays(today, 4) },
      { startDate: '2026-06-25', endDate: '2026-07-05' },
      { startDate: '2026-09-01', endDate: '2026-09-08' },
      { startDate: '2025-01-01', endDate: '2026-12-31' },
    ];
    for (let index = 0; index < 10; index += 1) {
      const period = randomPeriod(random, portfolio.range, 6);
      windows.push({ startDate: period.startDate, endDate: addDays(period.endDate, 1) });
    }
    const seen = { free: 0, booked: 0, blockedOnly: 0 };
    for (const window of windows) {
      const calendars = await calendarsOver(owner(), window);
      const expected = calendars.filter((listing) => [...listing.statuses].every((s) => s === 'available'));
      expect(await availableIds(owner(), window), JSON.stringify(window)).toEqual(
        expected.map((listing) => listing.id),
      );
      seen.free += expected.length;
      seen.booked += calendars.filter((listing) => listing.statuses.has('booked')).length;
      seen.blockedOnly += calendars.filter(
        (listing) => listing.statuses.has('blocked') && !listing.statuses.has('booked'),
      ).length;
    }
    // The windows must have ruled listings out for bookings and for blocks alone, and kept some.
    expect(seen.free).toBeGreaterThan(0);
    expect(seen.booked).toBeGreaterThan(0);
    expect(seen.blockedOnly).toBeGreaterThan(0);
  });

  it('does not count a stay ending on the check-in date or starting on the check-out date', async () => {
    const holding = portfolio.stays.filter((stay) => stay.status === 'accepted' || stay.status === 'pending');
    // About two dozen stays, spread over every listing (the generator lists each listing's stays in turn).
    const step = Math.ceil(holding.length / 24);
    let keptAtAnEdge = 0;
    for (const stay of holding.filter((_, index) => index % step === 0)) {
      for (const window of [
        { startDate: stay.endDate, endDate: addDays(stay.endDate, 1) },
        { startDate: addDays(stay.startDate, -1), endDate: stay.startDate },
      ]) {
        const statuses = await calendarStatuses(owner(), stay.listingId, window);
        const free = [...statuses].every((status) => status === 'available');
        expect((await availableIds(owner(), window)).includes(stay.listingId), JSON.stringify(window)).toBe(
          free,
        );
        if (free) keptAtAnEdge += 1;
      }
      // One night of overlap at either end is a clash.
      for (const night of [stay.startDate, addDays(stay.endDate, -1)]) {
        const window = { startDate: night, endDate: addDays(night, 1) };
        expect(await availableIds(owner(), window)).not.toContain(stay.listingId);
      }
    }
    expect(keptAtAnEdge).toBeGreaterThan(0);
  });

  it('keeps the nights of cancelled, declined and inquiry stays open, and counts every block', async () => {
    const released = portfolio.stays.filter(
      (stay) => stay.status === 'cancelled' || stay.status === 'declined' || stay.status === 'inquiry',
    );
    expect(released.length).toBeGreaterThan(0);
    for (const stay of released) {
      // The generator never lets a stay or block overlap another, so these nights are open.
      const nights = { startDate: stay.startDate, endDate: stay.endDate };
      expect(await availableIds(owner(), nights), JSON.stringify(stay)).toContain(stay.listingId);
    }
    for (const block of portfolio.blocks) {
      const nights = { startDate: block.startDate, endDate: block.endDate };
      expect(await availableIds(owner(), nights), JSON.stringify(block)).not.toContain(block.listingId);
    }
  });

  it('follows bookings, cancellations, blocks and reopened nights as they are written', async () => {
    const listingId = await createTestListing(handle.db, portfolio.account.accountId, {
      name: 'Willow Cabin',
    });
    const isFree = async (startDate: string, endDate: string) =>
      (await availableIds(owner(), { startDate, endDate })).includes(listingId);

    const booked = await domain.reservations.create(owner(), {
      listingId,
      startDate: '2026-07-10',
      endDate: '2026-07-14',
      guest,
      adults: 2,
      guestPrice: 480,
    });
    expect(await isFree('2026-07-14', '2026-07-16')).toBe(true);
    expect(await isFree('2026-07-08', '2026-07-10')).toBe(true);
    expect(await isFree('2026-07-13', '2026-07-15')).toBe(false);
    expect(await isFree('2026-07-09', '2026-07-11')).toBe(false);
    expect(await isFree('2026-07-01', '2026-08-01')).toBe(false);
    await domain.reservations.cancel(owner(), { reservationId: booked.id });
    expect(await isFree('2026-07-01', '2026-08-01')).toBe(true);

    await domain.reservations.create(owner(), {
      listingId,
      startDate: '2026-07-20',
      endDate: '2026-07-22',
      guest,
      adults: 1,
      status: 'inquiry',
    });
    expect(await isFree('2026-07-20', '2026-07-22')).toBe(true);
    await domain.reservations.create(owner(), {
      listingId,
      startDate: '2026-07-24',
      endDate: '2026-07-26',
      guest,
      adults: 1,
      guestPrice: 200,
      status: 'pending',
    });
    expect(await isFree('2026-07-25', '2026-07-26')).toBe(false);

    // setAvailability's endDate is the last night itself.
    await domain.calendar.setAvailability(owner(), {
      listingId,
      startDate: '2026-08-01',
      endDate: '2026-08-03',
      available: false,
      reason: 'owner',
    });
    await domain.calendar.setAvailability(owner(), {
      listingId,
      startDate: '2026-08-10',
      endDate: '2026-08-10',
      available: false,
      reason: 'maintenance',
    });
    expect(await isFree('2026-07-30', '2026-08-01')).toBe(true);
    expect(await isFree('2026-08-03', '2026-08-04')).toBe(false);
    expect(await isFree('2026-08-04', '2026-08-10')).toBe(true);
    expect(await isFree('2026-08-09', '2026-08-11')).toBe(false);
    await domain.calendar.setAvailability(owner(), {
      listingId,
      startDate: '2026-08-01',
      endDate: '2026-08-10',
      available: true,
    });
    expect(await isFree('2026-07-30', '2026-08-12')).toBe(true);
  });

  it("never answers another account's listings", async () => {
    const farAhead = { startDate: '2028-01-03', endDate: '2028-01-10' };
    const ownIds = async (actor: Actor) =>
      (await domain.listings.list(actor, { limit: 500 })).items.map((listing) => listing.id);
    const mine = await ownIds(owner());
    const theirs = await ownIds(stranger.account.owner);
    expect(await availableIds(owner(), farAhead)).toEqual(mine);
    expect(await availableIds(stranger.account.owner, farAhead)).toEqual(theirs);
    expect(theirs.filter((id) => mine.includes(id))).toEqual([]);
    for (const window of [{ startDate: today, endDate: addDays(today, 2) }, farAhead]) {
      const answered = await availableIds(owner(), window);
      expect(answered.filter((id) => theirs.includes(id))).toEqual([]);
    }
  });

  it('pages by name like list: the pages make up the whole answer, and list cursors carry over', async () => {
    for (const window of [
      { startDate: '2028-01-03', endDate: '2028-01-10' },
      { startDate: today, endDate: addDays(today, 2) },
    ]) {
      const whole = await availableIds(owner(), window);
      for (const limit of [1, 2, 5]) {
        const paged: string[] = [];
        let cursor: string | undefined;
        for (;;) {
          const page = await domain.listings.listAvailable(owner(), { ...window, limit, cursor });
          expect(page.items.length).toBeLessThanOrEqual(limit);
          paged.push(...page.items.map((listing) => listing.id));
          if (!page.hasMore) {
            expect(page.nextCursor).toBeNull();
            break;
          }
          cursor = page.nextCursor ?? undefined;
        }
        expect(paged, `${JSON.stringify(window)} by ${limit}`).toEqual(whole);
      }
    }
    // A cursor of list continues after the same listing, free or not.
    const farAhead = { startDate: '2028-01-03', endDate: '2028-01-10' };
    const firstTwo = await domain.listings.list(owner(), { limit: 2 });
    const after = await domain.listings.listAvailable(owner(), {
      ...farAhead,
      limit: 500,
      cursor: firstTwo.nextCursor ?? undefined,
    });
    expect(after.items.map((listing) => listing.id)).toEqual(
      (await availableIds(owner(), farAhead)).slice(2),
    );
  });

  it('refuses windows without a night, longer than the limit, with bad dates or a foreign cursor', async () => {
    const longest = { startDate: today, endDate: addDays(today, maxAvailabilityWindowNights) };
    await expect(domain.listings.listAvailable(owner(), longest)).resolves.toMatchObject({ hasMore: false });
    for (const input of [
      { startDate: today, endDate: today },
      { startDate: today, endDate: addDays(today, -3) },
      { startDate: today, endDate: addDays(today, maxAvailabilityWindowNights + 1) },
      { startDate: '2026-02-30', endDate: '2026-03-04' },
      { startDate: today, endDate: addDays(today, 2), cursor: 'not-a-cursor' },
    ]) {
      await expect(
        domain.listings.listAvailable(owner(), input),
        JSON.stringify(input),
      ).rejects.toMatchObject({ code: 'invalid_argument' });
    }
  });
});
