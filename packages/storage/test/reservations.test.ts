import type { Actor, Clock, ReservationUseCases } from '@innkeep/domain';
import { newId } from '@innkeep/domain';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { createReservationUseCases } from '../src/reservations/reservations.store.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { createTestAccount, createTestListing, type TestAccount } from './support/fixtures.ts';

// 12:00 UTC is 08:00 in New York (still 1 April) and 01:00 on 2 April in Auckland (NZDT, UTC+13).
const now = new Date('2026-04-01T12:00:00.000Z');
const clock: Clock = { now: () => now };

/** Rows of every table a reservation write touches, for one account. */
async function rowCounts(db: Kysely<Database>, accountId: string) {
  const count = async (query: Promise<{ n: number }>) => (await query).n;
  return {
    reservations: await count(
      db
        .selectFrom('reservations')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow(),
    ),
    holds: await count(
      db
        .selectFrom('calendar_holds')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow(),
    ),
    changes: await count(
      db
        .selectFrom('reservation_changes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow(),
    ),
    lineItems: await count(
      db
        .selectFrom('reservation_line_items')
        .innerJoin('reservations', 'reservations.id', 'reservation_line_items.reservation_id')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('reservations.account_id', '=', accountId)
        .executeTakeFirstOrThrow(),
    ),
    nights: await count(
      db
        .selectFrom('reservation_nights')
        .innerJoin('reservations', 'reservations.id', 'reservation_nights.reservation_id')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('reservations.account_id', '=', accountId)
        .executeTakeFirstOrThrow(),
    ),
    audit: await count(
      db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow(),
    ),
  };
}

async function holdOf(db: Kysely<Database>, reservationId: string) {
  return db
    .selectFrom('calendar_holds')
    .select([sql<string>`lower(nights)`.as('start'), sql<string>`upper(nights)`.as('end'), 'kind'])
    .where('reservation_id', '=', reservationId)
    .executeTakeFirst();
}

async function changesOf(db: Kysely<Database>, reservationId: string) {
  return db
    .selectFrom('reservation_changes')
    .selectAll()
    .where('reservation_id', '=', reservationId)
    .orderBy('id')
    .execute();
}

const guest = { firstName: 'Grace', lastName: 'Guest', email: 'grace@example.test' };

describe.each(testDatabaseKinds)('reservations on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let account: TestAccount;
  let other: TestAccount;
  let reservations: ReservationUseCases;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    account = await createTestAccount(db);
    other = await createTestAccount(db);
    reservations = createReservationUseCases({ db, clock });
  }, 180_000);

  afterAll(async () => {
    await handle?.close();
  });

  /** A listing priced so that every fee shows: $100 a night, $50 cleaning, $10 per extra guest, 10% tax. */
  const pricedListing = (overrides: Parameters<typeof createTestListing>[2] = {}) =>
    createTestListing(db, account.accountId, {
      cleaning_fee_minor: 5000,
      extra_guest_fee_minor: 1000,
      guests_included: 2,
      tax_rate_bp: 1000,
      weekly_discount_pct: 10,
      ...overrides,
    });

  describe('create', () => {
    it('books at an explicit price, spreading it over the nights to the cent', async () => {
      const listingId = await pricedListing();
      const created = await reservations.create(account.owner, {
        listingId,
        startDate: '2026-05-01',
        endDate: '2026-05-04',
        guest,
        adults: 2,
        children: 1,
        infants: 1,
        guestPrice: 450.01,
        notes: 'Late arrival',
      });
      expect(created).toMatchObject({
        listingId,
        channel: 'direct',
        status: 'accepted',
        cancelledBy: null,
        guest: { firstName: 'Grace', lastName: 'Guest', email: 'grace@example.test', phone: null },
        guests: { adults: 2, children: 1, infants: 1, pets: 0, total: 3 },
        nights: 3,
        currency: 'USD',
        accommodation: 450.01,
        guestPrice: 450.01,
        hostPayout: 450.01,
        checkInTime: 16,
        checkOutTime: 11,
        notes: 'Late arrival',
        stayPhase: 'upcoming',
        confirmedAt: now.toISOString(),
        inquiryAt: null,
        pendingAt: null,
      });
      expect(created.confirmationCode).toMatch(/^DIR-[A-Z2-9]{8}$/);
      expect(created.lineItems).toEqual([
        { type: 'accommodation', name: '3 nights', amount: 450.01, paidBy: 'guest', paidToHost: true },
      ]);
      // 45 001 cents over 3 nights: 15 000 each and the leftover cent on the first night.
      expect(created.nightlyRates).toEqual([
        { date: '2026-05-01', amount: 150.01 },
        { date: '2026-05-02', amount: 150 },
        { date: '2026-05-03', amount: 150 },
      ]);
      expect(await holdOf(db, created.id)).toEqual({
        start: '2026-05-01',
        end: '2026-05-04',
        kind: 'reservation',
      });

      const changes = await changesOf(db, created.id);
      expect(changes).toHaveLength(1);
      expect(changes[0]).toMatchObject({
        change: 'created',
        status: 'accepted',
        start_date: '2026-05-01',
        end_date: '2026-05-04',
        guests: 3,
        accommodation_minor: 45_001,
        guest_price_minor: 45_001,
        host_payout_minor: 45_001,
        currency: 'USD',
        actor_user_id: account.ownerId,
      });
      const audit = await db
        .selectFrom('audit_log')
        .selectAll()
        .where('target_id', '=', created.id)
        .execute();
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({
        action: 'reservation.create',
        target_type: 'reservation',
        via: 'rest',
      });
    });

    it('prices from the calendar like a quote when no price is given', async () => {
      const listingId = await pricedListing();
      const created = await reservations.create(account.owner, {
        listingId,
        startDate: '2026-05-01',
        endDate: '2026-05-04',
        guest,
        adults: 2,
        children: 1,
      });
      // 3 × $100 + cleaning $50 + 1 extra guest × $10 × 3 nights = $380, plus 10% tax $38.
      expect(created).toMatchObject({ accommodation: 300, guestPrice: 418, hostPayout: 418 });
      expect(created.lineItems.map((item) => [item.type, item.amount, item.paidBy, item.paidToHost])).toEqual(
        [
          ['accommodation', 300, 'guest', true],
          ['cleaning_fee', 50, 'guest', true],
          ['extra_guest_fee', 30, 'guest', true],
          ['tax', 38, 'guest', true],
        ],
      );
      expect(created.nightlyRates.map((night) => night.amount)).toEqual([100, 100, 100]);

      // A week earns the 10% weekly discount: $700 − $70 = $630 accommodation revenue.
      const week = await reservations.create(account.owner, {
        listingId,
        startDate: '2026-06-01',
        endDate: '2026-06-08',
        guest,
        adults: 1,
        hostPayout: 600,
      });
      // $630 + $50 cleaning = $680, plus $68 tax.
      expect(week).toMatchObject({ accommodation: 630, guestPrice: 748, hostPayout: 600 });
      expect(week.lineItems.find((item) => item.type === 'discount')?.amount).toBe(-70);
    });

    it('creates inquiries without holding nights and pending requests with a hold', async () => {
      const listingId = await pricedListing();
      const inquiry = await reservations.create(account.owner, {
        listingId,
        startDate: '2026-05-01',
        endDate: '2026-05-04',
        guest,
        adults: 1,
        status: 'inquiry',
        guestPrice: 300,
        confirmationCode: 'MY-REF-1',
      });
      expect(inquiry).toMatchObject({
        status: 'inquiry',
        inquiryAt: now.toISOString(),
        confirmedAt: null,
        confirmationCode: 'MY-REF-1',
        stayPhase: null,
      });
      expect(await holdOf(db, inquiry.id)).toBeUndefined();
      const pending = await reservations.create(account.owner, {
        listingId,
        startDate: '2026-05-01',
        endDate: '2026-05-04',
        guest,
        adults: 1,
        status: 'pending',
        guestPrice: 300,
      });
      expect(pending).toMatchObject({ status: 'pending', pendingAt: now.toISOString() });
      expect(await holdOf(db, pending.id)).toMatchObject({ start: '2026-05-01', end: '2026-05-04' });
    });

    it('refuses clashing dates with the dates in the way, and writes nothing', async () => {
      const listingId = await pricedListing({ name: 'Clash Cottage' });
      const first = await reservations.create(account.owner, {
        listingId,
        startDate: '2026-07-10',
        endDate: '2026-07-14',
        guest,
        adults: 1,
        guestPrice: 400,
      });
      const before = await rowCounts(db, account.accountId);
      const refused = reservations.create(account.owner, {
        listingId,
        startDate: '2026-07-12',
        endDate: '2026-07-16',
        guest,
        adults: 1,
        guestPrice: 400,
      });
      await expect(refused).rejects.toMatchObject({
        code: 'conflict',
        details: {
          clashes: [
            {
              startDate: '2026-07-10',
              endDate: '2026-07-14',
              kind: 'reservation',
              reservationId: first.id,
              blockReason: null,
            },
          ],
        },
      });
      const message = await refused.catch((error: Error) => error.message);
      expect(message).toContain('Clash Cottage');
      expect(message).toContain('2026-07-12');
      expect(message).toContain('2026-07-16');
      expect(message).toContain('2026-07-10');
      expect(await rowCounts(db, account.accountId)).toEqual(before);

      // Check-out day is the next guest's check-in day: back-to-back stays do not clash.
      const next = await reservations.create(account.owner, {
        listingId,
        startDate: '2026-07-14',
        endDate: '2026-07-16',
        guest,
        adults: 1,
        guestPrice: 200,
      });
      expect(next.status).toBe('accepted');
      // An inquiry holds nothing, so it may be for taken dates.
      await expect(
        reservations.create(account.owner, {
          listingId,
          startDate: '2026-07-11',
          endDate: '2026-07-13',
          guest,
          adults: 1,
          status: 'inquiry',
          guestPrice: 200,
        }),
      ).resolves.toMatchObject({ status: 'inquiry' });
    });

    it('refuses nights an owner block takes', async () => {
      const listingId = await pricedListing();
      await db
        .insertInto('calendar_holds')
        .values({
          id: newId('block'),
          account_id: account.accountId,
          listing_id: listingId,
          nights: '[2026-08-01,2026-08-05)',
          kind: 'block',
          reservation_id: null,
          block_reason: 'owner',
          note: 'Family visit',
          created_by: null,
        })
        .execute();
      await expect(
        reservations.create(account.owner, {
          listingId,
          startDate: '2026-08-04',
          endDate: '2026-08-06',
          guest,
          adults: 1,
          guestPrice: 200,
        }),
      ).rejects.toMatchObject({
        code: 'conflict',
        details: {
          clashes: [
            {
              startDate: '2026-08-01',
              endDate: '2026-08-05',
              kind: 'block',
              reservationId: null,
              blockReason: 'owner',
            },
          ],
        },
      });
    });

    it('refuses bad requests with the right code and writes nothing', async () => {
      const listingId = await pricedListing();
      const disabledId = await pricedListing({ enabled: false });
      const foreignId = await createTestListing(db, other.accountId);
      const taken = await reservations.create(account.owner, {
        listingId,
        startDate: '2026-09-01',
        endDate: '2026-09-03',
        guest,
        adults: 1,
        guestPrice: 200,
        confirmationCode: 'TAKEN-1',
      });
      expect(taken.confirmationCode).toBe('TAKEN-1');
      const before = await rowCounts(db, account.accountId);
      const base = {
        listingId,
        startDate: '2026-09-10',
        endDate: '2026-09-12',
        guest,
        adults: 1,
        guestPrice: 200,
      };
      const viewer: Actor = { ...account.owner, role: 'viewer' };

      await expect(
        reservations.create(account.owner, { ...base, listingId: 'lst_missing' }),
      ).rejects.toMatchObject({
        code: 'not_found',
      });
      await expect(
        reservations.create(account.owner, { ...base, listingId: foreignId }),
      ).rejects.toMatchObject({
        code: 'not_found',
      });
      await expect(
        reservations.create(account.owner, { ...base, listingId: disabledId }),
      ).rejects.toMatchObject({
        code: 'failed_precondition',
      });
      // A check-in before the listing's local today: at 12:00 UTC it is still 1 April in New York, but
      // already 2 April in Auckland.
      await expect(
        reservations.create(account.owner, { ...base, startDate: '2026-03-31', endDate: '2026-04-02' }),
      ).rejects.toMatchObject({
        code: 'invalid_argument',
        details: { today: '2026-04-01', pastDates: ['2026-03-31'] },
      });
      const aucklandId = await pricedListing({ time_zone: 'Pacific/Auckland', currency: 'NZD' });
      await expect(
        reservations.create(account.owner, {
          ...base,
          listingId: aucklandId,
          startDate: '2026-04-01',
          endDate: '2026-04-03',
        }),
      ).rejects.toMatchObject({
        code: 'invalid_argument',
        details: { today: '2026-04-02', pastDates: ['2026-04-01'] },
      });
      // The test listing sleeps 4: 3 adults and 2 children are 5; infants do not count.
      await expect(
        reservations.create(account.owner, { ...base, adults: 3, children: 2 }),
      ).rejects.toMatchObject({
        code: 'failed_precondition',
        details: { guests: 5, maxGuests: 4 },
      });
      await expect(
        reservations.create(account.owner, { ...base, adults: 3, children: 1, infants: 2 }),
      ).resolves.toMatchObject({ guests: { total: 4 } });
      const afterValid = await rowCounts(db, account.accountId);
      expect(afterValid.reservations).toBe(before.reservations + 1);

      await expect(
        reservations.create(account.owner, { ...base, endDate: '2026-09-10' }),
      ).rejects.toMatchObject({
        code: 'invalid_argument',
      });
      await expect(
        reservations.create(account.owner, {
          ...base,
          startDate: '2026-10-10',
          endDate: '2026-10-12',
          guestPrice: 10.005,
        }),
      ).rejects.toMatchObject({
        code: 'invalid_argument',
      });
      await expect(
        reservations.create(account.owner, {
          ...base,
          startDate: '2026-10-01',
          endDate: '2026-10-03',
          confirmationCode: 'TAKEN-1',
        }),
      ).rejects.toMatchObject({ code: 'conflict', details: { confirmationCode: 'TAKEN-1' } });
      await expect(reservations.create(viewer, base)).rejects.toMatchObject({ code: 'permission_denied' });
      await expect(reservations.create(other.owner, base)).rejects.toMatchObject({ code: 'not_found' });
      expect(await rowCounts(db, account.accountId)).toEqual(afterValid);
    });
  });

  describe('update', () => {
    it('logs one change row per kind of change, with what changed', async () => {
      const listingId = await pricedListing();
      const created = await reservations.create(account.owner, {
        listingId,
        startDate: '2026-05-01',
        endDate: '2026-05-04',
        guest,
        adults: 2,
        guestPrice: 300,
      });
      const updated = await reservations.update(account.owner, {
        reservationId: created.id,
        guest: { phone: '+1 555 0100', email: null },
        children: 1,
        accessCode: '4821',
        checkInTime: 15,
        notes: 'Crib requested',
      });
      expect(updated).toMatchObject({
        guest: { firstName: 'Grace', email: null, phone: '+1 555 0100' },
        guests: { adults: 2, children: 1, total: 3 },
        accessCode: '4821',
        checkInTime: 15,
        notes: 'Crib requested',
        guestPrice: 300,
      });
      const changes = await changesOf(db, created.id);
      expect(changes.map((row) => row.change)).toEqual(['created', 'guests', 'details']);
      expect(changes[1]).toMatchObject({ guests: 3, diff: { children: { from: 0, to: 1 } } });
      expect(changes[2]?.diff).toEqual({
        email: { from: 'grace@example.test', to: null },
        phone: { from: null, to: '+1 555 0100' },
        checkInTime: { from: null, to: 15 },
        accessCode: { from: null, to: '4821' },
        notes: { from: null, to: 'Crib requested' },
      });

      // An explicit price replaces the money lines; the payout follows unless given.
      const repriced = await reservations.update(account.owner, {
        reservationId: created.id,
        guestPrice: 330,
      });
      expect(repriced).toMatchObject({ accommodation: 330, guestPrice: 330, hostPayout: 330 });
      expect(repriced.nightlyRates.map((night) => night.amount)).toEqual([110, 110, 110]);
      const payout = await reservations.update(account.owner, { reservationId: created.id, hostPayout: 297 });
      expect(payout).toMatchObject({ guestPrice: 330, hostPayout: 297 });
      const priceChanges = (await changesOf(db, created.id)).filter((row) => row.change === 'price');
      expect(priceChanges.map((row) => row.diff)).toEqual([
        {
          accommodation: { from: 300, to: 330 },
          guestPrice: { from: 300, to: 330 },
          hostPayout: { from: 300, to: 330 },
        },
        { hostPayout: { from: 330, to: 297 } },
      ]);
      expect(priceChanges[1]).toMatchObject({ guest_price_minor: 33_000, host_payout_minor: 29_700 });

      // Setting the same values again changes nothing and logs nothing.
      const before = await rowCounts(db, account.accountId);
      await reservations.update(account.owner, { reservationId: created.id, accessCode: '4821' });
      expect(await rowCounts(db, account.accountId)).toEqual(before);
    });

    it('moves the hold and re-prices a direct stay when its dates change', async () => {
      const listingId = await pricedListing();
      const created = await reservations.create(account.owner, {
        listingId,
        startDate: '2026-05-01',
        endDate: '2026-05-04',
        guest,
        adults: 2,
        children: 1,
      });
      // The new dates overlap the old ones: the stay's own hold must not count against it.
      const moved = await reservations.update(account.owner, {
        reservationId: created.id,
        startDate: '2026-05-02',
        endDate: '2026-05-09',
      });
      // 7 × $100 = $700 − 10% weekly = $630; + $50 cleaning + 1 × $10 × 7 extra guest = $750; + $75 tax.
      expect(moved).toMatchObject({
        startDate: '2026-05-02',
        endDate: '2026-05-09',
        nights: 7,
        accommodation: 630,
        guestPrice: 825,
        hostPayout: 825,
      });
      expect(moved.nightlyRates).toHaveLength(7);
      expect(moved.nightlyRates[0]?.date).toBe('2026-05-02');
      expect(await holdOf(db, created.id)).toMatchObject({ start: '2026-05-02', end: '2026-05-09' });
      const changes = await changesOf(db, created.id);
      expect(changes.map((row) => row.change)).toEqual(['created', 'dates', 'price']);
      expect(changes[1]).toMatchObject({
        start_date: '2026-05-02',
        end_date: '2026-05-09',
        guest_price_minor: 82_500,
        diff: {
          startDate: { from: '2026-05-01', to: '2026-05-02' },
          endDate: { from: '2026-05-04', to: '2026-05-09' },
        },
      });
      expect(changes[2]?.diff).toEqual({
        accommodation: { from: 300, to: 630 },
        guestPrice: { from: 418, to: 825 },
        hostPayout: { from: 418, to: 825 },
      });

      // With an explicit price the move keeps the host's price.
      const kept = await reservations.update(account.owner, {
        reservationId: created.id,
        startDate: '2026-05-03',
        guestPrice: 600,
      });
      expect(kept).toMatchObject({ startDate: '2026-05-03', nights: 6, guestPrice: 600, hostPayout: 600 });
      expect(kept.nightlyRates.map((night) => night.amount)).toEqual([100, 100, 100, 100, 100, 100]);
    });

    it('refuses a move onto taken nights and leaves everything as it was', async () => {
      const listingId = await pricedListing();
      const first = await reservations.create(account.owner, {
        listingId,
        startDate: '2026-05-01',
        endDate: '2026-05-04',
        guest,
        adults: 1,
        guestPrice: 300,
      });
      const second = await reservations.create(account.owner, {
        listingId,
        startDate: '2026-05-10',
        endDate: '2026-05-12',
        guest,
        adults: 1,
        guestPrice: 200,
      });
      const before = await rowCounts(db, account.accountId);
      const stored = await reservations.get(account.owner, second.id);
      await expect(
        reservations.update(account.owner, {
          reservationId: second.id,
          startDate: '2026-05-03',
          notes: 'should not be saved',
        }),
      ).rejects.toMatchObject({
        code: 'conflict',
        details: { clashes: [{ reservationId: first.id, startDate: '2026-05-01', endDate: '2026-05-04' }] },
      });
      expect(await rowCounts(db, account.accountId)).toEqual(before);
      expect(await reservations.get(account.owner, second.id)).toEqual(stored);
      expect(await holdOf(db, second.id)).toMatchObject({ start: '2026-05-10', end: '2026-05-12' });
    });

    it('refuses changes to finished reservations, to other accounts, and bad input', async () => {
      const listingId = await pricedListing();
      const created = await reservations.create(account.owner, {
        listingId,
        startDate: '2026-05-01',
        endDate: '2026-05-04',
        guest,
        adults: 1,
        guestPrice: 300,
      });
      await expect(
        reservations.update(account.owner, { reservationId: created.id, adults: 5 }),
      ).rejects.toMatchObject({ code: 'failed_precondition' });
      await expect(
        reservations.update(account.owner, { reservationId: created.id, endDate: '2026-05-01' }),
      ).rejects.toMatchObject({ code: 'invalid_argument' });
      await expect(reservations.update(account.owner, { reservationId: created.id })).rejects.toMatchObject({
        code: 'invalid_argument',
      });
      await expect(
        reservations.update(other.owner, { reservationId: created.id, notes: 'x' }),
      ).rejects.toMatchObject({ code: 'not_found' });
      await reservations.cancel(account.owner, { reservationId: created.id });
      const before = await rowCounts(db, account.accountId);
      await expect(
        reservations.update(account.owner, { reservationId: created.id, notes: 'x' }),
      ).rejects.toMatchObject({ code: 'failed_precondition', details: { status: 'cancelled' } });
      expect(await rowCounts(db, account.accountId)).toEqual(before);
    });
  });

  describe('cancel', () => {
    it('cancels a direct reservation, frees its nights and logs who and why', async () => {
      const listingId = await pricedListing();
      const created = await reservations.create(account.owner, {
        listingId,
        startDate: '2026-05-01',
        endDate: '2026-05-04',
        guest,
        adults: 1,
        guestPrice: 300,
      });
      const cancelled = await reservations.cancel(account.owner, {
        reservationId: created.id,
        cancelledBy: 'guest',
        reason: 'Flight cancelled',
      });
      expect(cancelled).toMatchObject({
        status: 'cancelled',
        cancelledBy: 'guest',
        cancelledAt: now.toISOString(),
        confirmedAt: now.toISOString(),
        stayPhase: null,
      });
      expect(await holdOf(db, created.id)).toBeUndefined();
      const changes = await changesOf(db, created.id);
      expect(changes.map((row) => row.change)).toEqual(['created', 'status']);
      expect(changes[1]).toMatchObject({
        status: 'cancelled',
        diff: {
          status: { from: 'accepted', to: 'cancelled' },
          cancelledBy: 'guest',
          reason: 'Flight cancelled',
        },
      });
      // The nights are free again.
      await expect(
        reservations.create(account.owner, {
          listingId,
          startDate: '2026-05-01',
          endDate: '2026-05-04',
          guest,
          adults: 1,
          guestPrice: 300,
        }),
      ).resolves.toMatchObject({ status: 'accepted' });

      const before = await rowCounts(db, account.accountId);
      await expect(reservations.cancel(account.owner, { reservationId: created.id })).rejects.toMatchObject({
        code: 'failed_precondition',
      });
      await expect(reservations.cancel(other.owner, { reservationId: created.id })).rejects.toMatchObject({
        code: 'not_found',
      });
      expect(await rowCounts(db, account.accountId)).toEqual(before);
    });

    it('sends channel reservations back to their channel and keeps their hold', async () => {
      const listingId = await pricedListing();
      const id = newId('reservation');
      await db
        .insertInto('reservations')
        .values({
          id,
          account_id: account.accountId,
          listing_id: listingId,
          channel: 'airbnb',
          channel_account_id: null,
          confirmation_code: 'HMABC123',
          status: 'accepted',
          cancelled_by: null,
          guest_first_name: 'Ari',
          guest_last_name: 'Bnb',
          guest_email: null,
          guest_phone: null,
          start_date: '2026-06-01',
          end_date: '2026-06-03',
          currency: 'USD',
          accommodation_minor: 20_000,
          guest_price_minor: 23_000,
          host_payout_minor: 19_400,
          check_in_time: null,
          check_out_time: null,
          access_code: null,
          notes: null,
          inquiry_at: null,
          pending_at: null,
          confirmed_at: now,
          cancelled_at: null,
          declined_at: null,
          expired_at: null,
        })
        .execute();
      await db
        .insertInto('calendar_holds')
        .values({
          id,
          account_id: account.accountId,
          listing_id: listingId,
          nights: '[2026-06-01,2026-06-03)',
          kind: 'reservation',
          reservation_id: id,
          block_reason: null,
          note: null,
          created_by: null,
        })
        .execute();
      const before = await rowCounts(db, account.accountId);
      const refused = reservations.cancel(account.owner, { reservationId: id });
      await expect(refused).rejects.toMatchObject({
        code: 'failed_precondition',
        details: { channel: 'airbnb' },
      });
      expect(await refused.catch((error: Error) => error.message)).toContain('Airbnb');
      expect(await rowCounts(db, account.accountId)).toEqual(before);
      expect(await holdOf(db, id)).toMatchObject({ start: '2026-06-01', end: '2026-06-03' });

      // Moving a channel stay keeps the channel's money and spreads its accommodation over the new nights.
      const moved = await reservations.update(account.owner, { reservationId: id, endDate: '2026-06-05' });
      expect(moved).toMatchObject({ nights: 4, accommodation: 200, guestPrice: 230, hostPayout: 194 });
      expect(moved.nightlyRates.map((night) => night.amount)).toEqual([50, 50, 50, 50]);
    });
  });

  describe('changeStatus', () => {
    it('walks an inquiry to a booking, taking the nights when it goes live', async () => {
      const listingId = await pricedListing();
      const inquiry = await reservations.create(account.owner, {
        listingId,
        startDate: '2026-05-01',
        endDate: '2026-05-04',
        guest,
        adults: 1,
        status: 'inquiry',
        guestPrice: 300,
      });
      const pending = await reservations.changeStatus(account.owner, {
        reservationId: inquiry.id,
        status: 'pending',
      });
      expect(pending).toMatchObject({
        status: 'pending',
        pendingAt: now.toISOString(),
        inquiryAt: now.toISOString(),
      });
      expect(await holdOf(db, inquiry.id)).toMatchObject({ start: '2026-05-01', end: '2026-05-04' });
      const accepted = await reservations.changeStatus(account.owner, {
        reservationId: inquiry.id,
        status: 'accepted',
      });
      expect(accepted).toMatchObject({ status: 'accepted', confirmedAt: now.toISOString() });
      expect(await holdOf(db, inquiry.id)).toMatchObject({ start: '2026-05-01', end: '2026-05-04' });
      const changes = await changesOf(db, inquiry.id);
      expect(changes.map((row) => [row.change, row.status, row.diff])).toEqual([
        ['created', 'inquiry', {}],
        ['status', 'pending', { status: { from: 'inquiry', to: 'pending' } }],
        ['status', 'accepted', { status: { from: 'pending', to: 'accepted' } }],
      ]);

      const before = await rowCounts(db, account.accountId);
      const illegal = reservations.changeStatus(account.owner, {
        reservationId: inquiry.id,
        status: 'declined',
      });
      await expect(illegal).rejects.toMatchObject({
        code: 'failed_precondition',
        details: { from: 'accepted', to: 'declined', allowed: ['cancelled'] },
      });
      await expect(
        reservations.changeStatus(account.owner, {
          reservationId: inquiry.id,
          status: 'cancelled' as 'expired',
        }),
      ).rejects.toMatchObject({ code: 'invalid_argument' });
      await expect(
        reservations.changeStatus(other.owner, { reservationId: inquiry.id, status: 'expired' }),
      ).rejects.toMatchObject({ code: 'not_found' });
      expect(await rowCounts(db, account.accountId)).toEqual(before);
    });

    it('frees the nights when a request is declined or expires', async () => {
      const listingId = await pricedListing();
      const request = await reservations.create(account.owner, {
        listingId,
        startDate: '2026-05-01',
        endDate: '2026-05-04',
        guest,
        adults: 1,
        status: 'pending',
        guestPrice: 300,
      });
      const declined = await reservations.changeStatus(account.owner, {
        reservationId: request.id,
        status: 'declined',
      });
      expect(declined).toMatchObject({ status: 'declined', declinedAt: now.toISOString() });
      expect(await holdOf(db, request.id)).toBeUndefined();
      const lapsed = await reservations.create(account.owner, {
        listingId,
        startDate: '2026-05-01',
        endDate: '2026-05-04',
        guest,
        adults: 1,
        status: 'pending',
        guestPrice: 300,
      });
      await reservations.changeStatus(account.owner, { reservationId: lapsed.id, status: 'expired' });
      expect(await holdOf(db, lapsed.id)).toBeUndefined();
    });

    it('refuses to accept an inquiry whose nights were booked meanwhile', async () => {
      const listingId = await pricedListing();
      const inquiry = await reservations.create(account.owner, {
        listingId,
        startDate: '2026-05-01',
        endDate: '2026-05-04',
        guest,
        adults: 1,
        status: 'inquiry',
        guestPrice: 300,
      });
      const booked = await reservations.create(account.owner, {
        listingId,
        startDate: '2026-05-03',
        endDate: '2026-05-05',
        guest,
        adults: 1,
        guestPrice: 200,
      });
      const before = await rowCounts(db, account.accountId);
      await expect(
        reservations.changeStatus(account.owner, { reservationId: inquiry.id, status: 'accepted' }),
      ).rejects.toMatchObject({
        code: 'conflict',
        details: { clashes: [{ reservationId: booked.id, startDate: '2026-05-03', endDate: '2026-05-05' }] },
      });
      expect(await rowCounts(db, account.accountId)).toEqual(before);
      expect((await reservations.get(account.owner, inquiry.id)).status).toBe('inquiry');
    });
  });

  describe('list and get', () => {
    let listed: TestAccount;
    let nyListing: string;
    let aklListing: string;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      listed = await createTestAccount(db);
      const listedReservations = createReservationUseCases({ db, clock });
      // Stays that began before today were booked back then: a check-in in the past is refused now.
      const bookedEarlier = createReservationUseCases({
        db,
        clock: { now: () => new Date('2026-02-20T12:00:00.000Z') },
      });
      nyListing = await createTestListing(db, listed.accountId, { name: 'New York Loft', min_nights: 1 });
      aklListing = await createTestListing(db, listed.accountId, {
        name: 'Auckland Bach',
        time_zone: 'Pacific/Auckland',
        currency: 'NZD',
        min_nights: 1,
      });
      const book = async (
        name: string,
        listingId: string,
        startDate: string,
        endDate: string,
        status?: 'inquiry',
      ) => {
        const useCases = startDate < '2026-04-01' ? bookedEarlier : listedReservations;
        const created = await useCases.create(listed.owner, {
          listingId,
          startDate,
          endDate,
          guest: { firstName: name, lastName: 'Test' },
          adults: 1,
          guestPrice: 100,
          ...(status ? { status } : {}),
        });
        ids[name] = created.id;
      };
      await book('past', nyListing, '2026-03-01', '2026-03-05');
      await book('out', nyListing, '2026-03-28', '2026-04-01');
      await book('house', nyListing, '2026-04-01', '2026-04-03');
      await book('later', nyListing, '2026-05-01', '2026-05-03');
      await book('ask', nyListing, '2026-05-02', '2026-05-04', 'inquiry');
      await book('kiwi', aklListing, '2026-04-02', '2026-04-04');
    });

    it('derives the stay phase from the listing’s local today', async () => {
      const phase = async (name: string) => (await reservations.get(listed.owner, ids[name] ?? '')).stayPhase;
      expect(await phase('past')).toBe('past');
      expect(await phase('out')).toBe('checking_out_today');
      expect(await phase('house')).toBe('checking_in_today');
      expect(await phase('later')).toBe('upcoming');
      expect(await phase('ask')).toBeNull();
      // It is already 2 April in Auckland.
      expect(await phase('kiwi')).toBe('checking_in_today');
      expect((await reservations.get(listed.owner, ids.kiwi ?? '')).currency).toBe('NZD');
    });

    it('lists by check-in date with filters and pages', async () => {
      const names = (items: { guest: { firstName: string } }[]) => items.map((item) => item.guest.firstName);
      const all = await reservations.list(listed.owner, {});
      expect(names(all.items)).toEqual(['past', 'out', 'house', 'kiwi', 'later', 'ask']);
      expect(all.hasMore).toBe(false);

      // Stays with a night from 1 to 2 April: "out" checks out on the 1st and has no night in it.
      const window = await reservations.list(listed.owner, {
        startDate: '2026-04-01',
        endDate: '2026-04-02',
      });
      expect(names(window.items)).toEqual(['house', 'kiwi']);
      const booked = await reservations.list(listed.owner, {
        listingId: nyListing,
        statuses: ['accepted'],
        startDate: '2026-04-15',
      });
      expect(names(booked.items)).toEqual(['later']);
      expect((await reservations.list(listed.owner, { channel: 'airbnb' })).items).toEqual([]);
      expect((await reservations.list(listed.owner, { updatedSince: '2026-04-01T12:00:01Z' })).items).toEqual(
        [],
      );
      // The two stays booked in February were last changed then.
      expect(
        names((await reservations.list(listed.owner, { updatedSince: '2026-04-01T12:00:00Z' })).items),
      ).toEqual(['house', 'kiwi', 'later', 'ask']);
      expect(
        (await reservations.list(listed.owner, { updatedSince: '2026-02-20T12:00:00Z' })).items,
      ).toHaveLength(6);

      const first = await reservations.list(listed.owner, { limit: 4 });
      expect(names(first.items)).toEqual(['past', 'out', 'house', 'kiwi']);
      expect(first.hasMore).toBe(true);
      const second = await reservations.list(listed.owner, { limit: 4, cursor: first.nextCursor ?? '' });
      expect(second.items).toHaveLength(2);
      expect(second).toMatchObject({ hasMore: false, nextCursor: null });

      await expect(
        reservations.list(listed.owner, { startDate: '2026-05-01', endDate: '2026-04-01' }),
      ).rejects.toMatchObject({
        code: 'invalid_argument',
      });
      expect((await reservations.list(account.owner, { listingId: nyListing })).items).toEqual([]);
    });

    it('hides other accounts’ reservations', async () => {
      await expect(reservations.get(account.owner, ids.house ?? '')).rejects.toMatchObject({
        code: 'not_found',
      });
      await expect(reservations.get(listed.owner, 'res_missing')).rejects.toMatchObject({
        code: 'not_found',
      });
    });
  });
});
