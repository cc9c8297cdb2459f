import { type NightRange, overlapNights } from '../local-dates.ts';
import {
  fetchHolds,
  fetchLineItems,
  fetchListings,
  fetchNightlyRates,
  fetchReservations,
  type HoldRow,
  type ListingRow,
  type ReservationRow,
} from '../raw-rows.ts';
import type { BenchContext } from '../tool-case.ts';
import { type CheckInCohort, checkInCohort } from './check-in-cohort.ts';
import { activeNightsIn, activePart } from './listing-supply.ts';
import { type SoldNight, soldNightsOf } from './sold-nights.ts';

/** Money of sold nights in minor units, summed in JavaScript. */
export interface MoneySums {
  nights: number;
  accommodation: number;
  fees: number;
  channelFees: number;
  payout: number;
}

/** Everything the performance baselines compute for one period, from raw rows. */
export interface PeriodPerformance {
  readonly range: NightRange;
  readonly listings: readonly ListingRow[];
  readonly reservations: readonly ReservationRow[];
  readonly calendarNights: number;
  readonly blocked: { owner: number; maintenance: number; manual: number; channel: number; total: number };
  readonly blockedByListing: ReadonlyMap<string, number>;
  /** The calendar blocks overlapping the period, unclipped (nights before their listing was active included). */
  readonly blocks: readonly HoldRow[];
  readonly availableNights: number;
  /** Nights of accepted stays inside the period, counted from their check-in and check-out dates. */
  readonly bookedNights: number;
  readonly soldNights: readonly SoldNight[];
  /** Sold-night money per currency. */
  readonly money: ReadonlyMap<string, MoneySums>;
  /** Listings and their available nights per listing currency. */
  readonly supplyByCurrency: ReadonlyMap<
    string,
    { listings: number; calendarNights: number; availableNights: number }
  >;
  readonly cohort: CheckInCohort;
}

/**
 * Fetches a period's listings, reservations, nightly rates, line items and calendar blocks, and computes
 * supply (each listing's nights from the day it became active), occupancy, sold-night money and the check-in
 * cohort from them in JavaScript.
 */
export async function fetchPeriodPerformance(
  context: BenchContext,
  range: NightRange,
): Promise<PeriodPerformance> {
  const { db, accountId } = context;
  const [listings, reservations, rates, lineItems, holds] = await Promise.all([
    fetchListings(db, accountId),
    fetchReservations(db, accountId, range),
    fetchNightlyRates(db, accountId, range),
    fetchLineItems(db, accountId, range),
    fetchHolds(db, accountId, range),
  ]);
  const listingsById = new Map(listings.map((listing) => [listing.id, listing]));
  const blocked = { owner: 0, maintenance: 0, manual: 0, channel: 0, total: 0 };
  const blockedByListing = new Map<string, number>();
  const blocks = holds.filter((hold) => hold.kind === 'block');
  for (const hold of blocks) {
    const listing = listingsById.get(hold.listing_id);
    const inPeriod =
      listing === undefined ? 0 : overlapNights(hold.start, hold.end, activePart(listing, range));
    const reason = hold.block_reason as 'owner' | 'maintenance' | 'manual' | 'channel';
    blocked[reason] += inPeriod;
    blocked.total += inPeriod;
    blockedByListing.set(hold.listing_id, (blockedByListing.get(hold.listing_id) ?? 0) + inPeriod);
  }
  let bookedNights = 0;
  for (const reservation of reservations) {
    if (reservation.status === 'accepted') {
      bookedNights += overlapNights(reservation.start_date, reservation.end_date, range);
    }
  }
  const soldNights = soldNightsOf(reservations, rates, lineItems);
  const money = new Map<string, MoneySums>();
  for (const night of soldNights) addNight(money, night.currency, night);
  const supplyByCurrency = new Map<
    string,
    { listings: number; calendarNights: number; availableNights: number }
  >();
  for (const listing of listings) {
    const supply = supplyByCurrency.get(listing.currency) ?? {
      listings: 0,
      calendarNights: 0,
      availableNights: 0,
    };
    const nights = activeNightsIn(listing, range);
    supply.listings += 1;
    supply.calendarNights += nights;
    supply.availableNights += nights - (blockedByListing.get(listing.id) ?? 0);
    supplyByCurrency.set(listing.currency, supply);
  }
  const calendarNights = listings.reduce((sum, listing) => sum + activeNightsIn(listing, range), 0);
  return {
    range,
    listings,
    reservations,
    calendarNights,
    blocked,
    blockedByListing,
    blocks,
    availableNights: calendarNights - blocked.total,
    bookedNights,
    soldNights,
    money,
    supplyByCurrency,
    cohort: checkInCohort(reservations, listings, range),
  };
}

/** Adds one sold night's money to the sums kept under `key`. */
export function addNight(sums: Map<string, MoneySums>, key: string, night: SoldNight): void {
  const entry = sums.get(key) ?? { nights: 0, accommodation: 0, fees: 0, channelFees: 0, payout: 0 };
  entry.nights += 1;
  entry.accommodation += night.accommodation;
  entry.fees += night.fees;
  entry.channelFees += night.channelFees;
  entry.payout += night.payout;
  sums.set(key, entry);
}
