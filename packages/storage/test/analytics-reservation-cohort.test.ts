import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyticsScope } from '../src/analytics/analytics-scope.ts';
import { checkInCohortTotals } from '../src/analytics/check-in-cohort.ts';
import type { DatabaseHandle } from '../src/connection.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { type AnalyticsFixture, buildAnalyticsFixture } from './support/analytics-fixture.ts';

const march = { startDate: '2026-03-01', endDate: '2026-03-31' };
const february = { startDate: '2026-02-01', endDate: '2026-02-28' };
const emptyMonth = { startDate: '2024-01-01', endDate: '2024-01-31' };

describe.each(testDatabaseKinds)('check-in cohort on %s', (kind) => {
  let handle: DatabaseHandle;
  let fixture: AnalyticsFixture;
  let everything: AnalyticsScope;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    fixture = await buildAnalyticsFixture(handle.db);
    everything = {
      accountId: fixture.account.accountId,
      listingIds: null,
      listingGroupId: null,
      channel: null,
      listingCount: 4,
    };
  }, 180_000);
  afterAll(async () => handle?.close());

  it('counts live check-ins, whole stays, lead times and cancellations of each period in order', async () => {
    const totals = await checkInCohortTotals(handle.db, everything, [march, february, emptyMonth, march]);
    // March: live s2 (ci 03-10, 3 nights, booked 03-01 Berlin: lead 9), s3 (ci 03-28, 5 nights, booked 02-10:
    // lead 46), s7 (ci 03-07, 3 nights, booked 18:30 on 03-06 in Boston: lead 1). 3 check-ins, 11 nights,
    // leads 1 + 9 + 46 = 56, median 9. Cancelled s6 (ci 03-15) and s8 (ci 03-20): 2 of 2 + 3 = 5.
    // s9 inquiry, s10 declined and s11 pending are out of both counts.
    const marchTotals = {
      checkIns: 3,
      stayNights: 11,
      leadDaysSum: 56,
      leadTimeMedian: 9,
      cancelled: 2,
      cancellable: 5,
    };
    expect(totals).toEqual([
      marchTotals,
      // February: s1 (ci 02-27, 4 nights, booked 01-20: lead 8 + 30 = 38).
      { checkIns: 1, stayNights: 4, leadDaysSum: 38, leadTimeMedian: 38, cancelled: 0, cancellable: 1 },
      { checkIns: 0, stayNights: 0, leadDaysSum: 0, leadTimeMedian: null, cancelled: 0, cancellable: 0 },
      marchTotals,
    ]);
  });

  it('takes the mean of the two middle lead times for an even count', async () => {
    // 03-01..03-20: s7 (lead 1) and s2 (lead 9) → median 5; s6 and s8 cancelled.
    const [totals] = await checkInCohortTotals(handle.db, everything, [
      { startDate: '2026-03-01', endDate: '2026-03-20' },
    ]);
    expect(totals).toEqual({
      checkIns: 2,
      stayNights: 6,
      leadDaysSum: 10,
      leadTimeMedian: 5,
      cancelled: 2,
      cancellable: 4,
    });
  });

  it('honours the listing and channel filters', async () => {
    const boston = { ...everything, listingIds: [fixture.listings.boston], listingCount: 1 };
    const airbnb = { ...everything, channel: 'airbnb' as const };
    const [bostonMarch] = await checkInCohortTotals(handle.db, boston, [march]);
    const [airbnbMarch] = await checkInCohortTotals(handle.db, airbnb, [march]);
    // Boston: s7 live (3 nights, lead 1), s8 cancelled by the host.
    expect(bostonMarch).toEqual({
      checkIns: 1,
      stayNights: 3,
      leadDaysSum: 1,
      leadTimeMedian: 1,
      cancelled: 1,
      cancellable: 2,
    });
    // Airbnb in March: no live check-in; s6 cancelled.
    expect(airbnbMarch).toEqual({
      checkIns: 0,
      stayNights: 0,
      leadDaysSum: 0,
      leadTimeMedian: null,
      cancelled: 1,
      cancellable: 1,
    });
  });

  it('keeps the booked-on date in step with confirmation, whatever writes it', async () => {
    const bookedOn = async () =>
      (
        await handle.db
          .selectFrom('reservations')
          .select('booked_on')
          .where('id', '=', fixture.stays.s11 ?? '')
          .executeTakeFirstOrThrow()
      ).booked_on;
    // s11 is pending, created 2026-03-14 12:00Z: booked on its creation date until confirmed.
    expect(await bookedOn()).toBe('2026-03-14');
    // Confirmed 2026-03-16 02:00Z, which is still 03-15 (22:00) in Boston.
    await sql`update reservations set confirmed_at = '2026-03-16T02:00:00Z' where id = ${fixture.stays.s11}`.execute(
      handle.db,
    );
    expect(await bookedOn()).toBe('2026-03-15');
    await sql`update reservations set confirmed_at = null where id = ${fixture.stays.s11}`.execute(handle.db);
    expect(await bookedOn()).toBe('2026-03-14');
  });
});
