import { type Kysely, sql } from 'kysely';
import type { AnalyticsPeriod } from '../../analytics/analytics-period.ts';
import { type PricingStatsCurrency, weekendNights } from '../../analytics/pricing-stats.ts';
import { dayOfWeek, type LocalDate } from '../../core/dates.ts';
import type { PricingRule } from '../../pricing/pricing.ts';
import type { Database, Executor } from '../database.ts';
import { toPricingRule } from '../pricing/pricing-inputs.ts';
import type { AnalyticsScope } from './analytics-scope.ts';
import { withAnalyticsSettings } from './guest-query-settings.ts';
import {
  firstWeekdayFrom,
  ListedPrices,
  type ListingClass,
  pieceBounds,
  weekdaysBetween,
} from './pricing-listed-price.ts';
import { type NightKind, nightsByPriceGroup } from './pricing-nights.ts';
import { bookedSummary, PriceTally } from './pricing-tallies.ts';
import { soldNightRows } from './sold-nights.ts';

// Listed prices are the calendar's effective prices, from the pricing engine. Pricing a year of a large
// portfolio night by night would read hundreds of thousands of nights, so the SQL counts nights instead: by
// listing class (listings alike in currency, base and minimum price, time zone and the rules covering them),
// by piece of the period (cut wherever a rule's date range or last-minute window starts or ends, so inside a
// piece only the weekday matters) and by weekday. The engine then prices one representative night per
// class, piece, weekday and orphan-gap length. Sold nights are every night neither open nor held, so
// without a channel filter their listed prices are all nights' minus the open and held ones'.

/** The account's enabled pricing rules in the order the engine applies them. */
export async function loadEnabledRules(db: Executor, accountId: string): Promise<PricingRule[]> {
  const rows = await db
    .selectFrom('pricing_rules')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('enabled', '=', true)
    .orderBy('position')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toPricingRule);
}

/** Listed prices of one currency's nights: open nights as distributions, the others as sums. */
class CurrencyListing {
  readonly open = new PriceTally();
  readonly weekday = new PriceTally();
  readonly weekend = new PriceTally();
  /** Listed prices summed over every night, over open nights and over held nights, all without gap rules. */
  all = 0;
  openWithoutGaps = 0;
  held = 0;
  /** Listed prices of the channel's sold nights, when a channel filter reads them directly. */
  soldOfChannel = 0;

  /** Counts open nights at a price, into the weekday or the weekend distribution too. */
  countOpen(weekend: boolean, priceMinor: number, nights: number): void {
    this.open.add(priceMinor, nights);
    (weekend ? this.weekend : this.weekday).add(priceMinor, nights);
  }

  /** Adds listed prices of nights of a kind that are summed rather than distributed. */
  addSum(kind: NightKind, amountMinor: number): void {
    if (kind === 'held') this.held += amountMinor;
    else if (kind === 'sold') this.soldOfChannel += amountMinor;
    else this.openWithoutGaps += amountMinor;
  }

  /** Listed prices of the sold nights in scope. */
  sold(channelFiltered: boolean): number {
    return channelFiltered ? this.soldOfChannel : this.all - this.openWithoutGaps - this.held;
  }
}

/** A night standing for all nights of its weekday in its piece of the period. */
interface Representative {
  readonly night: LocalDate;
  /** How many nights of the piece it stands for. */
  readonly nights: number;
  readonly weekend: boolean;
}

/** The night-count columns by weekday, named once rather than per row. */
const dowColumns = Array.from({ length: 7 }, (_, weekday) => `dow_${weekday}`);

const isWeekend = (night: LocalDate) => (weekendNights as readonly number[]).includes(dayOfWeek(night));

/**
 * Per currency of the listings in scope: listed prices of the period's open nights (all, weekday, weekend)
 * and, over its sold nights, booked ADR next to the listed price of the same nights. The night counts and
 * the sold nights' revenue are read side by side, on two connections when `db` is a pool.
 */
export async function pricingStatsByCurrency(
  db: Kysely<Database>,
  scope: AnalyticsScope,
  period: AnalyticsPeriod,
  rules: readonly PricingRule[],
  now: Date,
): Promise<PricingStatsCurrency[]> {
  const pieces = pieceBounds(period, rules, now);
  const [rows, booked] = await Promise.all([
    withAnalyticsSettings(db, (trx) => nightsByPriceGroup(trx, scope, period, rules, pieces)),
    bookedNights(db, scope, period),
  ]);

  // Representatives by piece and weekday: index (piece − 1) × 7 + weekday.
  const representatives: Representative[] = [];
  const representativeAt: number[] = [];
  for (let piece = 0; piece < pieces.length - 1; piece += 1) {
    const start = pieces[piece] as LocalDate;
    for (let weekday = 0; weekday < 7; weekday += 1) {
      const nights = weekdaysBetween(start, pieces[piece + 1] as LocalDate, weekday);
      representativeAt.push(nights === 0 ? -1 : representatives.length);
      if (nights === 0) continue;
      const night = firstWeekdayFrom(start, weekday);
      representatives.push({ night, nights, weekend: isWeekend(night) });
    }
  }
  const classes = new Map<number, ListingClass>();
  for (const row of rows) if (row.row === 'class') classes.set(Number(row.class_id), row);
  const listedPrices = new ListedPrices(
    rules,
    now,
    classes.values(),
    representatives.map(({ night }) => night),
  );
  // The representative nights' prices of a class (at its base price) in a gap, computed once. Keyed by
  // class, then gap: thousands of rows look them up, and nested number keys spare building a string each time.
  const tables = new Map<number, Map<number, number[]>>();
  const pricesOf = (classId: number, gap: number): { listing: ListingClass; prices: number[] } => {
    const listing = classes.get(classId);
    if (listing === undefined) throw new Error(`listing class ${classId} is missing`);
    let byGap = tables.get(classId);
    if (byGap === undefined) {
      byGap = new Map();
      tables.set(classId, byGap);
    }
    let prices = byGap.get(gap);
    if (prices === undefined) {
      prices = listedPrices.nightPrices(listing, gap);
      byGap.set(gap, prices);
    }
    return { listing, prices };
  };
  const byCurrency = new Map<string, CurrencyListing>();
  const listingOf = (currency: string) => {
    let found = byCurrency.get(currency);
    if (found === undefined) {
      found = new CurrencyListing();
      byCurrency.set(currency, found);
    }
    return found;
  };

  for (const row of rows) {
    if (row.row === 'class') {
      // Every night of every listing of the class, at its base price.
      const { prices } = pricesOf(Number(row.class_id), 0);
      const currency = listingOf(row.currency);
      representatives.forEach(({ nights }, index) => {
        currency.all += Number(row.listings) * nights * (prices[index] as number);
      });
    } else if (row.row === 'nights') {
      const { listing, prices } = pricesOf(Number(row.class_id), 0);
      const inGap = row.kind === 'open' ? pricesOf(Number(row.class_id), Number(row.gap)).prices : prices;
      const currency = listingOf(listing.currency);
      for (let weekday = 0; weekday < 7; weekday += 1) {
        const nights = Number(row[dowColumns[weekday] as `dow_${number}`]);
        const index = representativeAt[(Number(row.piece) - 1) * 7 + weekday] as number;
        if (nights === 0 || index < 0) continue;
        currency.addSum(row.kind, nights * (prices[index] as number));
        if (row.kind === 'open') {
          currency.countOpen(
            (representatives[index] as Representative).weekend,
            inGap[index] as number,
            nights,
          );
        }
      }
    }
  }
  for (const row of rows) {
    if (row.row !== 'override') continue;
    // The night was counted above at its listing's base price; its own price replaces that.
    const { listing } = pricesOf(Number(row.class_id), 0);
    const currency = listingOf(listing.currency);
    const priced = (gap: number, startPriceMinor: number) =>
      listedPrices.price(listing, gap, startPriceMinor, row.night);
    const change = priced(0, Number(row.price_minor)) - priced(0, listing.base_price_minor);
    currency.all += change;
    if (row.kind === null) continue;
    currency.addSum(row.kind, change);
    if (row.kind === 'open') {
      const gap = Number(row.gap);
      currency.countOpen(isWeekend(row.night), priced(gap, listing.base_price_minor), -1);
      currency.countOpen(isWeekend(row.night), priced(gap, Number(row.price_minor)), 1);
    }
  }
  for (const currency of booked.keys()) listingOf(currency);

  return [...byCurrency.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([currency, listing]) => ({
      currency,
      listed: listing.open.summary(currency),
      weekday: listing.weekday.summary(currency),
      weekend: listing.weekend.summary(currency),
      booked: bookedSummary(
        booked.get(currency) ?? { nights: 0, accommodationMinor: 0 },
        listing.sold(scope.channel !== null),
        currency,
      ),
    }));
}

/** Sold nights and their accommodation revenue per currency, from the stay-night facts. */
async function bookedNights(
  db: Executor,
  scope: AnalyticsScope,
  period: AnalyticsPeriod,
): Promise<Map<string, { nights: number; accommodationMinor: number }>> {
  const { rows } = await sql<{ currency: string; nights: number; accommodation_minor: number }>`
    select currency, sum(nights)::bigint as nights, sum(accommodation_minor)::bigint as accommodation_minor
    from ${soldNightRows(scope, period)} sold
    group by currency`.execute(db);
  return new Map(
    rows.map((row) => [
      row.currency,
      { nights: Number(row.nights), accommodationMinor: Number(row.accommodation_minor) },
    ]),
  );
}
