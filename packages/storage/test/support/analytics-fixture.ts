import type { Channel } from '@innkeep/domain';
import { addDays, daysBetween, newId } from '@innkeep/domain';
import type { Kysely } from 'kysely';
import { rebuildStayNightFacts } from '../../src/analytics/stay-night-facts.ts';
import type { Database } from '../../src/database.ts';
import { createTestAccount, createTestListing, type TestAccount } from './fixtures.ts';

// Rows are written directly, with hand-chosen money and timestamps, so tests can state expected figures by hand.
// After inserting stays, call `rebuildStayNightFacts` (buildAnalyticsFixture does) as the store would have.

/** A stay to insert; money in minor units. */
export interface StaySpec {
  readonly listingId: string;
  readonly startDate: string;
  readonly endDate: string;
  /** Rent per night, one entry per night (after discounts). */
  readonly nightly: readonly number[];
  readonly channel?: Channel;
  readonly status?: 'inquiry' | 'pending' | 'accepted' | 'declined' | 'expired' | 'cancelled';
  readonly currency?: string;
  readonly cleaningFee?: number;
  readonly extraGuestFee?: number;
  /** The channel's commission, a positive amount. */
  readonly channelFee?: number;
  readonly tax?: number;
  /** What the host receives; defaults to rent + fees − channel fee. */
  readonly payout?: number;
  readonly adults?: number;
  readonly children?: number;
  readonly guestFirstName?: string;
  /** When the reservation arrived (UTC ISO). */
  readonly createdAt: string;
  /** When it was confirmed; defaults to `createdAt` for accepted and cancelled stays. */
  readonly confirmedAt?: string | null;
  readonly cancelledAt?: string;
  readonly cancelledBy?: 'guest' | 'host' | 'channel';
}

/** Inserts a reservation with its nights, line items, calendar hold (when it holds nights) and change log. */
export async function insertStay(
  db: Kysely<Database>,
  account: TestAccount,
  spec: StaySpec,
): Promise<string> {
  const nights = daysBetween(spec.startDate, spec.endDate);
  if (spec.nightly.length !== nights)
    throw new Error(`${spec.startDate}→${spec.endDate} needs ${nights} rates`);
  const id = newId('reservation');
  const status = spec.status ?? 'accepted';
  const currency = spec.currency ?? 'EUR';
  const accommodation = spec.nightly.reduce((sum, rate) => sum + rate, 0);
  const fees = (spec.cleaningFee ?? 0) + (spec.extraGuestFee ?? 0);
  const channelFee = spec.channelFee ?? 0;
  const tax = spec.tax ?? 0;
  const payout = spec.payout ?? accommodation + fees - channelFee;
  const confirmedAt =
    spec.confirmedAt !== undefined
      ? spec.confirmedAt
      : status === 'accepted' || status === 'cancelled'
        ? spec.createdAt
        : null;
  const at = (iso: string | null) => (iso === null ? null : new Date(iso));
  await db
    .insertInto('reservations')
    .values({
      id,
      account_id: account.accountId,
      listing_id: spec.listingId,
      channel: spec.channel ?? 'direct',
      channel_account_id: null,
      confirmation_code: id.toUpperCase(),
      status,
      cancelled_by: status === 'cancelled' ? (spec.cancelledBy ?? 'guest') : null,
      guest_first_name: spec.guestFirstName ?? 'Guest',
      guest_last_name: 'Example',
      adults: spec.adults ?? 2,
      children: spec.children ?? 0,
      start_date: spec.startDate,
      end_date: spec.endDate,
      currency,
      accommodation_minor: accommodation,
      guest_price_minor: accommodation + fees + tax,
      host_payout_minor: payout,
      inquiry_at: status === 'inquiry' ? at(spec.createdAt) : null,
      pending_at: status === 'pending' ? at(spec.createdAt) : null,
      confirmed_at: at(confirmedAt),
      cancelled_at: status === 'cancelled' ? at(spec.cancelledAt ?? spec.createdAt) : null,
      declined_at: status === 'declined' ? at(spec.createdAt) : null,
      expired_at: status === 'expired' ? at(spec.createdAt) : null,
      created_at: spec.createdAt,
      updated_at: spec.cancelledAt ?? spec.createdAt,
    })
    .execute();
  await db
    .insertInto('reservation_nights')
    .values(
      spec.nightly.map((amount, index) => ({
        reservation_id: id,
        night: addDays(spec.startDate, index),
        accommodation_minor: amount,
      })),
    )
    .execute();
  const items = [
    { type: 'accommodation', amount: accommodation, paidBy: 'guest', toHost: true },
    { type: 'cleaning_fee', amount: spec.cleaningFee ?? 0, paidBy: 'guest', toHost: true },
    { type: 'extra_guest_fee', amount: spec.extraGuestFee ?? 0, paidBy: 'guest', toHost: true },
    { type: 'tax', amount: tax, paidBy: 'guest', toHost: true },
    { type: 'host_service_fee', amount: -channelFee, paidBy: 'host', toHost: false },
  ].filter((item) => item.amount !== 0);
  await db
    .insertInto('reservation_line_items')
    .values(
      items.map((item, position) => ({
        id: newId('lineItem'),
        reservation_id: id,
        position,
        type: item.type,
        name: item.type,
        amount_minor: item.amount,
        paid_by: item.paidBy,
        paid_to_host: item.toHost,
      })),
    )
    .execute();
  if (status === 'accepted' || status === 'pending') {
    await db
      .insertInto('calendar_holds')
      .values({
        id,
        account_id: account.accountId,
        listing_id: spec.listingId,
        nights: `[${spec.startDate},${spec.endDate})`,
        kind: 'reservation',
        reservation_id: id,
        block_reason: null,
      })
      .execute();
  }
  const snapshot = {
    reservation_id: id,
    account_id: account.accountId,
    start_date: spec.startDate,
    end_date: spec.endDate,
    guests: (spec.adults ?? 2) + (spec.children ?? 0),
    accommodation_minor: accommodation,
    guest_price_minor: accommodation + fees + tax,
    host_payout_minor: payout,
    currency,
  };
  await db
    .insertInto('reservation_changes')
    .values({
      ...snapshot,
      changed_at: new Date(spec.createdAt),
      change: 'created',
      status: status === 'cancelled' ? 'accepted' : status,
    })
    .execute();
  if (status === 'cancelled') {
    await db
      .insertInto('reservation_changes')
      .values({
        ...snapshot,
        changed_at: new Date(spec.cancelledAt ?? spec.createdAt),
        change: 'status',
        status,
      })
      .execute();
  }
  return id;
}

/** Inserts a calendar block; `endDate` is the first night no longer blocked. */
export async function insertBlock(
  db: Kysely<Database>,
  accountId: string,
  listingId: string,
  startDate: string,
  endDate: string,
  reason: 'owner' | 'maintenance' | 'manual',
): Promise<string> {
  const id = newId('block');
  await db
    .insertInto('calendar_holds')
    .values({
      id,
      account_id: accountId,
      listing_id: listingId,
      nights: `[${startDate},${endDate})`,
      kind: 'block',
      reservation_id: null,
      block_reason: reason,
    })
    .execute();
  return id;
}

/** The fixture account and the ids its tests refer to. */
export interface AnalyticsFixture {
  readonly account: TestAccount;
  /** "Now" for the fixture: 2026-03-16 12:00 UTC. */
  readonly now: Date;
  readonly listings: {
    /** Berlin, EUR, Europe/Berlin (DST starts 2026-03-29). */
    readonly berlin: string;
    /** Lisbon, EUR, Europe/Lisbon: one 90-night stay across four months. */
    readonly lisbon: string;
    /** Boston, USD, America/New_York (DST starts 2026-03-08). */
    readonly boston: string;
    /** Owner's cabin, EUR: owner-blocked all of March 2026, so zero available nights then. */
    readonly cabin: string;
  };
  readonly stays: Readonly<Record<string, string>>;
}

/**
 * The hand-built account the analytics tests compute expectations from. Figures below are in minor units;
 * every stay is listed with what it contributes, so a test's expected value can be checked by hand.
 *
 * Berlin (EUR)
 * - s1 airbnb, accepted, 2026-02-27→03-03 (4 nights: Feb 27, 28, Mar 1, 2), rent 10000, 10000, 12000, 12000
 *   = 44000, cleaning 5000, channel fee 6820, payout 42180. Created and confirmed 2026-01-20 10:00Z.
 * - s2 direct, accepted, 03-10→03-13 (3 nights), rent 9000 × 3 = 27000, cleaning 5000, payout 32000.
 *   Created 2026-03-01 09:00Z.
 * - s3 booking, accepted, 03-28→04-02 (5 nights across DST and month end: Mar 28–31, Apr 1), rent 11000 × 5
 *   = 55000, cleaning 6000, channel fee 8250, payout 52750. Created 2026-02-10 15:00Z.
 * - s6 airbnb, cancelled by the guest 2026-02-14 12:00Z, 03-15→03-18, rent 9000 × 3. Created 2026-01-05 08:00Z.
 * - s10 airbnb, declined, 03-25→03-27, rent 9000 × 2. Created 2026-03-05 08:00Z.
 * - s12 airbnb, accepted last year, 2025-03-10→03-14 (4 nights), rent 9500 × 4 = 38000, cleaning 5000,
 *   channel fee 5890, payout 37110. Created 2025-02-01 08:00Z.
 * - blocks: maintenance 03-05→03-08 (3 nights), manual 03-24→03-26 (2 nights).
 *
 * Lisbon (EUR)
 * - s4 vrbo, accepted, 2026-01-15→04-15 (90 nights: Jan 17, Feb 28, Mar 31, Apr 14), rent 5000 × 90 = 450000,
 *   cleaning 10000, channel fee 23000, payout 437000. Created 2025-12-20 18:00Z.
 * - s5 airbnb, cancelled by the guest 2026-03-12 09:00Z, 2026-04-20→04-25 (cancellation lead 39 days),
 *   rent 8000 × 5. Created 2026-02-01 08:00Z.
 *
 * Boston (USD)
 * - s7 direct, accepted, 03-07→03-10 (3 nights across US DST), rent 20000, 20000, 22000 = 62000, cleaning 7500,
 *   payout 69500. Created 2026-03-06 23:30Z (18:30 on 03-06 in Boston: lead time 1 day, not 0).
 * - s8 direct, cancelled by the host 2026-03-01 15:00Z, 03-20→03-27, rent 21000 × 7. Created 2025-12-01 15:00Z.
 * - s9 direct, inquiry, 03-15→03-17, rent 20000 × 2. Created 2026-03-10 12:00Z.
 * - s11 airbnb, pending, 03-28→03-30, rent 20000 × 2. Created 2026-03-14 12:00Z.
 * - blocks: owner 03-12→03-15 (3 nights).
 *
 * Cabin (EUR)
 * - blocks: owner 2026-03-01→04-01 (all 31 nights of March).
 */
export async function buildAnalyticsFixture(db: Kysely<Database>): Promise<AnalyticsFixture> {
  const account = await createTestAccount(db, { timeZone: 'Europe/Berlin', currency: 'EUR' });
  const { accountId } = account;
  // Every listing became active before the fixture's first stay, so all their nights are supply.
  const active = { created_at: '2024-01-01T00:00:00Z' };
  const euro = { currency: 'EUR', time_zone: 'Europe/Berlin', city: 'Berlin', country_code: 'DE', ...active };
  const berlin = await createTestListing(db, accountId, {
    ...euro,
    name: 'Berlin Loft',
    base_price_minor: 10_000,
  });
  const lisbon = await createTestListing(db, accountId, {
    ...active,
    currency: 'EUR',
    time_zone: 'Europe/Lisbon',
    city: 'Lisbon',
    country_code: 'PT',
    name: 'Lisbon Flat',
    base_price_minor: 6_000,
  });
  const boston = await createTestListing(db, accountId, {
    ...active,
    name: 'Boston House',
    base_price_minor: 20_000,
  });
  const cabin = await createTestListing(db, accountId, {
    ...euro,
    name: 'Owner Cabin',
    base_price_minor: 15_000,
  });

  const stays: Record<string, string> = {};
  stays.s1 = await insertStay(db, account, {
    listingId: berlin,
    channel: 'airbnb',
    startDate: '2026-02-27',
    endDate: '2026-03-03',
    nightly: [10_000, 10_000, 12_000, 12_000],
    cleaningFee: 5_000,
    channelFee: 6_820,
    createdAt: '2026-01-20T10:00:00.000Z',
  });
  stays.s2 = await insertStay(db, account, {
    listingId: berlin,
    startDate: '2026-03-10',
    endDate: '2026-03-13',
    nightly: [9_000, 9_000, 9_000],
    cleaningFee: 5_000,
    createdAt: '2026-03-01T09:00:00.000Z',
  });
  stays.s3 = await insertStay(db, account, {
    listingId: berlin,
    channel: 'booking',
    startDate: '2026-03-28',
    endDate: '2026-04-02',
    nightly: [11_000, 11_000, 11_000, 11_000, 11_000],
    cleaningFee: 6_000,
    channelFee: 8_250,
    createdAt: '2026-02-10T15:00:00.000Z',
  });
  stays.s6 = await insertStay(db, account, {
    listingId: berlin,
    channel: 'airbnb',
    status: 'cancelled',
    startDate: '2026-03-15',
    endDate: '2026-03-18',
    nightly: [9_000, 9_000, 9_000],
    createdAt: '2026-01-05T08:00:00.000Z',
    cancelledAt: '2026-02-14T12:00:00.000Z',
  });
  stays.s10 = await insertStay(db, account, {
    listingId: berlin,
    channel: 'airbnb',
    status: 'declined',
    startDate: '2026-03-25',
    endDate: '2026-03-27',
    nightly: [9_000, 9_000],
    createdAt: '2026-03-05T08:00:00.000Z',
  });
  stays.s12 = await insertStay(db, account, {
    listingId: berlin,
    channel: 'airbnb',
    startDate: '2025-03-10',
    endDate: '2025-03-14',
    nightly: [9_500, 9_500, 9_500, 9_500],
    cleaningFee: 5_000,
    channelFee: 5_890,
    createdAt: '2025-02-01T08:00:00.000Z',
  });
  await insertBlock(db, accountId, berlin, '2026-03-05', '2026-03-08', 'maintenance');
  await insertBlock(db, accountId, berlin, '2026-03-24', '2026-03-26', 'manual');

  stays.s4 = await insertStay(db, account, {
    listingId: lisbon,
    channel: 'vrbo',
    startDate: '2026-01-15',
    endDate: '2026-04-15',
    nightly: Array.from({ length: 90 }, () => 5_000),
    cleaningFee: 10_000,
    channelFee: 23_000,
    createdAt: '2025-12-20T18:00:00.000Z',
  });
  stays.s5 = await insertStay(db, account, {
    listingId: lisbon,
    channel: 'airbnb',
    status: 'cancelled',
    startDate: '2026-04-20',
    endDate: '2026-04-25',
    nightly: [8_000, 8_000, 8_000, 8_000, 8_000],
    createdAt: '2026-02-01T08:00:00.000Z',
    cancelledAt: '2026-03-12T09:00:00.000Z',
  });

  const usd = { currency: 'USD' };
  stays.s7 = await insertStay(db, account, {
    ...usd,
    listingId: boston,
    startDate: '2026-03-07',
    endDate: '2026-03-10',
    nightly: [20_000, 20_000, 22_000],
    cleaningFee: 7_500,
    createdAt: '2026-03-06T23:30:00.000Z',
  });
  stays.s8 = await insertStay(db, account, {
    ...usd,
    listingId: boston,
    status: 'cancelled',
    cancelledBy: 'host',
    startDate: '2026-03-20',
    endDate: '2026-03-27',
    nightly: Array.from({ length: 7 }, () => 21_000),
    createdAt: '2025-12-01T15:00:00.000Z',
    cancelledAt: '2026-03-01T15:00:00.000Z',
  });
  stays.s9 = await insertStay(db, account, {
    ...usd,
    listingId: boston,
    status: 'inquiry',
    startDate: '2026-03-15',
    endDate: '2026-03-17',
    nightly: [20_000, 20_000],
    createdAt: '2026-03-10T12:00:00.000Z',
  });
  stays.s11 = await insertStay(db, account, {
    ...usd,
    listingId: boston,
    channel: 'airbnb',
    status: 'pending',
    startDate: '2026-03-28',
    endDate: '2026-03-30',
    nightly: [20_000, 20_000],
    createdAt: '2026-03-14T12:00:00.000Z',
  });
  await insertBlock(db, accountId, boston, '2026-03-12', '2026-03-15', 'owner');
  await insertBlock(db, accountId, cabin, '2026-03-01', '2026-04-01', 'owner');

  await rebuildStayNightFacts(db, accountId);
  return {
    account,
    now: new Date('2026-03-16T12:00:00.000Z'),
    listings: { berlin, lisbon, boston, cabin },
    stays,
  };
}
