import type { PricingRule } from '@innkeep/domain';
import { dayOfWeek, type LocalDate } from '@innkeep/domain';
import type { AnalyticsPeriod } from '@innkeep/domain/analytics';
import { type PricingStatsCurrency, weekendNights } from '@innkeep/domain/analytics';
import { type Kysely, sql } from 'kysely';
import type { Database, Executor } from '../database.ts';
import { toPricingRule } from '../pricing/pricing-inputs.ts';
import { withAnalyticsSettings } from './analytics-query-settings.ts';
import type { AnalyticsScope } from './analytics-scope.ts';
import {
  firstWeekdayFrom,
  ListedPrices,
  pieceBounds,
  weekdayGroups,
  weekdaysBetween,
} from './pricing-listed-price.ts';
import {
  type ClassRow,
  countSize,
  type NightKind,
  nightKinds,
  nightsByPriceGroup,
  type OverrideRow,
} from './pricing-nights.ts';
import { bookedSummary, PriceTally } from './pricing-tallies.ts';
import { soldNightTotalRows } from './sold-nights.ts';

// Listed prices are the calendar's effective prices, from the pricing engine. Pricing a year of a large
// portfolio night by night would read hundreds of thousands of nights, so the SQL counts nights instead: by
// listing class (listings alike in currency, base and minimum price, time zone and the rules covering them),
// by piece of the period (cut wherever a rule's date range or last-minute window starts or ends, so inside a
// piece only the weekday matters) and by group of weekdays no rule or weekend split tells apart. The engine
// then prices one representative night per class, piece, weekday group and orphan-gap length. Sold nights
// are every night neither open nor held, so without a channel filter their listed prices are all nights'
// minus the open and held ones'.

/** The account's enabled pricing rules in the order the engine applies them. */
export async function loadEnabledRules(db: Executor, accountId: string): Promise<PricingRule[]> {
  const rows = await db
    .selectFrom('pricing_rules')
    .select([
      'id',
      'account_id',
      'name',
      'position',
      'enabled',
      'adjustment_kind',
      'adjustment_amount',
      'days_of_week',
      'start_date',
      'end_date',
      'last_minute_days',
      'orphan_gap_max_nights',
      'created_at',
      'updated_at',
    ])
    // As JSON: a large portfolio's rules list thousands of listing ids, which the driver's parser of text
    // arrays took some 18 ms a call to read, and JSON.parse well under one.
    .select(sql<string[] | null>`array_to_json(listing_ids)`.as('listing_ids'))
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

/** A night standing for all nights of its weekday group in its piece of the period. */
interface Representative {
  readonly night: LocalDate;
  /** How many nights of the piece it stands for. */
  readonly nights: number;
  readonly weekend: boolean;
}

const isWeekend = (night: LocalDate) => (weekendNights as readonly number[]).includes(dayOfWeek(night));

/**
 * The representative nights of the period's pieces (`pieceBounds`) and weekday groups (`weekdayGroups`), and
 * where each piece's and group's is: `representativeAt[(piece − 1) × groups + group]`, −1 where the piece has
 * no night of the group.
 */
function representativesOf(
  pieces: readonly LocalDate[],
  groups: readonly (readonly number[])[],
): { representatives: Representative[]; representativeAt: number[] } {
  const representatives: Representative[] = [];
  const representativeAt: number[] = [];
  for (let piece = 0; piece < pieces.length - 1; piece += 1) {
    const start = pieces[piece] as LocalDate;
    const end = pieces[piece + 1] as LocalDate;
    for (const weekdays of groups) {
      const nights = weekdays.reduce((sum, weekday) => sum + weekdaysBetween(start, end, weekday), 0);
      representativeAt.push(nights === 0 ? -1 : representatives.length);
      if (nights === 0) continue;
      const night = weekdays.map((weekday) => firstWeekdayFrom(start, weekday)).sort()[0] as LocalDate;
      representatives.push({ night, nights, weekend: isWeekend(night) });
    }
  }
  return { representatives, representativeAt };
}

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
  const groups = weekdayGroups(rules);
  const booked = bookedNights(db, scope, period);
  // The sold nights are read beside the night counts and awaited last: handled now, a failure of theirs
  // meanwhile is no unhandled rejection but surfaces there. (Counting the period in two halves on two
  // connections was slower on the 2,000-listing demo once its open runs came packed: the JavaScript work that
  // each half repeated outweighed the statements running side by side.)
  booked.catch(() => undefined);
  const rows = await withAnalyticsSettings(db, (trx) =>
    nightsByPriceGroup(trx, scope, period, rules, pieces, groups),
  );

  const { representatives, representativeAt } = representativesOf(pieces, groups);
  // Classes are numbered from 1.
  const classes: ClassRow[] = [];
  for (const row of rows) if (row.row === 'class') classes[Number(row.class_id) - 1] = row;
  const listedPrices = new ListedPrices(
    rules,
    now,
    classes,
    representatives.map(({ night }) => night),
  );
  const byCurrency = new Map<string, CurrencyListing>();
  const listingOf = (currency: string) => {
    let found = byCurrency.get(currency);
    if (found === undefined) {
      found = new CurrencyListing();
      byCurrency.set(currency, found);
    }
    return found;
  };
  // Each class's currency and its representative nights' listed prices by orphan-gap length (0: in none),
  // those of a gap priced once the class has open nights in one.
  const priced = classes.map((listing) => {
    const currency = listingOf(listing.currency);
    const inGap = [listedPrices.nightPrices(listing, 0)];
    representatives.forEach((representative, index) => {
      // Every night of every listing of the class, at its base price.
      currency.all += listing.listings * representative.nights * (inGap[0]?.[index] as number);
    });
    return { listing, currency, inGap };
  });
  const overrides: OverrideRow[] = [];
  const size = countSize(groups.length);
  // Every class's nights, keeping those with a per-date price for after.
  for (const row of rows) {
    if (row.row === 'override') {
      overrides.push(row);
      continue;
    }
    const { listing, currency, inGap } = priced[Number(row.class_id) - 1] as (typeof priced)[number];
    const base = inGap[0] as number[];
    const { counts } = row;
    for (let at = 0; at < counts.length; at += size) {
      const kind = nightKinds[counts[at] as number] as NightKind;
      const gap = counts[at + 1] as number;
      let prices = base;
      if (kind === 'open' && gap > 0) {
        prices = inGap[gap] ?? listedPrices.nightPrices(listing, gap);
        inGap[gap] = prices;
      }
      const first = ((counts[at + 2] as number) - 1) * groups.length;
      // The first group's nights are what the others leave.
      let rest = counts[at + 3] as number;
      for (let group = groups.length - 1; group >= 0; group -= 1) {
        const nights = group === 0 ? rest : (counts[at + 3 + group] as number);
        rest -= nights;
        const index = representativeAt[first + group] as number;
        if (nights === 0 || index < 0) continue;
        currency.addSum(kind, nights * (base[index] as number));
        if (kind === 'open') {
          currency.countOpen(
            (representatives[index] as Representative).weekend,
            prices[index] as number,
            nights,
          );
        }
      }
    }
  }
  for (const row of overrides) {
    // The night was counted above at its listing's base price; its own price replaces that.
    const listing = classes[Number(row.class_id) - 1] as ClassRow;
    const currency = listingOf(listing.currency);
    const pricedAt = (gap: number, startPriceMinor: number) =>
      listedPrices.price(listing, gap, startPriceMinor, row.night);
    const change = pricedAt(0, Number(row.price_minor)) - pricedAt(0, listing.base_price_minor);
    currency.all += change;
    if (row.kind === null) continue;
    currency.addSum(row.kind, change);
    if (row.kind === 'open') {
      const gap = Number(row.gap);
      currency.countOpen(isWeekend(row.night), pricedAt(gap, listing.base_price_minor), -1);
      currency.countOpen(isWeekend(row.night), pricedAt(gap, Number(row.price_minor)), 1);
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
    from ${soldNightTotalRows(scope, period)} sold
    group by currency`.execute(db);
  return new Map(
    rows.map((row) => [
      row.currency,
      { nights: Number(row.nights), accommodationMinor: Number(row.accommodation_minor) },
    ]),
  );
}
