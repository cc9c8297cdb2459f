import type { Actor, Clock } from '@innkeep/domain';
import { newId } from '@innkeep/domain';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCalendarUseCases } from '../src/calendar/calendar.store.ts';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { createTestAccount, createTestListing, type TestAccount } from './support/fixtures.ts';

// 08:00 on 15 May 2026 in New York: the listings' today is 2026-05-15.
const clock: Clock = { now: () => new Date('2026-05-15T12:00:00Z') };

async function insertReservation(
  db: Kysely<Database>,
  accountId: string,
  listingId: string,
  startDate: string,
  endDate: string,
  guest: { first: string; last: string } = { first: 'Sam', last: 'Guest' },
): Promise<string> {
  const id = newId('reservation');
  await db
    .insertInto('reservations')
    .values({
      id,
      account_id: accountId,
      listing_id: listingId,
      channel: 'direct',
      confirmation_code: id,
      status: 'accepted',
      guest_first_name: guest.first,
      guest_last_name: guest.last,
      start_date: startDate,
      end_date: endDate,
      currency: 'USD',
      accommodation_minor: 0,
      guest_price_minor: 0,
      host_payout_minor: 0,
    })
    .execute();
  await db
    .insertInto('calendar_holds')
    .values({
      id: newId('block'),
      account_id: accountId,
      listing_id: listingId,
      nights: `[${startDate},${endDate})`,
      kind: 'reservation',
      reservation_id: id,
    })
    .execute();
  return id;
}

async function insertBlock(
  db: Kysely<Database>,
  accountId: string,
  listingId: string,
  startDate: string,
  endDate: string,
  reason: string,
  note: string | null = null,
): Promise<void> {
  await db
    .insertInto('calendar_holds')
    .values({
      id: newId('block'),
      account_id: accountId,
      listing_id: listingId,
      nights: `[${startDate},${endDate})`,
      kind: 'block',
      block_reason: reason,
      note,
    })
    .execute();
}

/** Every hold of a listing as [first night, check-out, kind, reason, note], by start. */
async function holdsOf(db: Kysely<Database>, listingId: string) {
  const rows = await db
    .selectFrom('calendar_holds')
    .select([
      sql<string>`lower(nights)`.as('start'),
      sql<string>`upper(nights)`.as('end'),
      'kind',
      'block_reason',
      'note',
    ])
    .where('listing_id', '=', listingId)
    .orderBy(sql`lower(nights)`)
    .execute();
  return rows.map((row) => [row.start, row.end, row.kind, row.block_reason, row.note]);
}

async function auditCount(db: Kysely<Database>, listingId: string, action: string): Promise<number> {
  const rows = await db
    .selectFrom('audit_log')
    .select('id')
    .where('target_id', '=', listingId)
    .where('action', '=', action)
    .execute();
  return rows.length;
}

describe.each(testDatabaseKinds)('calendar on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let account: TestAccount;
  let other: TestAccount;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    account = await createTestAccount(db);
    other = await createTestAccount(db);
  }, 120_000);

  afterAll(async () => {
    await handle?.close();
  });

  const listing = (overrides: Parameters<typeof createTestListing>[2] = {}) =>
    createTestListing(db, account.accountId, overrides);

  describe('get', () => {
    it('returns every day with status, effective price and why, restrictions and channel prices', async () => {
      const calendar = createCalendarUseCases({ db, clock });
      const id = await listing({ min_price_minor: 9_000 });
      await db
        .insertInto('pricing_rules')
        .values({
          id: `pru_sunday_${id}`,
          account_id: account.accountId,
          name: 'Sunday +10%',
          position: 1,
          listing_ids: [id],
          adjustment_kind: 'percent',
          adjustment_amount: 10,
          days_of_week: [0],
        })
        .execute();
      await db
        .insertInto('calendar_days')
        .values([
          { listing_id: id, date: '2026-06-02', price_minor: 15_000, min_nights: 3, note: 'Festival' },
          { listing_id: id, date: '2026-06-03', price_minor: null, closed_to_arrival: true },
        ])
        .execute();
      await db
        .insertInto('calendar_channel_prices')
        .values([
          { listing_id: id, date: '2026-06-02', channel: 'airbnb', price_minor: 17_000 },
          // Below the $90 floor: shown as 90.
          { listing_id: id, date: '2026-06-01', channel: 'vrbo', price_minor: 8_000 },
        ])
        .execute();
      const reservationId = await insertReservation(db, account.accountId, id, '2026-06-04', '2026-06-06');
      await insertBlock(db, account.accountId, id, '2026-06-08', '2026-06-10', 'owner', 'Owner visit');

      const result = await calendar.get(account.owner, {
        listingId: id,
        startDate: '2026-06-01',
        endDate: '2026-06-09',
      });
      expect(result).toMatchObject({ listingId: id, currency: 'USD', timeZone: 'America/New_York' });
      const plain = {
        status: 'available',
        reservationId: null,
        blockReason: null,
        price: 100,
        minNights: 2,
        closedToArrival: false,
        closedToDeparture: false,
        channelPrices: {},
        appliedRuleIds: [],
        note: null,
      };
      expect(result.days).toEqual([
        { ...plain, date: '2026-06-01', channelPrices: { vrbo: 90 } },
        {
          ...plain,
          date: '2026-06-02',
          price: 150,
          minNights: 3,
          note: 'Festival',
          channelPrices: { airbnb: 170 },
        },
        { ...plain, date: '2026-06-03', closedToArrival: true },
        { ...plain, date: '2026-06-04', status: 'booked', reservationId },
        { ...plain, date: '2026-06-05', status: 'booked', reservationId },
        { ...plain, date: '2026-06-06' },
        { ...plain, date: '2026-06-07', price: 110, appliedRuleIds: [`pru_sunday_${id}`] },
        { ...plain, date: '2026-06-08', status: 'blocked', blockReason: 'owner', note: 'Owner visit' },
        { ...plain, date: '2026-06-09', status: 'blocked', blockReason: 'owner', note: 'Owner visit' },
      ]);
    });

    it('sees an orphan gap that starts or ends outside the requested dates', async () => {
      const calendar = createCalendarUseCases({ db, clock });
      const id = await listing();
      await db
        .insertInto('pricing_rules')
        .values({
          id: `pru_gap_${id}`,
          account_id: account.accountId,
          name: 'Gap nights −20%',
          position: 1,
          listing_ids: [id],
          adjustment_kind: 'percent',
          adjustment_amount: -20,
          orphan_gap_max_nights: 2,
        })
        .execute();
      // Held 1–4 July and 7–8 July; the 5th and 6th are a two-night gap.
      await insertReservation(db, account.accountId, id, '2026-07-01', '2026-07-05');
      await insertBlock(db, account.accountId, id, '2026-07-07', '2026-07-09', 'manual');
      const sixth = await calendar.get(account.owner, {
        listingId: id,
        startDate: '2026-07-06',
        endDate: '2026-07-06',
      });
      expect(sixth.days.map((d) => [d.date, d.price, d.appliedRuleIds])).toEqual([
        ['2026-07-06', 80, [`pru_gap_${id}`]],
      ]);
      const around = await calendar.get(account.owner, {
        listingId: id,
        startDate: '2026-07-04',
        endDate: '2026-07-09',
      });
      expect(around.days.map((d) => d.price)).toEqual([100, 80, 80, 100, 100, 100]);
    });

    it('reads at most 366 days, in order, and only the account’s listings', async () => {
      const calendar = createCalendarUseCases({ db, clock });
      const id = await listing();
      const year = await calendar.get(account.owner, {
        listingId: id,
        startDate: '2026-06-01',
        endDate: '2027-06-01',
      });
      expect(year.days).toHaveLength(366);
      expect(year.days[365]?.date).toBe('2027-06-01');
      await expect(
        calendar.get(account.owner, { listingId: id, startDate: '2026-06-01', endDate: '2027-06-02' }),
      ).rejects.toMatchObject({ code: 'invalid_argument' });
      await expect(
        calendar.get(account.owner, { listingId: id, startDate: '2026-06-02', endDate: '2026-06-01' }),
      ).rejects.toMatchObject({ code: 'invalid_argument' });
      await expect(
        calendar.get(other.owner, { listingId: id, startDate: '2026-06-01', endDate: '2026-06-02' }),
      ).rejects.toMatchObject({ code: 'not_found' });
    });
  });

  describe('setPrices', () => {
    it('upserts per-date prices, restrictions and channel prices, and returns the changed days', async () => {
      const calendar = createCalendarUseCases({ db, clock });
      const id = await listing();
      const days = await calendar.setPrices(account.owner, {
        listingId: id,
        prices: [
          { date: '2026-06-21', closedToArrival: true },
          { date: '2026-06-20', price: 150.5, minNights: 3 },
          { date: '2026-06-20', channel: 'airbnb', price: 175 },
        ],
      });
      expect(days.map((d) => [d.date, d.price, d.minNights, d.closedToArrival, d.channelPrices])).toEqual([
        ['2026-06-20', 150.5, 3, false, { airbnb: 175 }],
        ['2026-06-21', 100, 2, true, {}],
      ]);
      const rows = await db
        .selectFrom('calendar_days')
        .select(['date', 'price_minor', 'min_nights', 'closed_to_arrival'])
        .where('listing_id', '=', id)
        .orderBy('date')
        .execute();
      expect(rows).toEqual([
        { date: '2026-06-20', price_minor: 15_050, min_nights: 3, closed_to_arrival: false },
        { date: '2026-06-21', price_minor: null, min_nights: null, closed_to_arrival: true },
      ]);
      expect(await auditCount(db, id, 'calendar.set_prices')).toBe(1);

      // Changing one field keeps the others.
      const [kept] = await calendar.setPrices(account.owner, {
        listingId: id,
        prices: [{ date: '2026-06-20', minNights: null }],
      });
      expect(kept).toMatchObject({ date: '2026-06-20', price: 150.5, minNights: 2 });

      // Clearing the last override removes the row, and null removes a channel price.
      await calendar.setPrices(account.owner, {
        listingId: id,
        prices: [
          { date: '2026-06-20', price: null },
          { date: '2026-06-20', channel: 'airbnb', price: null },
        ],
      });
      const left = await db.selectFrom('calendar_days').select('date').where('listing_id', '=', id).execute();
      expect(left).toEqual([{ date: '2026-06-21' }]);
      const channelRows = await db
        .selectFrom('calendar_channel_prices')
        .select('date')
        .where('listing_id', '=', id)
        .execute();
      expect(channelRows).toEqual([]);
    });

    it('accepts the listing’s today and refuses earlier dates without writing anything', async () => {
      const calendar = createCalendarUseCases({ db, clock });
      const id = await listing();
      await calendar.setPrices(account.owner, {
        listingId: id,
        prices: [{ date: '2026-05-15', price: 120 }],
      });
      const refused = calendar.setPrices(account.owner, {
        listingId: id,
        prices: [
          { date: '2026-06-01', price: 130 },
          { date: '2026-05-14', price: 130 },
        ],
      });
      await expect(refused).rejects.toMatchObject({
        code: 'invalid_argument',
        details: { today: '2026-05-15', pastDates: ['2026-05-14'] },
      });
      const rows = await db.selectFrom('calendar_days').select('date').where('listing_id', '=', id).execute();
      expect(rows).toEqual([{ date: '2026-05-15' }]);
      expect(await auditCount(db, id, 'calendar.set_prices')).toBe(1);
    });

    it('refuses malformed entries as one invalid_argument, writing nothing', async () => {
      const calendar = createCalendarUseCases({ db, clock });
      const id = await listing();
      const bad: unknown[] = [
        [],
        [{ date: '2026-06-01', price: 10.001 }],
        [
          { date: '2026-06-01', price: 100 },
          { date: '2026-06-01', minNights: 2 },
        ],
        [{ date: '2026-06-01', channel: 'airbnb', price: 100, minNights: 2 }],
        [{ date: '2026-06-01', channel: 'airbnb' }],
        [{ date: '2026-06-01' }],
        [{ date: '2026-06-31', price: 100 }],
        [{ date: '2026-06-01', price: -1 }],
      ];
      for (const prices of bad) {
        await expect(
          calendar.setPrices(account.owner, { listingId: id, prices } as never),
        ).rejects.toMatchObject({ code: 'invalid_argument' });
      }
      const rows = await db.selectFrom('calendar_days').select('date').where('listing_id', '=', id).execute();
      expect(rows).toEqual([]);
      expect(await auditCount(db, id, 'calendar.set_prices')).toBe(0);
    });

    it('keeps viewers and other accounts out', async () => {
      const calendar = createCalendarUseCases({ db, clock });
      const id = await listing();
      const viewer: Actor = { ...account.owner, role: 'viewer' };
      const prices = [{ date: '2026-06-01', price: 1 }];
      await expect(calendar.setPrices(viewer, { listingId: id, prices })).rejects.toMatchObject({
        code: 'permission_denied',
      });
      await expect(calendar.setPrices(other.owner, { listingId: id, prices })).rejects.toMatchObject({
        code: 'not_found',
      });
    });
  });

  describe('setAvailability', () => {
    it('blocks a range as one block, trimming the blocks it overlaps', async () => {
      const calendar = createCalendarUseCases({ db, clock });
      const id = await listing();
      await insertBlock(db, account.accountId, id, '2026-08-01', '2026-08-03', 'owner');
      await insertBlock(db, account.accountId, id, '2026-08-05', '2026-08-12', 'maintenance');
      // Nights 2–6 August inclusive: the 2nd, 5th and 6th were blocked already, the 3rd and 4th were open.
      const result = await calendar.setAvailability(account.owner, {
        listingId: id,
        startDate: '2026-08-02',
        endDate: '2026-08-06',
        available: false,
        note: 'Painting',
      });
      expect(result).toEqual({
        listingId: id,
        startDate: '2026-08-02',
        endDate: '2026-08-06',
        available: false,
        changedNights: 2,
        stillBookedNights: [],
      });
      expect(await holdsOf(db, id)).toEqual([
        ['2026-08-01', '2026-08-02', 'block', 'owner', null],
        ['2026-08-02', '2026-08-07', 'block', 'manual', 'Painting'],
        ['2026-08-07', '2026-08-12', 'block', 'maintenance', null],
      ]);
      const audit = await db
        .selectFrom('audit_log')
        .selectAll()
        .where('target_id', '=', id)
        .where('action', '=', 'calendar.set_availability')
        .execute();
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ user_id: account.ownerId, target_type: 'listing' });
    });

    it('splits a block when opening nights in its middle', async () => {
      const calendar = createCalendarUseCases({ db, clock });
      const id = await listing();
      await insertBlock(db, account.accountId, id, '2026-09-01', '2026-09-11', 'owner', 'Family');
      const result = await calendar.setAvailability(account.owner, {
        listingId: id,
        startDate: '2026-09-04',
        endDate: '2026-09-06',
        available: true,
      });
      expect(result).toMatchObject({ changedNights: 3, stillBookedNights: [] });
      expect(await holdsOf(db, id)).toEqual([
        ['2026-09-01', '2026-09-04', 'block', 'owner', 'Family'],
        ['2026-09-07', '2026-09-11', 'block', 'owner', 'Family'],
      ]);
      const view = await calendar.get(account.owner, {
        listingId: id,
        startDate: '2026-09-03',
        endDate: '2026-09-07',
      });
      expect(view.days.map((d) => d.status)).toEqual([
        'blocked',
        'available',
        'available',
        'available',
        'blocked',
      ]);
    });

    it('opens blocks around a reservation, leaves the reservation and reports its nights', async () => {
      const calendar = createCalendarUseCases({ db, clock });
      const id = await listing();
      await insertBlock(db, account.accountId, id, '2026-10-01', '2026-10-03', 'manual');
      await insertReservation(db, account.accountId, id, '2026-10-03', '2026-10-05');
      await insertBlock(db, account.accountId, id, '2026-10-05', '2026-10-08', 'maintenance');
      const result = await calendar.setAvailability(account.owner, {
        listingId: id,
        startDate: '2026-10-01',
        endDate: '2026-10-09',
        available: true,
      });
      // 2 + 3 blocked nights opened; the 3rd and 4th stay booked.
      expect(result).toMatchObject({ changedNights: 5, stillBookedNights: ['2026-10-03', '2026-10-04'] });
      expect(await holdsOf(db, id)).toEqual([['2026-10-03', '2026-10-05', 'reservation', null, null]]);
    });

    it('refuses to block over a reservation, naming it, and writes nothing', async () => {
      const calendar = createCalendarUseCases({ db, clock });
      const id = await listing();
      await insertBlock(db, account.accountId, id, '2026-11-01', '2026-11-09', 'owner');
      const reservationId = await insertReservation(db, account.accountId, id, '2026-11-10', '2026-11-13', {
        first: 'Jane',
        last: 'Doe',
      });
      const before = await holdsOf(db, id);
      const refused = calendar.setAvailability(account.owner, {
        listingId: id,
        startDate: '2026-11-08',
        endDate: '2026-11-11',
        available: false,
      });
      await expect(refused).rejects.toMatchObject({
        code: 'conflict',
        details: {
          clashes: [
            {
              startDate: '2026-11-10',
              endDate: '2026-11-13',
              kind: 'reservation',
              reservationId,
              blockReason: null,
            },
          ],
        },
      });
      const message = await refused.catch((error: Error) => error.message);
      expect(message).toContain('Jane Doe, check-in 2026-11-10, check-out 2026-11-13');
      // The overlapping block was not trimmed and no block was added.
      expect(await holdsOf(db, id)).toEqual(before);
      expect(await auditCount(db, id, 'calendar.set_availability')).toBe(0);
    });

    it('refuses past nights, reversed and oversized ranges, viewers and other accounts', async () => {
      const calendar = createCalendarUseCases({ db, clock });
      const id = await listing();
      const ask = (actor: Actor, startDate: string, endDate: string) =>
        calendar.setAvailability(actor, { listingId: id, startDate, endDate, available: false });
      await expect(ask(account.owner, '2026-05-14', '2026-05-20')).rejects.toMatchObject({
        code: 'invalid_argument',
        details: { pastDates: ['2026-05-14'] },
      });
      await expect(ask(account.owner, '2026-06-02', '2026-06-01')).rejects.toMatchObject({
        code: 'invalid_argument',
      });
      // 1126 nights: 1 June 2026 through 30 June 2029.
      await expect(ask(account.owner, '2026-06-01', '2029-06-30')).rejects.toMatchObject({
        code: 'invalid_argument',
      });
      await expect(
        ask({ ...account.owner, role: 'viewer' }, '2026-06-01', '2026-06-02'),
      ).rejects.toMatchObject({
        code: 'permission_denied',
      });
      await expect(ask(other.owner, '2026-06-01', '2026-06-02')).rejects.toMatchObject({ code: 'not_found' });
      expect(await holdsOf(db, id)).toEqual([]);
      // A single night (startDate = endDate) is one night.
      const one = await ask(account.owner, '2026-06-01', '2026-06-01');
      expect(one.changedNights).toBe(1);
      expect(await holdsOf(db, id)).toEqual([['2026-06-01', '2026-06-02', 'block', 'manual', null]]);
    });
  });
});
