import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/postgres/connection.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/postgres/testing.ts';
import { type AnalyticsFixture, buildAnalyticsFixture } from './support/analytics-fixture.ts';

describe.each(testDatabaseKinds)('stay-night facts on %s', (kind) => {
  let handle: DatabaseHandle;
  let fixture: AnalyticsFixture;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    fixture = await buildAnalyticsFixture(handle.db);
  }, 60_000);
  afterAll(async () => handle?.close());

  it('gives each sold night its rent and an even largest-remainder share of fees, commission and payout', async () => {
    const rows = await handle.db
      .selectFrom('stay_night_facts')
      .select(['night', 'accommodation_minor', 'fees_minor', 'channel_fees_minor', 'payout_minor'])
      .where('reservation_id', '=', fixture.stays.s2 ?? '')
      .orderBy('night')
      .execute();
    // s2: rent 9000 a night, cleaning 5000 over 3 nights = 1666.67 → 1667, 1667, 1666; payout 32000 likewise.
    expect(rows).toEqual([
      {
        night: '2026-03-10',
        accommodation_minor: 9000,
        fees_minor: 1667,
        channel_fees_minor: 0,
        payout_minor: 10667,
      },
      {
        night: '2026-03-11',
        accommodation_minor: 9000,
        fees_minor: 1667,
        channel_fees_minor: 0,
        payout_minor: 10667,
      },
      {
        night: '2026-03-12',
        accommodation_minor: 9000,
        fees_minor: 1666,
        channel_fees_minor: 0,
        payout_minor: 10666,
      },
    ]);
  });

  it('keeps only sold stays, and their nights add up to the stays exactly', async () => {
    const { rows } = await sql<{ id: string; status: string; nights: number; rent: number; payout: number }>`
      select r.id, r.status, count(f.night)::int as nights,
        coalesce(sum(f.accommodation_minor), 0)::int - r.accommodation_minor as rent,
        coalesce(sum(f.payout_minor), 0)::int - r.host_payout_minor as payout
      from reservations r left join stay_night_facts f on f.reservation_id = r.id
      where r.account_id = ${fixture.account.accountId}
      group by r.id`.execute(handle.db);
    for (const row of rows) {
      if (row.status === 'accepted') expect(row).toMatchObject({ rent: 0, payout: 0 });
      else expect(row.nights).toBe(0);
    }
    expect(
      rows
        .filter((row) => row.status === 'accepted')
        .map((row) => row.nights)
        .sort((a, b) => a - b),
    ).toEqual([3, 3, 4, 4, 5, 90]);
  });
});
