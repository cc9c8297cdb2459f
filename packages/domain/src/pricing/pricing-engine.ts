import { dayOfWeek, daysBetween, type LocalDate, localDateIn } from '../core/dates.ts';
import { currencyExponent, percentOf } from '../core/money.ts';

/** How a pricing rule changes a price: by a signed percent, or by a signed amount of the listing's currency. */
export const adjustmentKinds = ['percent', 'fixed'] as const;
/** One of {@link adjustmentKinds}. */
export type AdjustmentKind = (typeof adjustmentKinds)[number];

/**
 * What the engine needs to know of a pricing rule. Every condition that is set must hold for the rule to
 * apply to a night; a rule with no conditions applies to every night of its listings.
 */
export interface PricingRuleTerms {
  readonly id: string;
  readonly enabled: boolean;
  /** The listings the rule covers; null covers every listing of the account. */
  readonly listingIds: readonly string[] | null;
  /** `percent`: signed percent of the running price (−10 is 10% off); `fixed`: signed major units. */
  readonly adjustment: { readonly kind: AdjustmentKind; readonly amount: number };
  /** Days of the week the rule applies on, 0 = Sunday … 6 = Saturday. */
  readonly daysOfWeek: readonly number[] | null;
  /** First night the rule applies to, inclusive. */
  readonly startDate: LocalDate | null;
  /** Last night the rule applies to, inclusive. */
  readonly endDate: LocalDate | null;
  /** Applies to nights from listing-local today up to this many days ahead. */
  readonly lastMinuteDays: number | null;
  /** Applies to open nights in a gap of at most this many nights between two held nights. */
  readonly orphanGapMaxNights: number | null;
}

/** Nights taken by a reservation or a block: every date from `startDate` up to, not including, `endDate`. */
export interface HeldRange {
  readonly startDate: LocalDate;
  readonly endDate: LocalDate;
}

/** Everything that decides a listing's nightly prices, loaded once for a whole range of dates. */
export interface PricingInputs {
  readonly listingId: string;
  readonly currency: string;
  /** IANA zone of the listing; "today" for last-minute rules is the listing's local date. */
  readonly timeZone: string;
  readonly basePriceMinor: number;
  /** Floor no rule or override goes below; null when the listing has none. */
  readonly minPriceMinor: number | null;
  /** The account's rules in application order (position, then creation, then id); disabled ones and those for other listings are skipped. */
  readonly rules: readonly PricingRuleTerms[];
  /** Per-date prices that replace the base price before rules run (`calendar_days.price_minor`). */
  readonly priceOverrides: ReadonlyMap<LocalDate, number>;
  /**
   * Held ranges on and around the priced dates. For orphan-gap rules to see a whole gap, this must
   * include holds up to {@link holdLookaround} nights beyond the first and last priced dates.
   */
  readonly holds: readonly HeldRange[];
  /** The current instant, from the injected clock. */
  readonly now: Date;
}

/** The effective price of one night and the rules that produced it ("why this price"). */
export interface NightlyPrice {
  readonly date: LocalDate;
  readonly priceMinor: number;
  /** Ids of the rules that changed the price, in the order they applied. */
  readonly appliedRuleIds: string[];
  /** Where the price started: the per-date override, else the base price. */
  readonly startMinor: number;
  /** Each rule that applied, in order, with the price it left. */
  readonly ruleSteps: readonly { readonly ruleId: string; readonly priceAfterMinor: number }[];
  /** True when the floor (the minimum price, or zero) raised the price the rules left. */
  readonly floorApplied: boolean;
}

/** True when `rule` is enabled and covers `listingId`. */
export function ruleCoversListing(rule: PricingRuleTerms, listingId: string): boolean {
  return rule.enabled && (rule.listingIds === null || rule.listingIds.includes(listingId));
}

/**
 * How many nights before and after a priced range the holds must be loaded so that orphan-gap rules see
 * the whole gap a night sits in: the largest gap any covering rule looks for, plus the bounding night.
 */
export function holdLookaround(rules: readonly PricingRuleTerms[], listingId: string): number {
  let largest = 0;
  for (const rule of rules) {
    if (ruleCoversListing(rule, listingId) && rule.orphanGapMaxNights !== null) {
      largest = Math.max(largest, rule.orphanGapMaxNights);
    }
  }
  return largest === 0 ? 0 : largest + 1;
}

/**
 * Prices each of `dates` for one listing: the per-date override or the base price, then every covering
 * rule whose conditions hold, in order, then the floor (the listing's minimum price, and never below zero).
 */
export function priceNights(inputs: PricingInputs, dates: readonly LocalDate[]): NightlyPrice[] {
  const today = localDateIn(inputs.timeZone, inputs.now);
  const rules = inputs.rules.filter((rule) => ruleCoversListing(rule, inputs.listingId));
  const holds = [...inputs.holds].sort((a, b) => (a.startDate < b.startDate ? -1 : 1));
  const floor = Math.max(inputs.minPriceMinor ?? 0, 0);
  return dates.map((date) => {
    const startMinor = inputs.priceOverrides.get(date) ?? inputs.basePriceMinor;
    let price = startMinor;
    const ruleSteps: { ruleId: string; priceAfterMinor: number }[] = [];
    for (const rule of rules) {
      if (!conditionsHold(rule, date, today, holds)) continue;
      price += adjustmentMinor(rule, price, inputs.currency);
      ruleSteps.push({ ruleId: rule.id, priceAfterMinor: price });
    }
    return {
      date,
      priceMinor: Math.max(price, floor),
      appliedRuleIds: ruleSteps.map((step) => step.ruleId),
      startMinor,
      ruleSteps,
      floorApplied: price < floor,
    };
  });
}

/**
 * The price a channel charges for a night: its own per-date price when one is set, else the effective
 * price. The listing's minimum price is a floor for channel prices too.
 */
export function channelNightPrice(
  effectivePriceMinor: number,
  channelPriceMinor: number | undefined,
  minPriceMinor: number | null,
): number {
  if (channelPriceMinor === undefined) return effectivePriceMinor;
  return Math.max(channelPriceMinor, minPriceMinor ?? 0, 0);
}

/**
 * The length of the run of open nights `date` sits in, when that run has a held night on both sides;
 * null when `date` is held or the run is open-ended (as far as `holds`, sorted by start, reach).
 */
export function orphanGapLength(date: LocalDate, holds: readonly HeldRange[]): number | null {
  let gapStart: LocalDate | null = null;
  let gapEnd: LocalDate | null = null;
  for (const hold of holds) {
    if (hold.startDate <= date && date < hold.endDate) return null;
    if (hold.endDate <= date && (gapStart === null || hold.endDate > gapStart)) gapStart = hold.endDate;
    if (hold.startDate > date && (gapEnd === null || hold.startDate < gapEnd)) gapEnd = hold.startDate;
  }
  if (gapStart === null || gapEnd === null) return null;
  return daysBetween(gapStart, gapEnd);
}

function conditionsHold(
  rule: PricingRuleTerms,
  date: LocalDate,
  today: LocalDate,
  holds: readonly HeldRange[],
): boolean {
  if (rule.daysOfWeek !== null && !rule.daysOfWeek.includes(dayOfWeek(date))) return false;
  if (rule.startDate !== null && date < rule.startDate) return false;
  if (rule.endDate !== null && date > rule.endDate) return false;
  if (rule.lastMinuteDays !== null) {
    const ahead = daysBetween(today, date);
    if (ahead < 0 || ahead > rule.lastMinuteDays) return false;
  }
  if (rule.orphanGapMaxNights !== null) {
    const gap = orphanGapLength(date, holds);
    if (gap === null || gap > rule.orphanGapMaxNights) return false;
  }
  return true;
}

function adjustmentMinor(rule: PricingRuleTerms, price: number, currency: string): number {
  const { kind, amount } = rule.adjustment;
  if (kind === 'percent') return percentOf(price, amount);
  // A rule shared by listings in several currencies adds the same number in each. Amounts carry at most
  // two decimals, so this is exact for cents; in a currency without minor units (JPY) it rounds to whole
  // units instead of refusing to price the night.
  const magnitude = Math.round(Math.abs(amount) * 10 ** currencyExponent(currency));
  return amount < 0 ? -magnitude : magnitude;
}
