import { type Actor, daysBetween } from '@innkeep/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/connection.ts';
import { createPostgresDomain } from '../src/create-domain.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { insertStay } from './support/analytics-fixture.ts';
import { createTestAccount, createTestListing, type TestAccount } from './support/fixtures.ts';

// get_upcoming_reservations takes each listing's own today. Its statement counts the common case, every
// listing on one date, in a branch of its own; these listings straddle midnight, so the other branch counts.
// At 2026-03-16 23:30Z it is 00:30 on 03-17 in Berlin and 23:30 on 03-16 in Lisbon.
const now = new Date('2026-03-16T23:30:00.000Z');

describe.each(testDatabaseKinds)('upcoming reservations across time zones on %s', (kind) => {
  let handle: DatabaseHandle;
  let account: TestAccount;
  let owner: Actor;
  let berlin: string;
  let lisbon: string;
  const stays: Record<string, string> = {};

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    account = await createTestAccount(handle.db, { timeZone: 'Europe/Berlin', currency: 'EUR' });
    owner = account.owner;
    const euro = { currency: 'EUR', city: 'Berlin', country_code: 'DE' };
    berlin = await createTestListing(handle.db, account.accountId, {
      ...euro,
      name: 'Berlin',
      time_zone: 'Europe/Berlin',
      created_at: new Date('2025-01-01T00:00:00Z'),
    });
    lisbon = await createTestListing(handle.db, account.accountId, {
      ...euro,
      name: 'Lisbon',
      time_zone: 'Europe/Lisbon',
      created_at: new Date('2025-01-01T00:00:00Z'),
    });
    const stay = (listingId: string, startDate: string, endDate: string) =>
      insertStay(handle.db, account, {
        listingId,
        startDate,
        endDate,
        nightly: Array.from({ length: daysBetween(startDate, endDate) }, () => 10_000),
        createdAt: '2026-03-01T10:00:00.000Z',
      });
    // Berlin (today 03-17): one stay checked out this morning, the next arrives today.
    stays.berlinLeft = await stay(berlin, '2026-03-16', '2026-03-17');
    stays.berlinArriving = await stay(berlin, '2026-03-17', '2026-03-19');
    // Lisbon (today 03-16): in house since 03-15, and the next guest arrives on 03-18.
    stays.lisbonInHouse = await stay(lisbon, '2026-03-15', '2026-03-17');
    stays.lisbonArriving = await stay(lisbon, '2026-03-18', '2026-03-20');
  }, 180_000);
  afterAll(async () => handle?.close());

  it('counts and lists each stay against its own listing’s today', async () => {
    const { analytics } = createPostgresDomain({ db: handle.db, clock: { now: () => now } });
    const upcoming = await analytics.getUpcomingReservations(owner, {});
    // Berlin's 03-16→03-17 stay checked out this morning in Berlin: neither in house nor arriving. Counted
    // against one date for all (Lisbon's 03-16), it would be arriving today.
    expect(upcoming.items.map((item) => [item.reservationId, item.inHouse, item.daysUntilArrival])).toEqual([
      [stays.lisbonInHouse, true, -1],
      [stays.berlinArriving, false, 0],
      [stays.lisbonArriving, false, 2],
    ]);
    expect(upcoming).toMatchObject({ inHouse: 1, arrivals: 2 });
  });

  it('counts the same stays in the one-date branch when every listing shares today', async () => {
    // 12:00Z: 03-16 in both cities.
    const noon = new Date('2026-03-16T12:00:00.000Z');
    const { analytics } = createPostgresDomain({ db: handle.db, clock: { now: () => noon } });
    const upcoming = await analytics.getUpcomingReservations(owner, {});
    expect(upcoming.items.map((item) => [item.reservationId, item.inHouse, item.daysUntilArrival])).toEqual([
      [stays.lisbonInHouse, true, -1],
      [stays.berlinLeft, false, 0],
      [stays.berlinArriving, false, 1],
      [stays.lisbonArriving, false, 2],
    ]);
    expect(upcoming).toMatchObject({ inHouse: 1, arrivals: 3 });
  });
});
