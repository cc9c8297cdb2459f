import { moneyPer, type NullReason, ratioOf } from '../../analytics/analytics-result.ts';
import type { BookedPriceSummary, ListedPriceSummary } from '../../analytics/pricing-stats.ts';
import { toMajorUnits } from '../../core/money.ts';

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
    const prices = [...this.#nightsByPrice.entries()].sort(([a], [b]) => a - b);
    const nights = prices.reduce((total, [, count]) => total + count, 0);
    const first = prices[0];
    const last = prices[prices.length - 1];
    if (nights === 0 || first === undefined || last === undefined) {
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
    const total = prices.reduce((sum, [priceMinor, count]) => sum + priceMinor * count, 0);
    // The nights at 1-based positions floor((n + 1) / 2) and floor(n / 2) + 1 of the sorted nights: the same
    // night for an odd count, the two middle ones for an even count.
    const lowerMiddle = priceAt(prices, Math.floor((nights + 1) / 2));
    const upperMiddle = priceAt(prices, Math.floor(nights / 2) + 1);
    return {
      openNights: nights,
      mean: moneyPer(total, nights, currency),
      median: toMajorUnits(Math.round((lowerMiddle + upperMiddle) / 2), currency),
      min: toMajorUnits(first[0], currency),
      max: toMajorUnits(last[0], currency),
      nullReasons: {},
    };
  }
}

/** The price at 1-based `position` of a sorted (price, nights) list. */
function priceAt(prices: readonly [number, number][], position: number): number {
  let seen = 0;
  for (const [priceMinor, count] of prices) {
    seen += count;
    if (seen >= position) return priceMinor;
  }
  throw new RangeError(`position ${position} is beyond ${seen} nights`);
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
