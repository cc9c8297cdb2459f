import type { Clock } from '@innkeep/domain';
import { newId } from '@innkeep/domain';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { createPricingUseCases } from '../src/pricing/pricing.store.ts';
import { quoteStay } from '../src/pricing/quote.store.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { createTestAccount, createTestListing, type TestAccount } from './support/fixtures.ts';

// 08:00 on 15 May 2026 in New York; every stay below is later.
const clock: Clock = { now: () => new Date('2026-05-15T12:00:00Z') };

/** Inserts an accepted direct reservation and its calendar hold, as the reservations area would. */
async function insertReservation(
  db: Kysely<Database>,
  accountId: string,
  listingId: string,
  startDate: string,
  endDate: string,
  guest: { first: string; last: string },
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

describe.each(testDatabaseKinds)('quotes on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let account: TestAccount;
  let other: TestAccount;
  let cabin: string;
  let loft: string;
  let disabled: string;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    account = await createTestAccount(db);
    other = await createTestAccount(db);
    // $100 a night, $50 cleaning, $15 per extra guest per night above 2, 12% tax, 10% weekly, 25% monthly.
    cabin = await createTestListing(db, account.accountId, {
      name: 'Cedar Cabin',
      base_price_minor: 10_000,
      cleaning_fee_minor: 5_000,
      extra_guest_fee_minor: 1_500,
      guests_included: 2,
      tax_rate_bp: 1_200,
      weekly_discount_pct: 10,
      monthly_discount_pct: 25,
      min_nights: 2,
      max_nights: 60,
      max_guests: 6,
    });
    // $80 a night, 10% tax, no fees, 10% weekly and 25% monthly.
    loft = await createTestListing(db, account.accountId, {
      name: 'Harbor Loft',
      base_price_minor: 8_000,
      tax_rate_bp: 1_000,
      weekly_discount_pct: 10,
      monthly_discount_pct: 25,
    });
    disabled = await createTestListing(db, account.accountId, { name: 'Closed Barn', enabled: false });

    const rule = (
      id: string,
      position: number,
      values: { kind: string; amount: number; listingIds: string[] | null; enabled?: boolean },
      extra: { days_of_week?: number[]; start_date?: string; end_date?: string } = {},
    ) => ({
      id,
      account_id: account.accountId,
      name: id,
      position,
      enabled: values.enabled ?? true,
      listing_ids: values.listingIds,
      adjustment_kind: values.kind,
      adjustment_amount: values.amount,
      ...extra,
    });
    await db
      .insertInto('pricing_rules')
      .values([
        // Cabin: +20% on Fridays and Saturdays, then −$7.50 on 6–7 June.
        rule(
          'pru_weekend',
          1,
          { kind: 'percent', amount: 20, listingIds: [cabin] },
          { days_of_week: [5, 6] },
        ),
        rule(
          'pru_june',
          2,
          { kind: 'fixed', amount: -7.5, listingIds: [cabin] },
          { start_date: '2026-06-06', end_date: '2026-06-07' },
        ),
        // Neither touches the cabin: one is off, one is for another listing.
        rule('pru_off', 3, { kind: 'percent', amount: 50, listingIds: null, enabled: false }),
        rule('pru_disabled_only', 4, { kind: 'percent', amount: 50, listingIds: [disabled] }),
      ])
      .execute();
    await db
      .insertInto('calendar_days')
      .values([
        { listing_id: cabin, date: '2026-06-03', price_minor: 13_000 },
        // Arriving on 15 June needs 4 nights; other days the listing's 2.
        { listing_id: cabin, date: '2026-06-15', price_minor: null, min_nights: 4 },
        { listing_id: cabin, date: '2026-06-20', price_minor: null, closed_to_arrival: true },
        { listing_id: cabin, date: '2026-06-25', price_minor: null, closed_to_departure: true },
      ])
      .execute();
    await db
      .insertInto('calendar_channel_prices')
      .values([
        { listing_id: cabin, date: '2026-06-02', channel: 'direct', price_minor: 9_500 },
        { listing_id: cabin, date: '2026-06-04', channel: 'airbnb', price_minor: 20_000 },
      ])
      .execute();
  }, 120_000);

  afterAll(async () => {
    await handle?.close();
  });

  it('prices a week with rules, an override, a direct price, weekly discount, cleaning, extra guests and tax', async () => {
    const pricing = createPricingUseCases({ db, clock });
    // Mon 1 June → Mon 8 June, 7 nights, 4 guests.
    const quote = await pricing.getQuote(account.owner, {
      listingId: cabin,
      startDate: '2026-06-01',
      endDate: '2026-06-08',
      guests: 4,
    });
    // Mon 100, Tue 95 (direct price), Wed 130 (override), Thu 100 (the Airbnb price is not direct),
    // Fri 100 +20% = 120, Sat 120 − 7.50 = 112.50, Sun 100 − 7.50 = 92.50.
    expect(quote.nightly).toEqual([
      { date: '2026-06-01', price: 100 },
      { date: '2026-06-02', price: 95 },
      { date: '2026-06-03', price: 130 },
      { date: '2026-06-04', price: 100 },
      { date: '2026-06-05', price: 120 },
      { date: '2026-06-06', price: 112.5 },
      { date: '2026-06-07', price: 92.5 },
    ]);
    // accommodation 750.00; weekly 10% = 75.00; extra guests 2 × 15 × 7 = 210.00; cleaning 50.00;
    // taxable 750 − 75 + 50 + 210 = 935.00; tax 12% = 112.20; total 1047.20.
    expect(quote).toMatchObject({
      listingId: cabin,
      currency: 'USD',
      nights: 7,
      guests: 4,
      accommodation: 750,
      discount: 75,
      cleaningFee: 50,
      extraGuestFee: 210,
      taxes: 112.2,
      total: 1047.2,
    });
    expect(quote.lineItems).toEqual([
      { type: 'accommodation', name: '7 nights', amount: 750 },
      { type: 'discount', name: 'Weekly discount (10%)', amount: -75 },
      { type: 'cleaning_fee', name: 'Cleaning fee', amount: 50 },
      { type: 'extra_guest_fee', name: 'Extra guest fee (2 × 7 nights)', amount: 210 },
      { type: 'tax', name: 'Tax (12%)', amount: 112.2 },
    ]);
  });

  it('gives the monthly discount instead of the weekly one from 28 nights', async () => {
    const pricing = createPricingUseCases({ db, clock });
    const quote = await pricing.getQuote(account.owner, {
      listingId: loft,
      startDate: '2026-07-01',
      endDate: '2026-07-31',
      guests: 1,
    });
    // 30 × 80 = 2400.00; monthly 25% = 600.00; taxable 1800.00; tax 10% = 180.00; total 1980.00.
    expect(quote).toMatchObject({
      nights: 30,
      accommodation: 2400,
      discount: 600,
      cleaningFee: 0,
      extraGuestFee: 0,
      taxes: 180,
      total: 1980,
    });
    expect(quote.lineItems.map((item) => [item.type, item.amount])).toEqual([
      ['accommodation', 2400],
      ['discount', -600],
      ['tax', 180],
    ]);
  });

  it('charges a short stay without discount, in minor units through quoteStay', async () => {
    // Thu 4 → Sat 6 June, 2 guests (none extra): Thu 100 + Fri 120 = 220.00; cleaning 50;
    // taxable 270.00; tax 12% = 32.40; total 302.40.
    const quote = await quoteStay(db, account.accountId, clock, {
      listingId: cabin,
      startDate: '2026-06-04',
      endDate: '2026-06-06',
      guests: 2,
    });
    expect(quote).toEqual({
      listingId: cabin,
      currency: 'USD',
      startDate: '2026-06-04',
      endDate: '2026-06-06',
      nights: 2,
      guests: 2,
      nightly: [
        { date: '2026-06-04', priceMinor: 10_000 },
        { date: '2026-06-05', priceMinor: 12_000 },
      ],
      accommodationMinor: 22_000,
      discountMinor: 0,
      cleaningFeeMinor: 5_000,
      extraGuestFeeMinor: 0,
      taxesMinor: 3_240,
      totalMinor: 30_240,
      lineItems: [
        { type: 'accommodation', name: '2 nights', amountMinor: 22_000 },
        { type: 'cleaning_fee', name: 'Cleaning fee', amountMinor: 5_000 },
        { type: 'tax', name: 'Tax (12%)', amountMinor: 3_240 },
      ],
    });
  });

  it('refuses impossible ranges as invalid_argument', async () => {
    const pricing = createPricingUseCases({ db, clock });
    const ask = (startDate: string, endDate: string) =>
      pricing.getQuote(account.owner, { listingId: cabin, startDate, endDate, guests: 2 });
    await expect(ask('2026-06-10', '2026-06-10')).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(ask('2026-06-10', '2026-06-09')).rejects.toMatchObject({ code: 'invalid_argument' });
    // 2026-06-10 + 1126 nights = 2029-07-10.
    await expect(ask('2026-06-10', '2029-07-10')).rejects.toMatchObject({
      code: 'invalid_argument',
      message: expect.stringContaining('1125'),
    });
    await expect(
      pricing.getQuote(account.owner, {
        listingId: cabin,
        startDate: '2026-06-10',
        endDate: '2026-06-12',
        guests: 0,
      }),
    ).rejects.toMatchObject({ code: 'invalid_argument' });
  });

  it('refuses a disabled listing and hides other accounts’ listings', async () => {
    const pricing = createPricingUseCases({ db, clock });
    await expect(
      pricing.getQuote(account.owner, {
        listingId: disabled,
        startDate: '2026-06-10',
        endDate: '2026-06-12',
        guests: 2,
      }),
    ).rejects.toMatchObject({ code: 'failed_precondition', message: expect.stringContaining('disabled') });
    await expect(
      pricing.getQuote(other.owner, {
        listingId: cabin,
        startDate: '2026-06-10',
        endDate: '2026-06-12',
        guests: 2,
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('takes the minimum stay from the arrival date', async () => {
    const pricing = createPricingUseCases({ db, clock });
    await expect(
      pricing.getQuote(account.owner, {
        listingId: cabin,
        startDate: '2026-06-15',
        endDate: '2026-06-18',
        guests: 2,
      }),
    ).rejects.toMatchObject({
      code: 'failed_precondition',
      message: expect.stringContaining('at least 4 nights'),
      details: { minNights: 4, nights: 3, startDate: '2026-06-15' },
    });
    // The same three nights arriving a day later only need the listing's 2.
    const later = await pricing.getQuote(account.owner, {
      listingId: cabin,
      startDate: '2026-06-16',
      endDate: '2026-06-19',
      guests: 2,
    });
    expect(later.nights).toBe(3);
    await expect(
      pricing.getQuote(account.owner, {
        listingId: cabin,
        startDate: '2026-06-10',
        endDate: '2026-06-11',
        guests: 2,
      }),
    ).rejects.toMatchObject({ code: 'failed_precondition', details: { minNights: 2, nights: 1 } });
  });

  it('refuses stays longer than the maximum and parties larger than the listing takes', async () => {
    const pricing = createPricingUseCases({ db, clock });
    // 1 Aug + 61 nights = 1 Oct.
    await expect(
      pricing.getQuote(account.owner, {
        listingId: cabin,
        startDate: '2026-08-01',
        endDate: '2026-10-01',
        guests: 2,
      }),
    ).rejects.toMatchObject({ code: 'failed_precondition', details: { maxNights: 60, nights: 61 } });
    await expect(
      pricing.getQuote(account.owner, {
        listingId: cabin,
        startDate: '2026-06-10',
        endDate: '2026-06-12',
        guests: 7,
      }),
    ).rejects.toMatchObject({ code: 'failed_precondition', details: { maxGuests: 6, guests: 7 } });
  });

  it('refuses arrival on a closed-to-arrival date and departure on a closed-to-departure date', async () => {
    const pricing = createPricingUseCases({ db, clock });
    await expect(
      pricing.getQuote(account.owner, {
        listingId: cabin,
        startDate: '2026-06-20',
        endDate: '2026-06-23',
        guests: 2,
      }),
    ).rejects.toMatchObject({
      code: 'failed_precondition',
      details: { startDate: '2026-06-20', closedToArrival: true },
    });
    await expect(
      pricing.getQuote(account.owner, {
        listingId: cabin,
        startDate: '2026-06-22',
        endDate: '2026-06-25',
        guests: 2,
      }),
    ).rejects.toMatchObject({
      code: 'failed_precondition',
      details: { endDate: '2026-06-25', closedToDeparture: true },
    });
    // Staying through those dates is fine: 19 → 22 June arrives and leaves on open days.
    const through = await pricing.getQuote(account.owner, {
      listingId: cabin,
      startDate: '2026-06-19',
      endDate: '2026-06-22',
      guests: 2,
    });
    expect(through.nights).toBe(3);
  });

  it('refuses held nights with a conflict naming the clashing stays, unless told to ignore one', async () => {
    const pricing = createPricingUseCases({ db, clock });
    const reservationId = await insertReservation(db, account.accountId, loft, '2026-09-10', '2026-09-13', {
      first: 'Jane',
      last: 'Doe',
    });
    await db
      .insertInto('calendar_holds')
      .values({
        id: newId('block'),
        account_id: account.accountId,
        listing_id: loft,
        nights: '[2026-09-14,2026-09-16)',
        kind: 'block',
        block_reason: 'maintenance',
      })
      .execute();
    const refused = pricing.getQuote(account.owner, {
      listingId: loft,
      startDate: '2026-09-08',
      endDate: '2026-09-15',
      guests: 2,
    });
    await expect(refused).rejects.toMatchObject({
      code: 'conflict',
      details: {
        clashes: [
          {
            startDate: '2026-09-10',
            endDate: '2026-09-13',
            kind: 'reservation',
            reservationId,
            blockReason: null,
          },
          {
            startDate: '2026-09-14',
            endDate: '2026-09-16',
            kind: 'block',
            reservationId: null,
            blockReason: 'maintenance',
          },
        ],
      },
    });
    const message = await refused.catch((error: Error) => error.message);
    expect(message).toContain(
      `reservation ${reservationId} for Jane Doe, check-in 2026-09-10, check-out 2026-09-13`,
    );
    expect(message).toContain('maintenance block on the nights 2026-09-14 to 2026-09-15');

    // Check-out on the day another stay arrives is fine: 8 → 10 September, 2 nights at 80.
    const before = await pricing.getQuote(account.owner, {
      listingId: loft,
      startDate: '2026-09-08',
      endDate: '2026-09-10',
      guests: 2,
    });
    expect(before.accommodation).toBe(160);

    // Re-pricing Jane's own stay moved a day later: her hold does not count, the block still does.
    const moved = await quoteStay(db, account.accountId, clock, {
      listingId: loft,
      startDate: '2026-09-11',
      endDate: '2026-09-14',
      guests: 2,
      ignoreReservationId: reservationId,
    });
    expect(moved.accommodationMinor).toBe(24_000);
    await expect(
      quoteStay(db, account.accountId, clock, {
        listingId: loft,
        startDate: '2026-09-11',
        endDate: '2026-09-15',
        guests: 2,
        ignoreReservationId: reservationId,
      }),
    ).rejects.toMatchObject({ code: 'conflict', details: { clashes: [{ kind: 'block' }] } });
  });
});
