import type { CalendarDay } from '@innkeep/domain';
import { dayOfWeek, newId } from '@innkeep/domain';
import type { AnalyticsPeriod, PricingStatsCurrency } from '@innkeep/domain/analytics';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createReservationUseCases } from '../src/reservations/reservations.store.ts';
import { testDatabaseKinds } from '../src/testing.ts';
import { type GuestWorld, useGuestWorld } from './support/analytics-guest-world.ts';
import { writeWhileAnotherIsOpen } from './support/concurrent-writers.ts';
import { createTestListing } from './support/fixtures.ts';

const march = { startDate: '2026-03-01', endDate: '2026-03-31' };

/** Mean, median, min and max of prices in major units, as the tool rounds them. */
function summaryOf(prices: readonly number[]) {
  const sorted = [...prices].sort((a, b) => a - b);
  const cents = sorted.map((price) => Math.round(price * 100));
  const n = cents.length;
  const middle =
    Math.round(((cents[Math.floor((n - 1) / 2)] ?? 0) + (cents[Math.floor(n / 2)] ?? 0)) / 2) / 100;
  return {
    openNights: n,
    mean: Math.round(cents.reduce((sum, value) => sum + value, 0) / n) / 100,
    median: middle,
    min: sorted[0],
    max: sorted[n - 1],
    nullReasons: {},
  };
}

/**
 * Checks the tool against the calendar night by night over `period` for every listing of the fixture's
 * account: open nights' listed prices (all, weekday, weekend) and sold nights' count and listed mean, per
 * currency. Returns the currencies the tool reported.
 */
async function expectCalendarPrices(world: GuestWorld, period: AnalyticsPeriod): Promise<string[]> {
  const owner = world.fixture.account.owner;
  const stats = await world.domain.analytics.getPricingStats(owner, period);
  const accepted = new Set(
    (
      await world.handle.db
        .selectFrom('reservations')
        .select('id')
        .where('account_id', '=', world.fixture.account.accountId)
        .where('status', '=', 'accepted')
        .execute()
    ).map((row) => row.id),
  );
  const listingIds = (
    await world.handle.db
      .selectFrom('listings')
      .select('id')
      .where('account_id', '=', world.fixture.account.accountId)
      .execute()
  ).map((row) => row.id);
  const expected = new Map<
    string,
    { open: number[]; weekday: number[]; weekend: number[]; sold: number[] }
  >();
  for (const listingId of listingIds) {
    const calendar = await world.domain.calendar.get(owner, { listingId, ...period });
    const prices = expected.get(calendar.currency) ?? { open: [], weekday: [], weekend: [], sold: [] };
    expected.set(calendar.currency, prices);
    for (const day of calendar.days as CalendarDay[]) {
      if (day.status === 'available') {
        prices.open.push(day.price);
        ([5, 6].includes(dayOfWeek(day.date)) ? prices.weekend : prices.weekday).push(day.price);
      } else if (day.reservationId !== null && accepted.has(day.reservationId)) {
        prices.sold.push(day.price);
      }
    }
  }
  const byCurrency = new Map(stats.currencies.map((entry: PricingStatsCurrency) => [entry.currency, entry]));
  expect([...byCurrency.keys()].sort()).toEqual([...expected.keys()].sort());
  const summaryOrNone = (prices: readonly number[]) =>
    prices.length === 0 ? expect.objectContaining({ openNights: 0, mean: null }) : summaryOf(prices);
  for (const [currency, prices] of expected) {
    const entry = byCurrency.get(currency);
    expect(entry?.listed).toEqual(summaryOrNone(prices.open));
    expect(entry?.weekday).toEqual(summaryOrNone(prices.weekday));
    expect(entry?.weekend).toEqual(summaryOrNone(prices.weekend));
    const listedCents = prices.sold.reduce((sum, price) => sum + Math.round(price * 100), 0);
    expect(entry?.booked.soldNights).toBe(prices.sold.length);
    expect(entry?.booked.listedMean).toBe(
      prices.sold.length === 0 ? null : Math.round(listedCents / prices.sold.length) / 100,
    );
  }
  return [...byCurrency.keys()];
}

describe.each(testDatabaseKinds)('pricing stats on %s', (kind) => {
  const world = useGuestWorld(kind);

  it('summarises Berlin’s open nights at the calendar’s prices, rules and per-date prices included', async () => {
    const stats = await world.domain.analytics.getPricingStats(world.fixture.account.owner, {
      ...march,
      listingIds: [world.fixture.listings.berlin],
    });
    // Open nights in March (held: s1 1–2, maintenance 5–7, s2 10–12, s20 13–14, manual 24–25, s3 28–31):
    //   03 Tue 120.00 per-date, orphan gap 3–4 (2 nights) −20 % → 96.00   04 Wed 100 −20 % → 80.00
    //   08 Sun, 09 Mon: gap 8–9 → 80.00 each        15 Sun → 100.00 (gap of 9 nights: no discount)
    //   16 Mon, 17 Tue, 18 Wed: last-minute (today 03-16 + 2 days) −5 % → 95.00 each     19 Thu → 100.00
    //   20 Fri: weekend +10 % → 110, Berlin event +15 → 125.00    21 Sat: 110 per-date +10 % → 121, +15 → 136.00
    //   22 Sun: +15 → 115.00     23 Mon → 100.00     26 Thu: gap 26–27 → 80.00     27 Fri: 110 −20 % → 88.00
    // 15 nights, sum 1465.00: mean 97.67; sorted 80 ×4, 88, 95 ×3, 96, 100 ×3, 115, 125, 136 → median 95.00.
    // Weekend (20, 21, 27): 349.00 / 3 = 116.33, median 125. Weekday: 1116.00 / 12 = 93.00, median 95.
    // Sold nights: s1 1–2 (120 each), s2 10–12 (90 each), s20 13–14 (95 each), s3 28–31 (110 each): 11 nights,
    // 1140.00 → ADR 103.64. Listed: 100, 100 | 100, 95 (per-date), 100 | 110, 110 (Fri, Sat) | 110 (Sat), 100,
    // 100, 100 = 1125.00 → mean 102.27; realisation 1140 / 1125 = 1.0133.
    expect(stats.currencies).toEqual([
      {
        currency: 'EUR',
        listed: { openNights: 15, mean: 97.67, median: 95, min: 80, max: 136, nullReasons: {} },
        weekday: { openNights: 12, mean: 93, median: 95, min: 80, max: 115, nullReasons: {} },
        weekend: { openNights: 3, mean: 116.33, median: 125, min: 88, max: 136, nullReasons: {} },
        booked: { soldNights: 11, adr: 103.64, listedMean: 102.27, realisation: 1.0133, nullReasons: {} },
      },
    ]);
    expect(stats.meta).toMatchObject({
      period: { startDate: '2026-03-01', endDate: '2026-03-31', nights: 31 },
      basis: 'calendar_date',
      listings: 1,
      currencies: ['EUR'],
    });
    expect(stats.meta.definitions).toContain('pricing_stats');
    expect(stats.meta.notes.join(' ')).toMatch(/no price history/);
  });

  it('narrows only the sold nights to a channel', async () => {
    const stats = await world.domain.analytics.getPricingStats(world.fixture.account.owner, {
      ...march,
      listingIds: [world.fixture.listings.berlin],
      channel: 'airbnb',
    });
    // Airbnb: s1 1–2 (240.00, listed 200.00) and s20 13–14 (190.00, listed 220.00): 4 nights, 430.00 → ADR
    // 107.50, listed mean 105.00, realisation 430 / 420 = 1.0238. The open nights are the same as without it.
    expect(stats.currencies[0]?.booked).toEqual({
      soldNights: 4,
      adr: 107.5,
      listedMean: 105,
      realisation: 1.0238,
      nullReasons: {},
    });
    expect(stats.currencies[0]?.listed.openNights).toBe(15);
    expect(stats.meta.notes.join(' ')).toMatch(/airbnb/);
  });

  it('agrees with the calendar night by night across the portfolio, per currency', async () => {
    expect(await expectCalendarPrices(world, march)).toEqual(['EUR', 'USD']);
  });

  it('agrees with the calendar before the first holds, after the last and over half a year', async () => {
    // Before any hold, every night is in the run before each listing's first hold; after the last, in the
    // run after it. Half a year is counted in two halves side by side, the piece around its middle (up to
    // the last-minute window) partly in each.
    await expectCalendarPrices(world, { startDate: '2024-06-01', endDate: '2024-06-30' });
    await expectCalendarPrices(world, { startDate: '2027-02-01', endDate: '2027-02-28' });
    await expectCalendarPrices(world, { startDate: '2025-12-01', endDate: '2026-06-14' });
  });

  it('returns nulls with reasons where there is nothing to price, and keeps the currency', async () => {
    // The cabin is owner-blocked all of March: no open night, no sold night.
    const stats = await world.domain.analytics.getPricingStats(world.fixture.account.owner, {
      ...march,
      listingIds: [world.fixture.listings.cabin],
    });
    expect(stats.currencies).toEqual([
      {
        currency: 'EUR',
        listed: {
          openNights: 0,
          mean: null,
          median: null,
          min: null,
          max: null,
          nullReasons: {
            mean: 'no_open_nights',
            median: 'no_open_nights',
            min: 'no_open_nights',
            max: 'no_open_nights',
          },
        },
        weekday: expect.objectContaining({ openNights: 0, mean: null }),
        weekend: expect.objectContaining({ openNights: 0, mean: null }),
        booked: {
          soldNights: 0,
          adr: null,
          listedMean: null,
          realisation: null,
          nullReasons: {
            adr: 'no_booked_nights',
            listedMean: 'no_booked_nights',
            realisation: 'no_booked_nights',
          },
        },
      },
    ]);
  });

  it('filters by listing group and refuses unknown ids and bad periods', async () => {
    const owner = world.fixture.account.owner;
    const grouped = await world.domain.analytics.getPricingStats(owner, {
      ...march,
      listingGroupId: world.fixture.groups.cities,
    });
    expect(grouped.meta.listings).toBe(2);
    expect(grouped.currencies.map((entry) => entry.currency)).toEqual(['EUR', 'USD']);
    await expect(
      world.domain.analytics.getPricingStats(owner, { ...march, listingIds: ['lst_unknown'] }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      world.domain.analytics.getPricingStats(owner, { startDate: '2026-03-31', endDate: '2026-03-01' }),
    ).rejects.toMatchObject({ code: 'invalid_argument' });
  });
});

describe.each(testDatabaseKinds)('pricing stats as holds and rules change on %s', (kind) => {
  const world = useGuestWorld(kind);
  const spring = { startDate: '2026-03-01', endDate: '2026-05-31' };

  /** The stored spans equal the spans rebuilt from the holds. */
  async function expectExactSpans(): Promise<void> {
    const stored = await sql<{ listing_id: string; first_night: string; end_night: string }>`
      select listing_id, first_night::text, end_night::text from calendar_hold_spans
      order by listing_id`.execute(world.handle.db);
    const rebuilt = await sql<{ listing_id: string; first_night: string; end_night: string }>`
      select listing_id, min(lower(nights))::text as first_night, max(upper(nights))::text as end_night
      from calendar_holds group by listing_id order by listing_id`.execute(world.handle.db);
    expect(stored.rows).toEqual(rebuilt.rows);
  }

  it('keeps calendar_hold_spans exact and agrees with the calendar through hold writes', async () => {
    const db = world.handle.db;
    const { accountId, owner } = world.fixture.account;
    // A listing without holds, and a Monday rule: weekdays now fall into three groups priced apart.
    const quiet = await createTestListing(db, accountId, {
      name: 'Quiet Flat',
      currency: 'EUR',
      time_zone: 'Europe/Berlin',
      base_price_minor: 8_000,
    });
    await db
      .insertInto('pricing_rules')
      .values({
        id: newId('pricingRule'),
        account_id: accountId,
        name: 'Monday dip',
        position: 5,
        listing_ids: null,
        adjustment_kind: 'percent',
        adjustment_amount: -7,
        days_of_week: [1],
        start_date: null,
        end_date: null,
        last_minute_days: null,
        orphan_gap_max_nights: null,
      })
      .execute();
    await expectExactSpans();
    await expectCalendarPrices(world, spring);

    // Blocks in one statement, out of order, with a two-night orphan gap between them.
    const blockIds = [newId('block'), newId('block')];
    await db
      .insertInto('calendar_holds')
      .values(
        [
          [blockIds[0], '2026-04-10', '2026-04-14'],
          [blockIds[1], '2026-04-01', '2026-04-08'],
        ].map(([id, startDate, endDate]) => ({
          id: id ?? '',
          account_id: accountId,
          listing_id: quiet,
          nights: `[${startDate},${endDate})`,
          kind: 'block',
          block_reason: 'maintenance',
        })),
      )
      .execute();
    await expectExactSpans();
    await expectCalendarPrices(world, spring);

    // Grow the last block past the period's end, then move the first to another listing.
    await sql`update calendar_holds set nights = '[2026-04-10,2026-06-10)' where id = ${blockIds[0]}`.execute(
      db,
    );
    await expectExactSpans();
    await expectCalendarPrices(world, spring);
    await sql`
      update calendar_holds set listing_id = ${world.fixture.listings.cabin}, nights = '[2026-05-02,2026-05-03)'
      where id = ${blockIds[1]}`.execute(db);
    await expectExactSpans();
    await expectCalendarPrices(world, spring);

    // Through the use cases: a pending reservation (held), a block, then the reservation cancelled.
    const reservations = createReservationUseCases({ db, clock: { now: () => world.fixture.now } });
    const stay = await reservations.create(owner, {
      listingId: quiet,
      startDate: '2026-03-20',
      endDate: '2026-03-23',
      guest: { firstName: 'Grace', lastName: 'Guest' },
      adults: 2,
      guestPrice: 300,
      status: 'pending',
    });
    await world.domain.calendar.setAvailability(owner, {
      listingId: quiet,
      startDate: '2026-03-25',
      endDate: '2026-03-26',
      available: false,
    });
    await expectExactSpans();
    await expectCalendarPrices(world, spring);
    await reservations.cancel(owner, { reservationId: stay.id, cancelledBy: 'guest' });
    await expectExactSpans();
    await expectCalendarPrices(world, spring);

    // The listing's last holds deleted: no span, its whole calendar open again.
    await db.deleteFrom('calendar_holds').where('listing_id', '=', quiet).execute();
    expect(
      await db
        .selectFrom('calendar_hold_spans')
        .select('listing_id')
        .where('listing_id', '=', quiet)
        .execute(),
    ).toEqual([]);
    await expectExactSpans();
    await expectCalendarPrices(world, spring);

    // Gaps are packed under the year they start in (migration 0031). Across the new year, three open nights:
    // no orphan gap, even where the period starts inside it and leaves one of them; then a two-night one.
    await db
      .insertInto('calendar_holds')
      .values(
        [
          ['2026-12-27', '2026-12-30'],
          ['2027-01-02', '2027-01-05'],
          ['2027-01-07', '2027-01-09'],
        ].map(([startDate, endDate]) => ({
          id: newId('block'),
          account_id: accountId,
          listing_id: quiet,
          nights: `[${startDate},${endDate})`,
          kind: 'block',
          block_reason: 'owner',
        })),
      )
      .execute();
    await expectCalendarPrices(world, { startDate: '2027-01-01', endDate: '2027-01-31' });
    await expectCalendarPrices(world, { startDate: '2026-12-01', endDate: '2027-02-28' });
  });

  // Only a server can keep a transaction open while another one runs; PGlite runs one at a time.
  it.runIf(kind === 'postgres')(
    'keeps spans exact when two transactions write one listing at once',
    async () => {
      const db = world.handle.db;
      const { accountId } = world.fixture.account;
      const listingId = await createTestListing(db, accountId, { name: 'Raced Retreat' });
      const block = (startDate: string, endDate: string) => ({
        id: newId('block'),
        account_id: accountId,
        listing_id: listingId,
        nights: `[${startDate},${endDate})`,
        kind: 'block',
        block_reason: 'owner',
      });
      await db.insertInto('calendar_holds').values(block('2026-08-10', '2026-08-12')).execute();

      // One moves the listing's first held night earlier, the other its last one later; the second's rebuild
      // waits for the first transaction, then reads the hold that one committed.
      await writeWhileAnotherIsOpen(
        db,
        (trx) => trx.insertInto('calendar_holds').values(block('2026-08-01', '2026-08-02')).execute(),
        (trx) => trx.insertInto('calendar_holds').values(block('2026-08-30', '2026-08-31')).execute(),
      );

      expect(
        await db
          .selectFrom('calendar_hold_spans')
          .select(['first_night', 'end_night'])
          .where('listing_id', '=', listingId)
          .execute(),
      ).toEqual([{ first_night: '2026-08-01', end_night: '2026-08-31' }]);
      await expectExactSpans();
    },
  );
});
