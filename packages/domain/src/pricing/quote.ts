import { type CalendarHold, holdConflict } from '../calendar/holds.ts';
import { daysBetween, type LocalDate } from '../core/dates.ts';
import { DomainError } from '../core/errors.ts';
import { percentOf } from '../core/money.ts';

/** The longest stay a quote (and so a booking) may cover. */
export const maxStayNights = 1125;

/** Stays of at least this many nights get the listing's weekly discount. */
export const weeklyDiscountNights = 7;
/** Stays of at least this many nights get the listing's monthly discount instead of the weekly one. */
export const monthlyDiscountNights = 28;

/** Kinds of line a quote has. Discounts are negative. */
export const quoteLineItemTypes = [
  'accommodation',
  'discount',
  'cleaning_fee',
  'extra_guest_fee',
  'tax',
] as const;
/** One of {@link quoteLineItemTypes}. */
export type QuoteLineItemType = (typeof quoteLineItemTypes)[number];

/** One money line of a quote, in minor units; the lines add up to the total. */
export interface StayQuoteLineItem {
  readonly type: QuoteLineItemType;
  readonly name: string;
  readonly amountMinor: number;
}

/**
 * What a stay costs, in integer minor units of `currency`. `discountMinor` is the amount taken off
 * (zero or positive); its line item is negative. `nightly` holds the direct-channel price of each night.
 */
export interface StayQuote {
  readonly listingId: string;
  readonly currency: string;
  readonly startDate: LocalDate;
  /** Check-out date. */
  readonly endDate: LocalDate;
  readonly nights: number;
  readonly guests: number;
  readonly nightly: { date: LocalDate; priceMinor: number }[];
  readonly accommodationMinor: number;
  readonly discountMinor: number;
  readonly cleaningFeeMinor: number;
  readonly extraGuestFeeMinor: number;
  readonly taxesMinor: number;
  readonly totalMinor: number;
  readonly lineItems: StayQuoteLineItem[];
}

/** The listing settings a quote reads. */
export interface StayTerms {
  readonly listingId: string;
  readonly currency: string;
  readonly enabled: boolean;
  readonly minNights: number;
  readonly maxNights: number;
  readonly maxGuests: number;
  readonly cleaningFeeMinor: number;
  /** Per night, for each guest above `guestsIncluded`. */
  readonly extraGuestFeeMinor: number;
  readonly guestsIncluded: number;
  /** Tax in basis points (1250 = 12.5%) of accommodation after discount plus fees. */
  readonly taxRateBp: number;
  readonly weeklyDiscountPct: number;
  readonly monthlyDiscountPct: number;
}

/** Everything a quote is computed from, loaded beforehand. */
export interface StayQuoteFacts {
  readonly terms: StayTerms;
  readonly startDate: LocalDate;
  readonly endDate: LocalDate;
  readonly guests: number;
  /** The arrival date's own minimum stay, when the calendar overrides the listing's. */
  readonly arrivalMinNights: number | null;
  readonly closedToArrival: boolean;
  readonly closedToDeparture: boolean;
  /** Reservations and blocks that take any night of the stay. */
  readonly clashes: readonly CalendarHold[];
  /** Direct-channel price of each night of the stay, in order. */
  readonly nightly: readonly { date: LocalDate; priceMinor: number }[];
}

/**
 * Checks that a stay's dates make sense before anything is loaded, and returns its number of nights.
 * @throws invalid_argument when the check-out is not after the check-in or the stay is too long.
 */
export function assertStayDates(startDate: LocalDate, endDate: LocalDate): number {
  const nights = daysBetween(startDate, endDate);
  if (nights <= 0) {
    throw new DomainError(
      'invalid_argument',
      `endDate (${endDate}) must be after startDate (${startDate}); endDate is the check-out date.`,
      { details: { startDate, endDate } },
    );
  }
  if (nights > maxStayNights) {
    throw new DomainError(
      'invalid_argument',
      `A stay can be at most ${maxStayNights} nights; ${startDate} to ${endDate} is ${nights}.`,
      { details: { startDate, endDate, nights, maxNights: maxStayNights } },
    );
  }
  return nights;
}

/**
 * Prices a stay, or refuses it with the first reason it cannot be booked: a disabled listing, a stay
 * shorter than the arrival date's minimum or longer than the maximum, too many guests, a closed arrival or
 * departure date (all `failed_precondition`), or nights already held (`conflict`).
 */
export function buildStayQuote(facts: StayQuoteFacts): StayQuote {
  const { terms, startDate, endDate, guests } = facts;
  const nights = assertStayDates(startDate, endDate);
  assertBookable(facts, nights);

  const accommodationMinor = facts.nightly.reduce((sum, night) => sum + night.priceMinor, 0);
  const discountPct =
    nights >= monthlyDiscountNights
      ? terms.monthlyDiscountPct
      : nights >= weeklyDiscountNights
        ? terms.weeklyDiscountPct
        : 0;
  const discountMinor = percentOf(accommodationMinor, discountPct);
  const extraGuests = Math.max(0, guests - terms.guestsIncluded);
  const extraGuestFeeMinor = terms.extraGuestFeeMinor * extraGuests * nights;
  const cleaningFeeMinor = terms.cleaningFeeMinor;
  const taxable = accommodationMinor - discountMinor + cleaningFeeMinor + extraGuestFeeMinor;
  const taxesMinor = percentOf(taxable, terms.taxRateBp / 100);
  const totalMinor = taxable + taxesMinor;

  const lineItems: StayQuoteLineItem[] = [
    {
      type: 'accommodation',
      name: `${nights} ${nights === 1 ? 'night' : 'nights'}`,
      amountMinor: accommodationMinor,
    },
  ];
  // Zero lines are left out so that a quote reads like an invoice.
  if (discountMinor !== 0) {
    const kind = nights >= monthlyDiscountNights ? 'Monthly' : 'Weekly';
    lineItems.push({
      type: 'discount',
      name: `${kind} discount (${discountPct}%)`,
      amountMinor: -discountMinor,
    });
  }
  if (cleaningFeeMinor !== 0)
    lineItems.push({ type: 'cleaning_fee', name: 'Cleaning fee', amountMinor: cleaningFeeMinor });
  if (extraGuestFeeMinor !== 0) {
    lineItems.push({
      type: 'extra_guest_fee',
      name: `Extra guest fee (${extraGuests} × ${nights} ${nights === 1 ? 'night' : 'nights'})`,
      amountMinor: extraGuestFeeMinor,
    });
  }
  if (taxesMinor !== 0) {
    lineItems.push({ type: 'tax', name: `Tax (${terms.taxRateBp / 100}%)`, amountMinor: taxesMinor });
  }

  return {
    listingId: terms.listingId,
    currency: terms.currency,
    startDate,
    endDate,
    nights,
    guests,
    nightly: facts.nightly.map((night) => ({ date: night.date, priceMinor: night.priceMinor })),
    accommodationMinor,
    discountMinor,
    cleaningFeeMinor,
    extraGuestFeeMinor,
    taxesMinor,
    totalMinor,
    lineItems,
  };
}

function assertBookable(facts: StayQuoteFacts, nights: number): void {
  const { terms, startDate, endDate, guests } = facts;
  if (!terms.enabled) {
    throw new DomainError(
      'failed_precondition',
      `Listing ${terms.listingId} is disabled, so it takes no quotes or bookings. Enable it in the listing settings first.`,
      { details: { listingId: terms.listingId, enabled: false } },
    );
  }
  const minNights = facts.arrivalMinNights ?? terms.minNights;
  if (nights < minNights) {
    throw new DomainError(
      'failed_precondition',
      `Stays arriving on ${startDate} must be at least ${minNights} nights; this one is ${nights}. ` +
        'Choose a longer stay or another arrival date.',
      { details: { startDate, nights, minNights } },
    );
  }
  if (nights > terms.maxNights) {
    throw new DomainError(
      'failed_precondition',
      `Stays at this listing can be at most ${terms.maxNights} nights; this one is ${nights}.`,
      { details: { nights, maxNights: terms.maxNights } },
    );
  }
  if (guests > terms.maxGuests) {
    throw new DomainError(
      'failed_precondition',
      `This listing takes at most ${terms.maxGuests} guests; the request is for ${guests}.`,
      { details: { guests, maxGuests: terms.maxGuests } },
    );
  }
  if (facts.closedToArrival) {
    throw new DomainError(
      'failed_precondition',
      `Arrivals are closed on ${startDate} at this listing; choose another check-in date.`,
      { details: { startDate, closedToArrival: true } },
    );
  }
  if (facts.closedToDeparture) {
    throw new DomainError(
      'failed_precondition',
      `Departures are closed on ${endDate} at this listing; choose another check-out date.`,
      { details: { endDate, closedToDeparture: true } },
    );
  }
  if (facts.clashes.length > 0) {
    throw holdConflict(
      `Nights from ${startDate} to ${endDate} are not all available`,
      facts.clashes,
      'Choose dates around them.',
    );
  }
}
