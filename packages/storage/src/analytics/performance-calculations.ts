import { toMajorUnits } from '@innkeep/domain';
import type { Change, OccupancyFigures, RevenueAmounts, RevenueBasis } from '@innkeep/domain/analytics';
import { type NullReason, ratioOf, relativeChange } from '@innkeep/domain/analytics';
import type { SoldNightSums } from './performance-sold-nights.ts';
import type { PeriodSupply } from './performance-supply.ts';

// The arithmetic of the performance results, from the integer sums the SQL returns: ratios of sums, money
// per night rounded once, changes between periods. Kept apart from the SQL so every tool divides alike.

/** A value that may be null, with the reason it would be. */
export type Nullable = readonly [value: number | null, reasonIfNull: NullReason];

/** The `nullReasons` object for some fields: the reason of each field whose value is null. */
export function reasonsFor(fields: Readonly<Record<string, Nullable>>): Record<string, NullReason> {
  const reasons: Record<string, NullReason> = {};
  for (const [field, [value, reason]] of Object.entries(fields)) {
    if (value === null) reasons[field] = reason;
  }
  return reasons;
}

/** Adjusted and gross occupancy of a period's supply with `bookedNights` sold. */
export function occupancyFigures(supply: PeriodSupply, bookedNights: number): OccupancyFigures {
  const occupancy = ratioOf(bookedNights, supply.availableNights);
  const grossOccupancy = ratioOf(bookedNights, supply.calendarNights);
  return {
    listings: supply.listings,
    calendarNights: supply.calendarNights,
    blockedNights: supply.blocked,
    availableNights: supply.availableNights,
    bookedNights,
    occupancy,
    grossOccupancy,
    nullReasons: reasonsFor({
      occupancy: [occupancy, 'no_available_nights'],
      grossOccupancy: [grossOccupancy, 'no_calendar_nights'],
    }),
  };
}

/** The revenue family of one currency in major units. */
export function revenueAmounts(sums: SoldNightSums): RevenueAmounts {
  const major = (minor: number) => toMajorUnits(minor, sums.currency);
  return {
    currency: sums.currency,
    bookedNights: sums.nights,
    accommodationRevenue: major(sums.accommodation),
    fees: major(sums.fees),
    totalRevenue: major(sums.accommodation + sums.fees),
    channelFees: major(sums.channelFees),
    netRevenue: major(sums.accommodation + sums.fees - sums.channelFees),
    payout: major(sums.payout),
  };
}

/** The revenue (minor units) a basis counts: rent, rent + fees, that minus channel fees, or the payout. */
export function basisMinor(sums: SoldNightSums, basis: RevenueBasis): number {
  switch (basis) {
    case 'accommodation':
      return sums.accommodation;
    case 'total':
      return sums.accommodation + sums.fees;
    case 'net':
      return sums.accommodation + sums.fees - sums.channelFees;
    case 'payout':
      return sums.payout;
  }
}

/**
 * The change from `baseline` to `current`. `absolute` is rounded to `decimals` (the figure's own precision,
 * so 0.1 + 0.2 never shows as 0.30000000000000004); `relative` is null for a zero or null baseline.
 */
export function change(current: Nullable, baseline: Nullable, decimals: number): Change {
  const [now, nowReason] = current;
  const [then, thenReason] = baseline;
  const absolute = now === null || then === null ? null : roundTo(now - then, decimals);
  const relative = relativeChange(now, then);
  const nullReasons: Record<string, NullReason> = {};
  if (absolute === null) nullReasons.absolute = now === null ? nowReason : thenReason;
  if (relative === null) nullReasons.relative = now === null ? nowReason : 'no_baseline';
  return { absolute, relative, nullReasons };
}

/** `value` rounded to `decimals` decimal places. */
export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/** Every currency appearing in any of the lists, sorted. */
export function currenciesIn(...lists: readonly (readonly { readonly currency: string }[])[]): string[] {
  return [...new Set(lists.flatMap((list) => list.map((entry) => entry.currency)))].sort();
}

/** Booked nights in a list of sums (all currencies: nights add up, money does not). */
export function bookedNightsIn(list: readonly SoldNightSums[]): number {
  return list.reduce((total, sums) => total + sums.nights, 0);
}

/** The sums of `currency` in a list grouped by currency, or zeros when it sold nothing. */
export function sumsOf(list: readonly SoldNightSums[], currency: string): SoldNightSums {
  return (
    list.find((sums) => sums.currency === currency) ?? {
      currency,
      channel: null,
      nights: 0,
      accommodation: 0,
      fees: 0,
      channelFees: 0,
      payout: 0,
    }
  );
}

/** The element at `index` of lists built to line up with the periods asked; a gap is a bug, not a case. */
export function nth<T>(list: readonly T[], index: number): T {
  const item = list[index];
  if (item === undefined) throw new Error(`Expected an element at ${index} of ${list.length}.`);
  return item;
}
