import type { Channel } from '@innkeep/domain';
import { percentOf } from '@innkeep/domain';
import type { CalendarChannelPricesTable, CalendarDaysTable, PricingRulesTable } from '@innkeep/storage';
import type { Insertable } from 'kysely';
import { type DemoEvent, demoCities } from './demo-catalog.ts';
import type { DemoSpan, ListingPlan } from './demo-model.ts';
import type { IdSource } from './demo-random.ts';
import { dateOfDay, dayOfCalendar, isoOf, monthOf, msPerDay, weekdayOf, yearOf } from './demo-time.ts';

// The demo's prices are produced by the same rules it stores, applied the way the pricing engine applies
// them (per-date override or base price, then each matching rule in order on the running price, then the
// listing's floor), so that booked nightly rates and the calendar's listed prices tell one story.

/** Friday and Saturday nights cost this many percent more. */
const weekendPercent = 15;
/** Nights this close to the booking date get {@link lastMinutePercent}. */
export const lastMinuteDays = 3;
/** Signed percent of the last-minute rule. */
const lastMinutePercent = -10;
/** Gaps of at most this many nights between two held nights get {@link orphanPercent}. */
export const orphanGapNights = 2;
/** Signed percent of the orphan-gap rule. */
const orphanPercent = -20;

/** One dated instance of a city's price season, stored as a pricing rule. */
export interface SeasonRuleInstance {
  readonly cityIndex: number;
  readonly name: string;
  readonly startDay: number;
  /** Last night covered, inclusive. */
  readonly endDay: number;
  readonly percent: number;
}

/** Seasons, events and closed days of the demo markets over the generated years. */
export interface DemoCalendar {
  /** Percent of the season rule covering `day` in the city, 0 when none does (seasons never overlap). */
  seasonPercent(cityIndex: number, day: number): number;
  /** The event or holiday on `day` in the city, if any. */
  event(cityIndex: number, day: number): DemoEvent | undefined;
  /** No arrivals or departures on Christmas Day. */
  closed(day: number): boolean;
  readonly seasons: readonly SeasonRuleInstance[];
}

/** Lays the markets' seasons and events over every year a stay or booking of the run can touch. */
export function createDemoCalendar(span: DemoSpan): DemoCalendar {
  const firstDay = span.startDay - 400;
  const lastDay = span.endDay + 120;
  const seasonByCity = demoCities.map(() => new Int16Array(lastDay - firstDay + 1));
  const eventsByCity = demoCities.map(() => new Map<number, DemoEvent>());
  const seasons: SeasonRuleInstance[] = [];
  for (let year = yearOf(firstDay) - 1; year <= yearOf(lastDay); year += 1) {
    demoCities.forEach((city, cityIndex) => {
      for (const season of city.seasons) {
        const startDay = dayOfCalendar(year, season.from[0] - 1, season.from[1]);
        const crossesYear = season.to[0] < season.from[0];
        const endDay = dayOfCalendar(crossesYear ? year + 1 : year, season.to[0] - 1, season.to[1]);
        if (endDay < firstDay || startDay > lastDay) continue;
        seasons.push({ cityIndex, name: season.name, startDay, endDay, percent: season.percent });
        const percents = seasonByCity[cityIndex];
        for (let day = Math.max(startDay, firstDay); day <= Math.min(endDay, lastDay); day += 1) {
          if (percents) percents[day - firstDay] = season.percent;
        }
      }
      for (const event of city.events) {
        const first = dayOfCalendar(year, event.month - 1, event.day);
        for (let night = 0; night < event.nights; night += 1)
          eventsByCity[cityIndex]?.set(first + night, event);
      }
    });
  }
  seasons.sort((a, b) => a.startDay - b.startDay || a.cityIndex - b.cityIndex);
  return {
    seasonPercent: (cityIndex, day) => {
      if (day < firstDay || day > lastDay) return 0;
      return seasonByCity[cityIndex]?.[day - firstDay] ?? 0;
    },
    event: (cityIndex, day) => eventsByCity[cityIndex]?.get(day),
    closed: (day) => monthOf(day) === 11 && new Date(day * msPerDay).getUTCDate() === 25,
    seasons,
  };
}

/** The per-date price override an event sets: base plus the event's percent, in whole currency units. */
function eventOverrideMinor(listing: ListingPlan, event: DemoEvent): number {
  return Math.round((listing.basePriceMinor * (100 + event.percent)) / 10_000) * 100;
}

/** What makes a booked night cheaper than its listed price. */
export interface NightConditions {
  /** The night was at most {@link lastMinuteDays} days ahead when booked. */
  readonly lastMinute: boolean;
  /** The stay filled a gap of at most {@link orphanGapNights} nights between two held nights. */
  readonly orphan: boolean;
}

/**
 * The price of one night as the pricing rules make it: the event override or the base price, the
 * season, the weekend uplift, the last-minute and orphan-gap discounts, then the listing's floor.
 */
export function nightPriceMinor(
  calendar: DemoCalendar,
  listing: ListingPlan,
  day: number,
  conditions: NightConditions,
): number {
  const event = calendar.event(listing.cityIndex, day);
  let price = event === undefined ? listing.basePriceMinor : eventOverrideMinor(listing, event);
  const season = calendar.seasonPercent(listing.cityIndex, day);
  if (season !== 0) price += percentOf(price, season);
  const weekday = weekdayOf(day);
  if (weekday === 5 || weekday === 6) price += percentOf(price, weekendPercent);
  if (conditions.lastMinute) price += percentOf(price, lastMinutePercent);
  if (conditions.orphan) price += percentOf(price, orphanPercent);
  return Math.max(price, listing.minPriceMinor);
}

/** A night's price on one channel: the channel's own per-date price when one is set (floored), else `price`. */
export function channelPriceMinor(
  listing: ListingPlan,
  day: number,
  channel: Channel,
  price: number,
): number {
  const own = listing.channelPrices.get(day)?.[channel];
  return own === undefined ? price : Math.max(own, listing.minPriceMinor);
}

/**
 * Booking.com prices for the listing's future event nights, 10% over the effective price; only some
 * listings have them, as hosts set channel prices by hand for a few dates.
 */
export function planChannelPrices(
  span: DemoSpan,
  calendar: DemoCalendar,
  listing: Omit<ListingPlan, 'channelPrices'>,
): Map<number, Partial<Record<Channel, number>>> {
  const prices = new Map<number, Partial<Record<Channel, number>>>();
  if (listing.index % 4 !== 1 || !listing.channels.includes('booking')) return prices;
  for (let day = span.todayDay; day < span.endDay; day += 1) {
    if (calendar.event(listing.cityIndex, day) === undefined) continue;
    const effective = nightPriceMinor(calendar, { ...listing, channelPrices: prices }, day, {
      lastMinute: false,
      orphan: false,
    });
    prices.set(day, { booking: Math.round((effective * 1.1) / 100) * 100 });
  }
  return prices;
}

/** The `calendar_days` and `calendar_channel_prices` rows of one listing (future dates only). */
export function calendarRows(
  span: DemoSpan,
  calendar: DemoCalendar,
  listing: ListingPlan,
): { days: Insertable<CalendarDaysTable>[]; channelPrices: Insertable<CalendarChannelPricesTable>[] } {
  const days: Insertable<CalendarDaysTable>[] = [];
  const updatedAt = isoOf(span.nowMs - 21 * msPerDay + listing.index * 60_000);
  for (let day = span.todayDay; day < span.endDay; day += 1) {
    const event = calendar.event(listing.cityIndex, day);
    const closed = calendar.closed(day);
    if (event === undefined && !closed) continue;
    days.push({
      listing_id: listing.id,
      date: dateOfDay(day),
      price_minor: event === undefined ? null : eventOverrideMinor(listing, event),
      min_nights: event?.minNights ?? null,
      closed_to_arrival: closed,
      closed_to_departure: closed,
      note: event?.name ?? 'Christmas Day: no arrivals or departures',
      updated_at: updatedAt,
    });
  }
  const channelPrices: Insertable<CalendarChannelPricesTable>[] = [];
  for (const [day, prices] of listing.channelPrices) {
    for (const [channel, price] of Object.entries(prices)) {
      channelPrices.push({ listing_id: listing.id, date: dateOfDay(day), channel, price_minor: price });
    }
  }
  return { days, channelPrices };
}

/**
 * The account's pricing rules, in application order: each market's seasons (one rule per dated season,
 * for that market's listings), then the weekend uplift, the last-minute and the orphan-gap discounts.
 */
export function pricingRuleRows(
  span: DemoSpan,
  calendar: DemoCalendar,
  accountId: string,
  ids: IdSource,
  listingIdsByCity: readonly (readonly string[])[],
  createdAt: number,
): Insertable<PricingRulesTable>[] {
  const rows: Insertable<PricingRulesTable>[] = [];
  const base = {
    account_id: accountId,
    enabled: true,
    days_of_week: null,
    start_date: null,
    end_date: null,
    last_minute_days: null,
    orphan_gap_max_nights: null,
    created_at: isoOf(createdAt),
    updated_at: isoOf(createdAt),
  };
  for (const season of calendar.seasons) {
    const listingIds = listingIdsByCity[season.cityIndex] ?? [];
    // Seasons wholly before the first generated stay explain nothing in the data and are left out.
    if (listingIds.length === 0 || season.endDay < span.startDay || season.startDay >= span.endDay) continue;
    const city = demoCities[season.cityIndex]?.city ?? '';
    rows.push({
      ...base,
      id: ids.next('pricingRule'),
      name: `${season.name} ${yearOf(season.startDay)} · ${city}`,
      position: rows.length + 1,
      listing_ids: [...listingIds],
      adjustment_kind: 'percent',
      adjustment_amount: season.percent,
      start_date: dateOfDay(season.startDay),
      end_date: dateOfDay(season.endDay),
    });
  }
  const fixed: Partial<Insertable<PricingRulesTable>>[] = [
    { name: 'Weekend uplift (Fri & Sat)', adjustment_amount: weekendPercent, days_of_week: [5, 6] },
    {
      name: `Last-minute discount (${lastMinuteDays} days)`,
      adjustment_amount: lastMinutePercent,
      last_minute_days: lastMinuteDays,
    },
    {
      name: `Orphan gap discount (≤ ${orphanGapNights} nights)`,
      adjustment_amount: orphanPercent,
      orphan_gap_max_nights: orphanGapNights,
    },
  ];
  for (const rule of fixed) {
    rows.push({
      ...base,
      ...rule,
      id: ids.next('pricingRule'),
      name: rule.name ?? '',
      position: rows.length + 1,
      listing_ids: null,
      adjustment_kind: 'percent',
      adjustment_amount: rule.adjustment_amount ?? 0,
    });
  }
  return rows;
}
