import type { Actor } from '@innkeep/domain';
import type { AnalyticsUseCases } from '@innkeep/domain/analytics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildStayNightFacts } from '../src/analytics/stay-night-facts.ts';
import type { DatabaseHandle } from '../src/connection.ts';
import { createPostgresDomain } from '../src/create-domain.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { insertBlock, insertStay } from './support/analytics-fixture.ts';
import { createTestAccount, createTestListing } from './support/fixtures.ts';

// A small account built by hand ("now" 2026-04-15 12:00Z), both listings in Berlin, EUR:
// - Old Loft, created 2025-06-01: all 31 nights of March 2026. Stay 03-01→03-11 (10 nights at 100.00).
// - New Studio, created 2026-03-16 23:30Z = 03-17 00:30 in Berlin: its supply starts on 03-17, so 15 nights
//   of March. Stay 03-20→03-25 (5 nights at 120.00); manual blocks 03-10→03-12 (before it was active:
//   nothing to take off) and 03-26→03-28 (2 nights).
// March: calendar 31 + 15 = 46, blocked 2, available 44, booked 15 → occupancy 15 / 44 = 0.3409 (counting
// every night of every listing would give 62, 4, 58 and 0.2586); RevPAR (100000 + 60000) / 44 = 36.36.
const march = { startDate: '2026-03-01', endDate: '2026-03-31' };

describe.each(testDatabaseKinds)('supply from the day a listing became active on %s', (kind) => {
  let handle: DatabaseHandle;
  let analytics: AnalyticsUseCases;
  let owner: Actor;
  let studio: string;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    const { db } = handle;
    const account = await createTestAccount(db, { timeZone: 'Europe/Berlin', currency: 'EUR' });
    owner = account.owner;
    const berlin = { currency: 'EUR', time_zone: 'Europe/Berlin', city: 'Berlin', country_code: 'DE' };
    const loft = await createTestListing(db, account.accountId, {
      ...berlin,
      name: 'Old Loft',
      created_at: '2025-06-01T08:00:00Z',
    });
    studio = await createTestListing(db, account.accountId, {
      ...berlin,
      name: 'New Studio',
      created_at: '2026-03-16T23:30:00Z',
    });
    await insertStay(db, account, {
      listingId: loft,
      startDate: '2026-03-01',
      endDate: '2026-03-11',
      nightly: Array.from({ length: 10 }, () => 10_000),
      createdAt: '2026-02-01T08:00:00.000Z',
    });
    await insertStay(db, account, {
      listingId: studio,
      startDate: '2026-03-20',
      endDate: '2026-03-25',
      nightly: Array.from({ length: 5 }, () => 12_000),
      createdAt: '2026-03-17T08:00:00.000Z',
    });
    await insertBlock(db, account.accountId, studio, '2026-03-10', '2026-03-12', 'manual');
    await insertBlock(db, account.accountId, studio, '2026-03-26', '2026-03-28', 'manual');
    await rebuildStayNightFacts(db, account.accountId);
    analytics = createPostgresDomain({
      db,
      clock: { now: () => new Date('2026-04-15T12:00:00Z') },
    }).analytics;
  }, 180_000);
  afterAll(async () => handle?.close());

  const supply = { calendarNights: 46, availableNights: 44, bookedNights: 15, occupancy: 0.3409 };

  it('counts occupancy and RevPAR over the nights since each listing became active', async () => {
    const occupancy = await analytics.getOccupancyStats(owner, march);
    expect(occupancy).toMatchObject({
      ...supply,
      listings: 2,
      blockedNights: { owner: 0, maintenance: 0, manual: 2, total: 2 },
      grossOccupancy: 0.3261,
    });
    const revpar = await analytics.getRevparStats(owner, march);
    expect(revpar).toMatchObject({ availableNights: 44, occupancy: 0.3409 });
    expect(revpar.currencies).toEqual([
      expect.objectContaining({ currency: 'EUR', calendarNights: 46, availableNights: 44, revpar: 36.36 }),
    ]);
    const kpis = await analytics.getHeadlineKpis(owner, { ...march, compareTo: [] });
    expect(kpis.occupancy.value).toBe(0.3409);
  });

  it('uses the same supply in series, breakdowns, weekday occupancy and pace', async () => {
    const series = await analytics.getTimeseriesStats(owner, {
      ...march,
      granularity: 'month',
      metrics: ['availableNights', 'occupancy'],
    });
    expect(series.buckets).toEqual([expect.objectContaining({ availableNights: 44, occupancy: 0.3409 })]);
    // 03-16 is before the studio's first night, 03-17 its first.
    const days = await analytics.getTimeseriesStats(owner, {
      startDate: '2026-03-16',
      endDate: '2026-03-17',
      granularity: 'day',
      metrics: ['availableNights'],
    });
    expect(days.buckets.map((bucket) => bucket.availableNights)).toEqual([1, 2]);

    const breakdown = await analytics.getListingBreakdownStats(owner, { ...march, by: 'listing' });
    const studioRow = breakdown.rows.find((row) => row.id === studio);
    expect(studioRow).toMatchObject({ availableNights: 13, bookedNights: 5, occupancy: 0.3846 });
    expect(breakdown.totals).toMatchObject({ availableNights: 44 });

    const patterns = await analytics.getBookingPatternStats(owner, march);
    expect(patterns.occupancyByWeekday.reduce((sum, day) => sum + day.availableNights, 0)).toBe(44);

    const pace = await analytics.getPaceStats(owner, march);
    expect(pace.onTheBooks).toMatchObject({ availableNights: 44, nights: 15, occupancy: 0.3409 });
  });
});
