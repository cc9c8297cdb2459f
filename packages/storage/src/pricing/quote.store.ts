import type { Clock } from '@innkeep/domain';
import {
  addDays,
  assertStayDates,
  buildStayQuote,
  channelNightPrice,
  nightsOf,
  parseInput,
  priceNights,
  quoteInputSchema,
  type StayQuote,
} from '@innkeep/domain';
import { z } from 'zod';
import type { Executor } from '../database.ts';
import { findListingRowOrThrow, loadPricing } from './pricing-inputs.ts';

const stayRequestSchema = quoteInputSchema.extend({
  ignoreReservationId: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe('A reservation whose own nights count as free, for re-pricing its date change.'),
});

/**
 * Prices a stay at a listing of the account, in minor units, refusing stays the listing cannot take
 * (see {@link buildStayQuote}). Reads only; pass a transaction as `db` to price and book atomically (the
 * booking's hold insert is still what guarantees no double booking).
 *
 * @param request.ignoreReservationId - that reservation's own hold does not count as taken, so a
 *   reservation can be re-priced for new dates that overlap its current ones.
 * @throws invalid_argument, not_found, failed_precondition or conflict (clashes in `details.clashes`).
 */
export async function quoteStay(
  db: Executor,
  accountId: string,
  clock: Clock,
  request: {
    listingId: string;
    startDate: string;
    endDate: string;
    guests: number;
    ignoreReservationId?: string;
  },
): Promise<StayQuote> {
  const input = parseInput(stayRequestSchema, request);
  assertStayDates(input.startDate, input.endDate);
  const listing = await findListingRowOrThrow(db, accountId, input.listingId);
  // One day past check-out, so the departure date's closed-to-departure flag is loaded too.
  const loaded = await loadPricing(
    db,
    listing,
    clock.now(),
    { from: input.startDate, to: addDays(input.endDate, 1) },
    { ignoreReservationId: input.ignoreReservationId },
  );
  const nightly = priceNights(loaded.inputs, nightsOf(input.startDate, input.endDate)).map((night) => ({
    date: night.date,
    priceMinor: channelNightPrice(
      night.priceMinor,
      loaded.channelPrices.get(night.date)?.direct,
      listing.min_price_minor,
    ),
  }));
  const arrival = loaded.days.get(input.startDate);
  const departure = loaded.days.get(input.endDate);
  return buildStayQuote({
    terms: {
      listingId: listing.id,
      currency: listing.currency,
      enabled: listing.enabled,
      minNights: listing.min_nights,
      maxNights: listing.max_nights,
      maxGuests: listing.max_guests,
      cleaningFeeMinor: listing.cleaning_fee_minor,
      extraGuestFeeMinor: listing.extra_guest_fee_minor,
      guestsIncluded: listing.guests_included,
      taxRateBp: listing.tax_rate_bp,
      weeklyDiscountPct: Number(listing.weekly_discount_pct),
      monthlyDiscountPct: Number(listing.monthly_discount_pct),
    },
    startDate: input.startDate,
    endDate: input.endDate,
    guests: input.guests,
    arrivalMinNights: arrival?.min_nights ?? null,
    closedToArrival: arrival?.closed_to_arrival ?? false,
    closedToDeparture: departure?.closed_to_departure ?? false,
    clashes: loaded.holds.filter((hold) => hold.startDate < input.endDate && hold.endDate > input.startDate),
    nightly,
  });
}
