import { describe, expect, it } from 'vitest';
import type { PricingStatsCurrency } from '../src/analytics/pricing-stats.ts';
import type { CalendarDay } from '../src/calendar/calendar.ts';
import { dayOfWeek } from '../src/core/dates.ts';
import { testDatabaseKinds } from '../src/postgres/testing.ts';
import { useGuestWorld } from './support/analytics-guest-world.ts';

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
    const owner = world.fixture.account.owner;
    const stats = await world.domain.analytics.getPricingStats(owner, march);
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
    const expected = new Map<
      string,
      { open: number[]; weekday: number[]; weekend: number[]; sold: number[] }
    >();
    for (const listingId of Object.values(world.fixture.listings)) {
      const calendar = await world.domain.calendar.get(owner, { listingId, ...march });
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
    const byCurrency = new Map(
      stats.currencies.map((entry: PricingStatsCurrency) => [entry.currency, entry]),
    );
    expect([...byCurrency.keys()]).toEqual(['EUR', 'USD']);
    for (const [currency, prices] of expected) {
      const entry = byCurrency.get(currency);
      expect(entry?.listed).toEqual(summaryOf(prices.open));
      expect(entry?.weekday).toEqual(summaryOf(prices.weekday));
      expect(entry?.weekend).toEqual(summaryOf(prices.weekend));
      const listedCents = prices.sold.reduce((sum, price) => sum + Math.round(price * 100), 0);
      expect(entry?.booked.soldNights).toBe(prices.sold.length);
      expect(entry?.booked.listedMean).toBe(Math.round(listedCents / prices.sold.length) / 100);
    }
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
