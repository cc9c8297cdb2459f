import { addDays, daysBetween, toMajorUnits } from '@innkeep/domain';
import type { AnalyticsPeriod, GapAnalysis, gapAnalysisInputSchema } from '@innkeep/domain/analytics';
import type { z } from 'zod';
import type { Executor } from '../database.ts';
import { type AnalyticsScope, analyticsMeta } from './analytics-scope.ts';
import { forEachPackedGap, gapEpoch } from './calendar-gap-packs.ts';
import {
  type ListingGapsRow,
  type NightSpan,
  readListingGaps,
  readPricedDays,
  readStartDayMinStays,
} from './gap-reads.ts';

type GapInput = z.output<typeof gapAnalysisInputSchema>;

/** Default number of gaps listed. */
const defaultListedGaps = 20;

/** A currency's totals on one side of the listings' today. */
interface SideTotals {
  gaps: number;
  nights: number;
  orphanGaps: number;
  orphanNights: number;
  orphanValue: number;
}

const noTotals = (): SideTotals => ({ gaps: 0, nights: 0, orphanGaps: 0, orphanNights: 0, orphanValue: 0 });

/**
 * get_gap_analysis: runs of open nights (held by no accepted or pending reservation and no block) between two
 * held nights of the same listing that touch the period. Each gap is found whole, as `calendar_gaps` keeps it
 * (the runs between consecutive holds, rebuilt by triggers with every hold write). A gap is orphan
 * when shorter than the minimum stay of its first night (the date's own, else the listing's) or, when asked,
 * at most `maxGapNights` long. Orphan nights are valued at the listed price — the date's price, else the
 * base price, never below the listing's minimum price; pricing rules are not applied. Nights before the
 * listing's today are lost, the others still sellable.
 *
 * The gaps arrive packed, a row a listing (see {@link readListingGaps}): a year of a large portfolio is some
 * fifty thousand gaps, which as a row each cost the database more to read and add up than they cost here.
 * Calendar days are looked up only for listings that have some up to the period's end: the minimum stay of
 * their gaps' first nights, and the prices inside their orphan gaps; the listed gaps' values read the prices
 * of their nights.
 */
export async function gapAnalysis(
  db: Executor,
  scope: AnalyticsScope,
  input: GapInput,
  now: Date,
): Promise<GapAnalysis> {
  const period: AnalyticsPeriod = { startDate: input.startDate, endDate: input.endDate };
  const limit = input.limit ?? defaultListedGaps;
  const maxGapNights = input.maxGapNights ?? 0;
  const periodFirst = daysBetween(gapEpoch, period.startDate);
  const periodAfter = daysBetween(gapEpoch, period.endDate) + 1;
  const listings = await readListingGaps(db, scope, period, now);

  const tally = new GapTally(periodFirst, periodAfter, input.orphansOnly === true);
  const listed = new TopGaps(limit, input.order === 'longest');
  // Gaps of listings with calendar days wait for their first nights' minimum stays; the others count now.
  const waiting: { listing: ListingFacts; start: number; end: number }[] = [];
  const count = (listing: ListingFacts, start: number, end: number, minStay: number) => {
    const orphan = end - start < minStay || end - start <= maxGapNights;
    if (tally.add(listing, start, end, orphan)) listed.offer({ listing, start, end, minStay, orphan });
  };
  for (const row of listings) {
    const listing = tally.listing(row);
    forEachPackedGap(row.gaps, (start, end) => {
      if (start >= periodAfter || end <= periodFirst) return;
      if (row.has_calendar_days) waiting.push({ listing, start, end });
      else count(listing, start, end, row.min_nights);
    });
  }
  const minStays = await readStartDayMinStays(db, {
    listingIds: waiting.map((gap) => gap.listing.row.id),
    days: waiting.map((gap) => gap.start),
  });
  for (const { listing, start, end } of waiting) {
    const minStay = minStays.get(`${listing.row.id} ${start}`) ?? listing.row.min_nights;
    count(listing, start, end, minStay);
  }
  const { totals, orphanSpans } = tally;

  // The orphan nights whose calendar day sets a price count at that price instead of the default.
  for (const day of await readPricedDays(db, orphanSpans)) {
    const { listing } = orphanSpans[day.span] as (typeof orphanSpans)[number];
    const side = day.day < listing.today ? listing.totals.past : listing.totals.future;
    side.orphanValue += Math.max(day.price_minor, listing.row.min_price_minor ?? 0) - listing.defaultPrice;
  }

  const gapRows = listed.gaps();
  // Every night of a listed gap at its listing's default price, then its priced calendar days instead.
  const listedValues = gapRows.map((gap) => (gap.end - gap.start) * gap.listing.defaultPrice);
  const spans = gapRows.map((gap) => ({ listingId: gap.listing.row.id, first: gap.start, after: gap.end }));
  for (const day of await readPricedDays(db, spans)) {
    const { listing } = gapRows[day.span] as ListedGap;
    listedValues[day.span] =
      (listedValues[day.span] as number) +
      Math.max(day.price_minor, listing.row.min_price_minor ?? 0) -
      listing.defaultPrice;
  }

  const currencies = [...totals.keys()].sort();
  const sideTotals = (side: 'past' | 'future'): GapAnalysis['past'] => {
    const sum = (figure: keyof SideTotals) =>
      currencies.reduce((total, currency) => total + (totals.get(currency)?.[side][figure] ?? 0), 0);
    return {
      gaps: sum('gaps'),
      nights: sum('nights'),
      orphanGaps: sum('orphanGaps'),
      orphanNights: sum('orphanNights'),
      orphanValue: currencies.flatMap((currency) => {
        const figures = totals.get(currency)?.[side];
        return figures === undefined || figures.orphanNights === 0
          ? []
          : [{ currency, amount: toMajorUnits(figures.orphanValue, currency) }];
      }),
    };
  };
  const matching = [...totals.values()].reduce((total, currency) => total + currency.matching, 0);
  const notes = [
    'A gap is found whole even when it starts before or ends after the period; the totals count only its ' +
      'nights inside the period, split at each listing’s today.',
  ];
  if (scope.channel !== null)
    notes.push('Gaps are calendar-wide: the channel filter does not apply to them.');
  if (matching > gapRows.length) {
    notes.push(
      `Listed ${gapRows.length} of ${matching} gaps; raise limit, set orphansOnly or narrow the period.`,
    );
  }

  return {
    meta: analyticsMeta(scope, period, {
      basis: 'calendar_date',
      definitions: ['gap_analysis', 'local_dates', 'currency_policy'],
      currencies,
      notes,
    }),
    past: sideTotals('past'),
    future: sideTotals('future'),
    gaps: gapRows.map((gap, index) => {
      const { row, today } = gap.listing;
      return {
        listingId: row.id,
        listingName: row.name,
        startDate: addDays(gapEpoch, gap.start),
        endDate: addDays(gapEpoch, gap.end),
        nights: gap.end - gap.start,
        minStay: gap.minStay,
        orphan: gap.orphan,
        timing: gap.end <= today ? 'past' : gap.start >= today ? 'future' : 'current',
        listedValue: {
          currency: row.currency,
          amount: toMajorUnits(listedValues[index] as number, row.currency),
        },
      };
    }),
    truncated: matching > gapRows.length,
  };
}

/** A listing's row with what its gaps need, worked out once: today as a day number, its default price. */
interface ListingFacts {
  readonly row: ListingGapsRow;
  /** The listing's local today, as a day number from {@link gapEpoch}. */
  readonly today: number;
  /** A night's listed price without a price of its own: the base price, at least the minimum price. */
  readonly defaultPrice: number;
  /** Its currency's totals. */
  readonly totals: CurrencyTotals;
}

/** One currency's totals on either side of the listings' today, and how many gaps may be listed. */
interface CurrencyTotals {
  readonly past: SideTotals;
  readonly future: SideTotals;
  matching: number;
}

/**
 * Adds gaps up by currency: each gap's nights inside the period, split at its listing's today, and its orphan
 * nights. Keeps the orphan gaps' nights in the period of listings with calendar days, whose prices may differ
 * from the default.
 */
class GapTally {
  readonly totals = new Map<string, CurrencyTotals>();
  readonly orphanSpans: (NightSpan & { readonly listing: ListingFacts })[] = [];

  readonly #periodFirst: number;
  readonly #periodAfter: number;
  readonly #orphansOnly: boolean;

  constructor(periodFirst: number, periodAfter: number, orphansOnly: boolean) {
    this.#periodFirst = periodFirst;
    this.#periodAfter = periodAfter;
    this.#orphansOnly = orphansOnly;
  }

  listing(row: ListingGapsRow): ListingFacts {
    let totals = this.totals.get(row.currency);
    if (totals === undefined) {
      totals = { past: noTotals(), future: noTotals(), matching: 0 };
      this.totals.set(row.currency, totals);
    }
    return {
      row,
      today: daysBetween(gapEpoch, row.today),
      defaultPrice: Math.max(row.base_price_minor, row.min_price_minor ?? 0),
      totals,
    };
  }

  /** Counts a gap touching the period; true when it may be listed. */
  add(listing: ListingFacts, start: number, end: number, orphan: boolean): boolean {
    const first = Math.max(start, this.#periodFirst);
    const after = Math.min(end, this.#periodAfter);
    const past = Math.max(Math.min(after, listing.today) - first, 0);
    this.#side(listing.totals.past, past, orphan, listing.defaultPrice);
    this.#side(listing.totals.future, after - first - past, orphan, listing.defaultPrice);
    if (orphan && listing.row.has_calendar_days) {
      this.orphanSpans.push({ listing, listingId: listing.row.id, first, after });
    }
    const listable = !this.#orphansOnly || orphan;
    if (listable) listing.totals.matching += 1;
    return listable;
  }

  #side(side: SideTotals, nights: number, orphan: boolean, defaultPrice: number): void {
    if (nights === 0) return;
    side.gaps += 1;
    side.nights += nights;
    if (!orphan) return;
    side.orphanGaps += 1;
    side.orphanNights += nights;
    side.orphanValue += nights * defaultPrice;
  }
}

/** A gap kept for the list. */
interface ListedGap {
  readonly listing: ListingFacts;
  readonly start: number;
  readonly end: number;
  readonly minStay: number;
  readonly orphan: boolean;
}

/**
 * The first `limit` gaps offered, soonest (first night, then most nights, then listing id) or longest (most
 * nights, then first night, then listing id) first, kept in order as they are offered: most offers lose to
 * the last kept after one comparison, where sorting every gap of a large portfolio would
 * cost a sort.
 */
class TopGaps {
  readonly #kept: ListedGap[] = [];
  readonly #limit: number;
  readonly #longest: boolean;

  constructor(limit: number, longest: boolean) {
    this.#limit = limit;
    this.#longest = longest;
  }

  offer(gap: ListedGap): void {
    const kept = this.#kept;
    const last = kept[kept.length - 1];
    if (last !== undefined && kept.length === this.#limit && !this.#before(gap, last)) return;
    let at = kept.length;
    while (at > 0 && this.#before(gap, kept[at - 1] as ListedGap)) at -= 1;
    kept.splice(at, 0, gap);
    if (kept.length > this.#limit) kept.pop();
  }

  gaps(): readonly ListedGap[] {
    return this.#kept;
  }

  #before(gap: ListedGap, other: ListedGap): boolean {
    const nights = gap.end - gap.start - (other.end - other.start);
    if (this.#longest && nights !== 0) return nights > 0;
    if (gap.start !== other.start) return gap.start < other.start;
    if (nights !== 0) return nights > 0;
    return gap.listing.row.id < other.listing.row.id;
  }
}
