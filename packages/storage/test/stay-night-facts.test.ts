import type { Clock } from '@innkeep/domain';
import { sql, type Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildStayNightFacts, refreshStayNightFacts } from '../src/analytics/stay-night-facts.ts';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database, Executor } from '../src/database.ts';
import { createReservationUseCases } from '../src/reservations/reservations.store.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { type AnalyticsFixture, buildAnalyticsFixture, insertStay } from './support/analytics-fixture.ts';
import { writeWhileAnotherIsOpen } from './support/concurrent-writers.ts';

/** Every fact row of an account, and the month roll-ups recomputed from them next to the stored ones. */
async function snapshotFacts(db: Executor, accountId: string) {
  const nights = await sql<Record<string, unknown>>`
    select reservation_id, night, listing_id, channel, currency, accommodation_minor, fees_minor,
      channel_fees_minor, payout_minor
    from stay_night_facts where account_id = ${accountId} order by reservation_id, night`.execute(db);
  const stored = await sql<Record<string, unknown>>`
    select listing_id, month, channel, currency, nights, accommodation_minor, fees_minor, channel_fees_minor,
      payout_minor
    from stay_month_facts where account_id = ${accountId} and nights <> 0
    order by listing_id, month, channel, currency`.execute(db);
  const recomputed = await sql<Record<string, unknown>>`
    select listing_id, date_trunc('month', night)::date as month, channel, currency, count(*)::int as nights,
      sum(accommodation_minor)::bigint as accommodation_minor, sum(fees_minor)::bigint as fees_minor,
      sum(channel_fees_minor)::bigint as channel_fees_minor, sum(payout_minor)::bigint as payout_minor
    from stay_night_facts where account_id = ${accountId}
    group by 1, 2, 3, 4 order by 1, 2, 3, 4`.execute(db);
  // Rows the locking step created for months that end up without sold nights stay, at zero everywhere.
  const accountStored = await sql<Record<string, unknown>>`
    select month, channel, currency, nights::int as nights, accommodation_minor, fees_minor, channel_fees_minor,
      payout_minor
    from stay_account_month_facts
    where account_id = ${accountId}
      and (nights, accommodation_minor, fees_minor, channel_fees_minor, payout_minor) <> (0, 0, 0, 0, 0)
    order by month, channel, currency`.execute(db);
  const accountRecomputed = await sql<Record<string, unknown>>`
    select date_trunc('month', night)::date as month, channel, currency, count(*)::int as nights,
      sum(accommodation_minor)::bigint as accommodation_minor, sum(fees_minor)::bigint as fees_minor,
      sum(channel_fees_minor)::bigint as channel_fees_minor, sum(payout_minor)::bigint as payout_minor
    from stay_night_facts where account_id = ${accountId}
    group by 1, 2, 3 order by 1, 2, 3`.execute(db);
  return {
    nights: nights.rows,
    stored: stored.rows,
    recomputed: recomputed.rows,
    accountStored: accountStored.rows,
    accountRecomputed: accountRecomputed.rows,
  };
}

describe.each(testDatabaseKinds)('stay-night facts on %s', (kind) => {
  let handle: DatabaseHandle;
  let fixture: AnalyticsFixture;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    fixture = await buildAnalyticsFixture(handle.db);
  }, 180_000);
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

  it('keeps the nightly facts and the month roll-ups equal to a rebuild through creates, edits and cancels', async () => {
    const clock: Clock = { now: () => fixture.now };
    const reservations = createReservationUseCases({ db: handle.db, clock });
    const { owner } = fixture.account;
    const created = await reservations.create(owner, {
      listingId: fixture.listings.berlin,
      startDate: '2026-04-27',
      endDate: '2026-05-03',
      guest: { firstName: 'Mara', lastName: 'Lind' },
      adults: 2,
      status: 'accepted',
      guestPrice: 700,
      hostPayout: 650.01,
    });
    await reservations.update(owner, {
      reservationId: created.id,
      endDate: '2026-05-05',
      guestPrice: 901.03,
    });
    await reservations.cancel(owner, { reservationId: fixture.stays.s2 ?? '', cancelledBy: 'guest' });
    const afterWrites = await snapshotFacts(handle.db, fixture.account.accountId);
    expect(afterWrites.stored).toEqual(afterWrites.recomputed);
    expect(afterWrites.accountStored).toEqual(afterWrites.accountRecomputed);
    expect(afterWrites.nights.filter((row) => row.reservation_id === created.id)).toHaveLength(8);
    expect(afterWrites.nights.filter((row) => row.reservation_id === fixture.stays.s2)).toHaveLength(0);

    await rebuildStayNightFacts(handle.db, fixture.account.accountId);
    expect(await snapshotFacts(handle.db, fixture.account.accountId)).toEqual(afterWrites);
  });

  // Only a server can keep a transaction open while another one runs; PGlite runs one at a time.
  it.runIf(kind === 'postgres')(
    'keeps both of two sold stays of one account month written at once',
    async () => {
      const { account, listings } = fixture;
      const stay = (listingId: string, startDate: string, endDate: string) => ({
        listingId,
        startDate,
        endDate,
        nightly: [12_000, 12_000, 12_000],
        currency: 'EUR',
        channel: 'direct' as const,
        createdAt: '2026-06-01T12:00:00.000Z',
      });
      const write =
        (listingId: string, startDate: string, endDate: string) => async (trx: Transaction<Database>) => {
          const id = await insertStay(trx, account, stay(listingId, startDate, endDate));
          await refreshStayNightFacts(trx, [id]);
        };
      // Both add to July 2026, direct, EUR: the second's upserts wait for the first's rows, then add to them.
      await writeWhileAnotherIsOpen(
        handle.db,
        write(listings.berlin, '2026-07-10', '2026-07-13'),
        write(listings.cabin, '2026-07-20', '2026-07-23'),
      );
      const facts = await snapshotFacts(handle.db, account.accountId);
      expect(facts.accountStored).toEqual(facts.accountRecomputed);
      expect(facts.stored).toEqual(facts.recomputed);
      const july = facts.accountStored.find(
        (row) => String(row.month) === '2026-07-01' && row.channel === 'direct' && row.currency === 'EUR',
      );
      expect(july?.nights).toBe(6);
    },
  );
});
