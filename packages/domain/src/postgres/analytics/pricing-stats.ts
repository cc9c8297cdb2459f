import { type Kysely, sql } from 'kysely';
import type { AnalyticsPeriod } from '../../analytics/analytics-period.ts';
import { type PricingStatsCurrency, weekendNights } from '../../analytics/pricing-stats.ts';
import { addDays, dayOfWeek, daysBetween, type LocalDate } from '../../core/dates.ts';
import type { PricingRule } from '../../pricing/pricing.ts';
import type { Database, Executor } from '../database.ts';
import { toPricingRule } from '../pricing/pricing-inputs.ts';
import { withAnalyticsSettings } from './analytics-query-settings.ts';
import type { AnalyticsScope } from './analytics-scope.ts';
import {
  firstWeekdayFrom,
  ListedPrices,
  type ListingClass,
  pieceBounds,
  weekdaysBetween,
} from './pricing-listed-price.ts';
import {
  type ClassRow,
  type NightKind,
  nightsByPriceGroup,
  type OverrideRow,
  type PriceGroupRow,
} from './pricing-nights.ts';
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

/**
 * The period in two halves, cut at the piece bound nearest its middle (so each piece lies in one half), or
 * whole when it is one piece. Finding a year of a large portfolio's open runs is most of the work; counted
 * by halves on two connections, the database server does both at once.
 */
function halvesOf(
  period: AnalyticsPeriod,
  pieces: readonly LocalDate[],
): [AnalyticsPeriod, ...AnalyticsPeriod[]] {
  const middle = addDays(period.startDate, Math.floor(daysBetween(period.startDate, period.endDate) / 2));
  const distance = (bound: LocalDate) => Math.abs(daysBetween(middle, bound));
  const cut = pieces
    .slice(1, -1)
    .reduce<LocalDate | null>(
      (best, bound) => (best === null || distance(bound) < distance(best) ? bound : best),
      null,
    );
  if (cut === null) return [period];
  return [
    { startDate: period.startDate, endDate: addDays(cut, -1) },
    { startDate: cut, endDate: period.endDate },
  ];
}

/**
 * Promises of the results of `promises` in the order they settle: the first settles with whichever settles
 * first, and so on. Each is handled from the start, so one failing while another is awaited is no unhandled
 * rejection; the failure surfaces where its turn is awaited.
 */
function inOrderOfArrival<T>(promises: readonly Promise<T>[]): Promise<T>[] {
  const settlers: { resolve: (value: T) => void; reject: (error: unknown) => void }[] = [];
  const ordered = promises.map(() => new Promise<T>((resolve, reject) => settlers.push({ resolve, reject })));
  let arrived = 0;
  for (const promise of promises) {
    promise.then(
      (value) => settlers[arrived++]?.resolve(value),
      (error: unknown) => settlers[arrived++]?.reject(error),
    );
  }
  for (const turn of ordered) turn.catch(() => undefined);
  return ordered;
}

/** A night standing for all nights of its weekday in its piece of the period. */
interface Representative {
  readonly night: LocalDate;
  /** How many nights of the piece it stands for. */
  readonly nights: number;
  readonly weekend: boolean;
}

const isWeekend = (night: LocalDate) => (weekendNights as readonly number[]).includes(dayOfWeek(night));

/**
 * Per currency of the listings in scope: listed prices of the period's open nights (all, weekday, weekend)
 * and, over its sold nights, booked ADR next to the listed price of the same nights. The night counts and
 * the sold nights' revenue are read side by side, on several connections when `db` is a pool.
 */
export async function pricingStatsByCurrency(
  db: Kysely<Database>,
  scope: AnalyticsScope,
  period: AnalyticsPeriod,
  rules: readonly PricingRule[],
  now: Date,
): Promise<PricingStatsCurrency[]> {
  const pieces = pieceBounds(period, rules, now);
  const booked = bookedNights(db, scope, period);
  const [first, ...later] = inOrderOfArrival(
    halvesOf(period, pieces).map((half) =>
      withAnalyticsSettings(db, (trx) => nightsByPriceGroup(trx, scope, half, rules, pieces)),
    ),
  ) as [Promise<PriceGroupRow[]>, ...Promise<PriceGroupRow[]>[]];
  // Whichever half is read first is priced and counted while the other is still read. The sold nights are
  // awaited last: handled now, a failure of theirs meanwhile is no unhandled rejection but surfaces there.
  booked.catch(() => undefined);
  const firstRows = await first;

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
  // Every half lists every class.
  const classes = new Map<number, ClassRow>();
  for (const row of firstRows) if (row.row === 'class') classes.set(Number(row.class_id), row);
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

  for (const [classId, row] of classes) {
    const { prices } = pricesOf(classId, 0);
    const currency = listingOf(row.currency);
    // Every night of every listing of the class, at its base price.
    representatives.forEach(({ nights }, index) => {
      currency.all += Number(row.listings) * nights * (prices[index] as number);
    });
  }
  const overrides: OverrideRow[] = [];
  /** Adds up one half's nights of every class, keeping its nights with a per-date price for after all halves. */
  const countHalf = (rows: readonly PriceGroupRow[]) => {
    for (const row of rows) {
      if (row.row === 'override') {
        overrides.push(row);
        continue;
      }
      const classId = Number(row.class_id);
      const { prices } = pricesOf(classId, 0);
      const currency = listingOf(row.currency);
      for (const count of row.counts ?? []) {
        const [kind, gap, piece] = count;
        const inGap = kind === 'open' ? pricesOf(classId, gap).prices : prices;
        for (let weekday = 0; weekday < 7; weekday += 1) {
          const nights = count[3 + weekday] as number;
          const index = representativeAt[(piece - 1) * 7 + weekday] as number;
          if (nights === 0 || index < 0) continue;
          currency.addSum(kind, nights * (prices[index] as number));
          if (kind === 'open') {
            const { weekend } = representatives[index] as Representative;
            currency.countOpen(weekend, inGap[index] as number, nights);
          }
        }
      }
    }
  };
  countHalf(firstRows);
  for (const half of later) countHalf(await half);
  for (const row of overrides) {
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
  const bookedByCurrency = await booked;
  for (const currency of bookedByCurrency.keys()) listingOf(currency);

  return [...byCurrency.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([currency, listing]) => ({
      currency,
      listed: listing.open.summary(currency),
      weekday: listing.weekday.summary(currency),
      weekend: listing.weekend.summary(currency),
      booked: bookedSummary(
        bookedByCurrency.get(currency) ?? { nights: 0, accommodationMinor: 0 },
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
