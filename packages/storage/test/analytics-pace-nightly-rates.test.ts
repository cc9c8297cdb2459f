import type { AnalyticsUseCases } from '@innkeep/domain/analytics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildStayNightFacts } from '../src/analytics/stay-night-facts.ts';
import type { DatabaseHandle } from '../src/connection.ts';
import { createPostgresDomain } from '../src/create-domain.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { type AnalyticsFixture, buildAnalyticsFixture, insertStay } from './support/analytics-fixture.ts';

// The analytics fixture ("now" 2026-03-16 12:00Z) plus one Berlin stay across April's end with uneven rates:
// 2026-04-29→05-03 at 100, 100, 300, 300 EUR a night, created 2026-03-10. April's EUR stays then are
// s3 (its 04-01 night, 110), s4 (04-01→04-14, 14 × 50 = 700) and this one: at its nightly rates 04-29 and
// 04-30 bring 200 (total 1,010.00), spread evenly 800 / 4 × 2 = 400 (total 1,210.00).
const april = { startDate: '2026-04-01', endDate: '2026-04-30' };

describe.each(testDatabaseKinds)('pace rent on %s', (kind) => {
  let handle: DatabaseHandle;
  let fixture: AnalyticsFixture;
  let analytics: AnalyticsUseCases;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    fixture = await buildAnalyticsFixture(handle.db);
    await insertStay(handle.db, fixture.account, {
      listingId: fixture.listings.berlin,
      startDate: '2026-04-29',
      endDate: '2026-05-03',
      nightly: [10_000, 10_000, 30_000, 30_000],
      createdAt: '2026-03-10T10:00:00.000Z',
    });
    await rebuildStayNightFacts(handle.db, fixture.account.accountId);
    analytics = createPostgresDomain({ db: handle.db, clock: { now: () => fixture.now } }).analytics;
  }, 180_000);
  afterAll(async () => handle?.close());

  it('counts today’s books at the nightly rates, as the revenue tools do', async () => {
    const { owner } = fixture.account;
    const pace = await analytics.getPaceStats(owner, april);
    const revenue = await analytics.getRevenueStats(owner, april);
    expect(pace.onTheBooks.rent).toEqual([{ currency: 'EUR', amount: 1010 }]);
    expect(
      revenue.currencies.map(({ currency, accommodationRevenue }) => ({
        currency,
        amount: accommodationRevenue,
      })),
    ).toEqual(pace.onTheBooks.rent);
    expect(pace.meta.notes.join(' ')).toMatch(/nightly rates/);
  });

  it('spreads rent evenly in past books, and in both sides of the pickup', async () => {
    const { owner } = fixture.account;
    const past = await analytics.getPaceStats(owner, { ...april, asOf: '2026-03-12', pickupDays: [1] });
    expect(past.onTheBooks.rent).toEqual([{ currency: 'EUR', amount: 1210 }]);
    // Nothing changed for April since 03-15: the net pickup of rent is nothing, whatever the current basis.
    const today = await analytics.getPaceStats(owner, { ...april, pickupDays: [1] });
    expect(today.pickup[0]?.netRent).toEqual([{ currency: 'EUR', amount: 0 }]);
  });
});
