import type { PricingRule } from '@innkeep/domain';
import { addDays, dayOfWeek, daysBetween, type LocalDate, localDateIn, priceNights } from '@innkeep/domain';
import type { AnalyticsPeriod } from '@innkeep/domain/analytics';
import { weekendNights } from '@innkeep/domain/analytics';

/** What a night's listed price depends on besides its date: its listing's side of it. */
export interface ListingClass {
  readonly currency: string;
  readonly base_price_minor: number;
  readonly min_price_minor: number | null;
  readonly time_zone: string;
  /** One character per rule, '1' where the rule covers the listing. */
  readonly covered: string;
}

/**
 * Where the period is cut into pieces inside which only the weekday still changes which rules apply: its
 * first night, every date inside it where a rule's date range starts or ends or a last-minute window starts
 * or ends, and the night after it. A last-minute window starts at a listing's local today, one of the three
 * dates around UTC's today whatever the zone.
 */
export function pieceBounds(period: AnalyticsPeriod, rules: readonly PricingRule[], now: Date): LocalDate[] {
  const dayAfter = addDays(period.endDate, 1);
  const utcToday = localDateIn('UTC', now);
  const cuts = new Set<LocalDate>();
  for (const rule of rules) {
    if (rule.startDate !== null) cuts.add(rule.startDate);
    if (rule.endDate !== null) cuts.add(addDays(rule.endDate, 1));
    if (rule.lastMinuteDays !== null) {
      for (const shift of [-1, 0, 1]) {
        const today = addDays(utcToday, shift);
        cuts.add(today);
        cuts.add(addDays(today, rule.lastMinuteDays + 1));
      }
    }
  }
  const inside = [...cuts].filter((date) => date > period.startDate && date < dayAfter).sort();
  return [period.startDate, ...inside, dayAfter];
}

/**
 * The weekdays (0 = Sunday) in groups that nothing tells apart: inside a piece of the period (see
 * {@link pieceBounds}) nights of one group have the same rules applying and are all weekday or all weekend
 * nights, so one of them prices all. Largest group first (counts leave it out, as what the others leave),
 * then by first weekday.
 */
export function weekdayGroups(rules: readonly PricingRule[]): number[][] {
  const groups = new Map<string, number[]>();
  for (let weekday = 0; weekday < 7; weekday += 1) {
    const weekend = (weekendNights as readonly number[]).includes(weekday);
    const key = [weekend, ...rules.map((rule) => rule.daysOfWeek?.includes(weekday) ?? true)].join();
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [weekday]);
    else group.push(weekday);
  }
  return [...groups.values()].sort((a, b) => b.length - a.length || (a[0] as number) - (b[0] as number));
}

/** The first date on or after `from` that falls on `weekday` (0 = Sunday). */
export function firstWeekdayFrom(from: LocalDate, weekday: number): LocalDate {
  return addDays(from, (weekday - dayOfWeek(from) + 7) % 7);
}

/** How many dates from `from` up to (not including) `until` fall on `weekday` (0 = Sunday). */
export function weekdaysBetween(from: LocalDate, until: LocalDate, weekday: number): number {
  const first = (weekday - dayOfWeek(from) + 7) % 7;
  return Math.max(0, Math.floor((daysBetween(from, until) - first + 6) / 7));
}

/** Rules as the engine reads them once their conditions are known to hold: unconditional. */
function unconditional(rules: readonly PricingRule[]): PricingRule[] {
  return rules.map((rule) => ({
    ...rule,
    listingIds: null,
    daysOfWeek: null,
    startDate: null,
    endDate: null,
    lastMinuteDays: null,
    orphanGapMaxNights: null,
  }));
}

/** The group of classes alike in covered rules, time zone and currency, whose base prices are priced together. */
const groupOf = (listing: ListingClass) => `${listing.covered}|${listing.time_zone}|${listing.currency}`;

/**
 * The pricing engine's listed prices of nights of listing classes. A night's price is found in two steps,
 * both by the engine: which rules apply to it (only those covering the class; last-minute windows from the
 * class's local today; for a night in an open run of `gap` nights bounded by holds, holds around such a gap
 * for orphan-gap rules), then the price from a starting price (the base price or the night's own) with just
 * those rules, so conditions and arithmetic are the engine's own. Both steps are batched and memoised: the
 * first asks for all representative nights of a class at once, the second for all base prices of the
 * classes alike in covered rules, time zone and currency at once.
 */
export class ListedPrices {
  readonly #rules: readonly PricingRule[];
  readonly #now: Date;
  readonly #nights: readonly LocalDate[];
  /**
   * By covered rules, time zone and currency: the base prices of the classes alike in those. Rules applied to
   * a night depend on the first two, so prices under one set of applied rules are mostly asked for the base
   * prices of one such group: each group's are priced together when it first asks.
   */
  readonly #basePrices = new Map<string, Set<number>>();
  /** By covered rules, time zone and gap: the applied rule ids of each night, joined. */
  readonly #applied = new Map<string, Map<LocalDate, string>>();
  /** By currency and applied rule ids: prices before the floor, by starting price. */
  readonly #prices = new Map<string, PricesWithRules>();
  /** By covered rules, time zone, gap and currency: the prices of each representative night. */
  readonly #nightPrices = new Map<string, PricesWithRules[]>();
  /**
   * By class, then gap: the class's applied rule ids by night (shared with the classes alike in covered rules
   * and time zone); by class, then applied rule ids: their prices. Nights with their own price ask for these
   * four times a night, tens of thousands of nights: building and hashing the keys above each time cost more
   * than pricing.
   */
  readonly #appliedOfClass = new Map<ListingClass, Map<number, Map<LocalDate, string>>>();
  readonly #pricesOfClass = new Map<ListingClass, Map<string, PricesWithRules>>();

  /**
   * @param classes - every listing class that will be priced.
   * @param nights - the representative nights {@link nightPrices} prices, in the order it returns them.
   */
  constructor(
    rules: readonly PricingRule[],
    now: Date,
    classes: Iterable<ListingClass>,
    nights: readonly LocalDate[],
  ) {
    this.#rules = rules;
    this.#now = now;
    this.#nights = nights;
    for (const listing of classes) {
      const key = groupOf(listing);
      const prices = this.#basePrices.get(key) ?? new Set<number>();
      prices.add(listing.base_price_minor);
      this.#basePrices.set(key, prices);
    }
  }

  /** The listed prices of the representative nights for a listing of `listing`'s class at its base price. */
  nightPrices(listing: ListingClass, gap: number): number[] {
    const key = `${listing.covered}|${listing.time_zone}|${gap}|${listing.currency}`;
    let perNight = this.#nightPrices.get(key);
    if (perNight === undefined) {
      const applied = this.#appliedByNight(listing, gap);
      perNight = this.#nights.map((night) => this.#pricesWith(listing, applied.get(night) as string));
      this.#nightPrices.set(key, perNight);
    }
    return perNight.map((prices) => this.#price(listing, prices, listing.base_price_minor));
  }

  /** The listed price of any `night` of a listing of `listing`'s class, starting from `startPriceMinor`. */
  price(listing: ListingClass, gap: number, startPriceMinor: number, night: LocalDate): number {
    const applied = this.#appliedByNight(listing, gap);
    if (!applied.has(night)) this.#findApplied(listing, gap, [night], applied);
    return this.#price(listing, this.#pricesWith(listing, applied.get(night) as string), startPriceMinor);
  }

  #appliedByNight(listing: ListingClass, gap: number): Map<LocalDate, string> {
    let byGap = this.#appliedOfClass.get(listing);
    if (byGap === undefined) {
      byGap = new Map();
      this.#appliedOfClass.set(listing, byGap);
    }
    let byNight = byGap.get(gap);
    if (byNight !== undefined) return byNight;
    const key = `${listing.covered}|${listing.time_zone}|${gap}`;
    byNight = this.#applied.get(key);
    if (byNight === undefined) {
      byNight = new Map();
      this.#applied.set(key, byNight);
      this.#findApplied(listing, gap, this.#nights, byNight);
    }
    byGap.set(gap, byNight);
    return byNight;
  }

  #pricesWith(listing: ListingClass, applied: string): PricesWithRules {
    let ofClass = this.#pricesOfClass.get(listing);
    if (ofClass === undefined) {
      ofClass = new Map();
      this.#pricesOfClass.set(listing, ofClass);
    }
    const known = ofClass.get(applied);
    if (known !== undefined) return known;
    const prices = this.#pricesWithRules(listing, applied);
    ofClass.set(applied, prices);
    return prices;
  }

  /** The prices of `listing`'s currency under the `applied` rules, its group's base prices among them. */
  #pricesWithRules(listing: ListingClass, applied: string): PricesWithRules {
    const { currency } = listing;
    const key = `${currency}|${applied}`;
    let prices = this.#prices.get(key);
    if (prices === undefined) {
      prices = { currency, applied, byStartPrice: new Map(), pricedGroups: new Set() };
      this.#prices.set(key, prices);
    }
    const group = groupOf(listing);
    if (!prices.pricedGroups.has(group)) {
      prices.pricedGroups.add(group);
      const unpriced = [...(this.#basePrices.get(group) ?? [])].filter(
        (price) => !(prices as PricesWithRules).byStartPrice.has(price),
      );
      this.#priceFrom(prices, unpriced);
    }
    return prices;
  }

  #price(listing: ListingClass, prices: PricesWithRules, startPriceMinor: number): number {
    // Looked up once: this runs for every representative night of every class.
    let priced = prices.byStartPrice.get(startPriceMinor);
    if (priced === undefined) {
      this.#priceFrom(prices, [startPriceMinor]);
      priced = prices.byStartPrice.get(startPriceMinor) as number;
    }
    // The engine's floor: never below the listing's minimum price (nor zero, which the prices already keep).
    return Math.max(priced, listing.min_price_minor ?? 0);
  }

  /**
   * Asks the engine which rules apply to each of `nights`, in as few calls as the gap allows: each night in
   * a gap of `gap` open nights gets a hold ending at it and one starting `gap` nights later, so nights priced
   * together must lie at least `gap + 2` days apart for their holds not to cut each other's gaps. Each call
   * costs the engine a time-zone lookup, so nights join the first call they are far enough from.
   */
  #findApplied(
    listing: ListingClass,
    gap: number,
    nights: readonly LocalDate[],
    into: Map<LocalDate, string>,
  ) {
    const covering = this.#rules
      .filter((_, index) => listing.covered[index] === '1')
      .map((rule) => ({ ...rule, listingIds: null }));
    const spacing = gap === 0 ? 1 : gap + 2;
    const batches: LocalDate[][] = [];
    for (const night of [...nights].sort()) {
      // In date order, so a call's last night is its latest.
      const batch = batches.find(
        (members) => daysBetween(members[members.length - 1] as LocalDate, night) >= spacing,
      );
      if (batch === undefined) batches.push([night]);
      else batch.push(night);
    }
    for (const batch of batches) {
      const holds =
        gap === 0
          ? []
          : batch.flatMap((night) => [
              { startDate: addDays(night, -1), endDate: night },
              { startDate: addDays(night, gap), endDate: addDays(night, gap + 1) },
            ]);
      const priced = priceNights(
        {
          listingId: '',
          currency: listing.currency,
          timeZone: listing.time_zone,
          basePriceMinor: 0,
          minPriceMinor: null,
          rules: covering,
          priceOverrides: new Map(),
          holds,
          now: this.#now,
        },
        batch,
      );
      for (const night of priced) into.set(night.date, night.appliedRuleIds.join(','));
    }
  }

  /** Prices each starting price with the rules of `prices`, all in one engine call. */
  #priceFrom(prices: PricesWithRules, startPrices: readonly number[]) {
    if (startPrices.length === 0) return;
    const ids = new Set(prices.applied.split(','));
    // The rules are unconditional here, so any dates do: each stands for one starting price.
    const dates = standInDates(startPrices.length);
    const priced = priceNights(
      {
        listingId: '',
        currency: prices.currency,
        timeZone: 'UTC',
        basePriceMinor: 0,
        minPriceMinor: null,
        rules: unconditional(this.#rules.filter((rule) => ids.has(rule.id))),
        priceOverrides: new Map(dates.map((date, index) => [date, startPrices[index] as number])),
        holds: [],
        now: this.#now,
      },
      dates,
    );
    priced.forEach((night, index) => {
      prices.byStartPrice.set(startPrices[index] as number, night.priceMinor);
    });
  }
}

/** Consecutive dates from 2000-01-01, kept: pricing asks for thousands of them and building each costs. */
const standIns: LocalDate[] = [];

/** The first `count` stand-in dates, one per starting price priced together. */
function standInDates(count: number): LocalDate[] {
  while (standIns.length < count) standIns.push(addDays('2000-01-01', standIns.length));
  return standIns.slice(0, count);
}

/** Prices before the floor of one currency under one set of applied rules, by starting price. */
interface PricesWithRules {
  readonly currency: string;
  /** Ids of the applied rules, comma-separated, in the order the engine applied them. */
  readonly applied: string;
  readonly byStartPrice: Map<number, number>;
  /** The groups (see `groupOf`) whose base prices are in {@link byStartPrice} already. */
  readonly pricedGroups: Set<string>;
}
