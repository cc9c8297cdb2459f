import { toMajorUnits } from '@innkeep/domain';
import type { BookedPriceSummary, ListedPriceSummary } from '@innkeep/domain/analytics';
import { moneyPer, type NullReason, ratioOf } from '@innkeep/domain/analytics';

/** A distribution of listed prices (minor units) by number of nights, summarised exactly. */
export class PriceTally {
  readonly #nightsByPrice = new Map<number, number>();

  /** Counts `nights` more nights at `priceMinor`; a negative count takes nights back out. */
  add(priceMinor: number, nights: number): void {
    const count = (this.#nightsByPrice.get(priceMinor) ?? 0) + nights;
    if (count === 0) this.#nightsByPrice.delete(priceMinor);
    else this.#nightsByPrice.set(priceMinor, count);
  }

  /** Mean, median, min and max in major units; nulls with `no_open_nights` when there are no nights. */
  summary(currency: string): ListedPriceSummary {
    // A typed array sorts numbers natively: a year of a large portfolio has thousands of distinct prices.
    const prices = Float64Array.from(this.#nightsByPrice.keys()).sort();
    let nights = 0;
    let total = 0;
    for (const priceMinor of prices) {
      const count = this.#nightsByPrice.get(priceMinor) as number;
      nights += count;
      total += priceMinor * count;
    }
    if (nights === 0 || prices.length === 0) {
      const reason: NullReason = 'no_open_nights';
      return {
        openNights: 0,
        mean: null,
        median: null,
        min: null,
        max: null,
        nullReasons: { mean: reason, median: reason, min: reason, max: reason },
      };
    }
    // The nights at 1-based positions floor((n + 1) / 2) and floor(n / 2) + 1 of the sorted nights: the same
    // night for an odd count, the two middle ones for an even count.
    const lowerMiddle = this.#priceAt(prices, Math.floor((nights + 1) / 2));
    const upperMiddle = this.#priceAt(prices, Math.floor(nights / 2) + 1);
    return {
      openNights: nights,
      mean: moneyPer(total, nights, currency),
      median: toMajorUnits(Math.round((lowerMiddle + upperMiddle) / 2), currency),
      min: toMajorUnits(prices[0] as number, currency),
      max: toMajorUnits(prices[prices.length - 1] as number, currency),
      nullReasons: {},
    };
  }

  /** The price at 1-based `position` of the nights sorted by price, from the tally's sorted `prices`. */
  #priceAt(prices: Float64Array, position: number): number {
    let seen = 0;
    for (const priceMinor of prices) {
      seen += this.#nightsByPrice.get(priceMinor) as number;
      if (seen >= position) return priceMinor;
    }
    throw new RangeError(`position ${position} is beyond ${seen} nights`);
  }
}

/**
 * Booked ADR of the sold nights next to the listed price of the same nights, and their ratio. `listedMinor`
 * is the listed prices of those nights added up.
 */
export function bookedSummary(
  booked: { readonly nights: number; readonly accommodationMinor: number },
  listedMinor: number,
  currency: string,
): BookedPriceSummary {
  const nullReasons: Record<string, NullReason> = {};
  if (booked.nights === 0) {
    nullReasons.adr = 'no_booked_nights';
    nullReasons.listedMean = 'no_booked_nights';
    nullReasons.realisation = 'no_booked_nights';
  } else if (listedMinor === 0) {
    nullReasons.realisation = 'no_baseline';
  }
  return {
    soldNights: booked.nights,
    adr: moneyPer(booked.accommodationMinor, booked.nights, currency),
    listedMean: moneyPer(listedMinor, booked.nights, currency),
    realisation: booked.nights === 0 ? null : ratioOf(booked.accommodationMinor, listedMinor),
    nullReasons,
  };
}
