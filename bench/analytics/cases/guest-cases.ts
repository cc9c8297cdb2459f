import type { Calendar } from '@innkeep/domain';
import { toMajorUnits, toMinorUnits } from '@innkeep/domain';
import type {
  ListingGroupSummary,
  PricingStats,
  ResponseTimeBreakdown,
  ResponseTimeStats,
  ReviewAnalytics,
  ReviewStats,
} from '@innkeep/domain/analytics';
import { groupBy } from '../baselines/group-by.ts';
import { fetchGuestWaits, type GuestWait, responseMeasures } from '../baselines/guest-waits.ts';
import { fetchSoldNights } from '../baselines/sold-nights.ts';
import { type Figures, mean2, moneyPer, ratio } from '../figures.ts';
import { addDays, isoWeekday, localDate, type NightRange } from '../local-dates.ts';
import {
  fetchListingGroups,
  fetchListings,
  fetchReservations,
  fetchReviews,
  type ListingRow,
  type ReviewRow,
} from '../raw-rows.ts';
import { type BenchContext, defaultTargetMs, type ToolCase } from '../tool-case.ts';

// Guest and pricing tools: listed prices, reviews, response times, listing groups, metric definitions.

const allListings = (context: BenchContext) => ({ ...context.period });

const categoryColumns = {
  cleanliness: 'cleanliness_rating',
  accuracy: 'accuracy_rating',
  checkIn: 'check_in_rating',
  communication: 'communication_rating',
  location: 'location_rating',
  value: 'value_rating',
} as const;

/** Reviews submitted in `range` by the listing-local date, from the reviews fetched around it. */
function reviewsInPeriod(
  reviews: readonly ReviewRow[],
  listings: readonly ListingRow[],
  range: NightRange,
): ReviewRow[] {
  const zones = new Map(listings.map((listing) => [listing.id, listing.time_zone]));
  return reviews.filter((review) => {
    const date = localDate(review.submitted_at, zones.get(review.listing_id) ?? 'UTC');
    return date >= range.startDate && date <= range.endDate;
  });
}

/** Count, mean rating and five-star share of some reviews, keyed `<prefix><figure>`. */
function ratingFigures(reviews: readonly ReviewRow[], prefix: string): Record<string, number | null> {
  const sum = reviews.reduce((total, review) => total + review.overall_rating, 0);
  const fiveStars = reviews.filter((review) => review.overall_rating === 5).length;
  return {
    [`${prefix}reviews`]: reviews.length,
    [`${prefix}meanRating`]: mean2(sum, reviews.length),
    [`${prefix}fiveStarShare`]: ratio(fiveStars, reviews.length),
  };
}

const reviewStats: ToolCase = {
  tool: 'get_review_stats',
  arguments: allListings,
  targetMs: defaultTargetMs,
  baseline: {
    run: async (context) => {
      const { period } = context;
      // Reviews from the day before the period on: those submitted in it, and any later review of a stay
      // that checked out in it (for the review rate).
      const [listings, reviews, reservations] = await Promise.all([
        fetchListings(context.db, context.accountId),
        fetchReviews(
          context.db,
          context.accountId,
          new Date(`${addDays(period.startDate, -1)}T00:00:00Z`),
          null,
        ),
        fetchReservations(context.db, context.accountId, period),
      ]);
      const inPeriod = reviewsInPeriod(reviews, listings, period);
      const figures: Record<string, number | null> = ratingFigures(inPeriod, '');
      for (let stars = 1; stars <= 5; stars += 1) {
        const count = inPeriod.filter((review) => review.overall_rating === stars).length;
        figures[`distribution.${stars}.reviews`] = count;
        figures[`distribution.${stars}.share`] = ratio(count, inPeriod.length);
      }
      for (const [category, column] of Object.entries(categoryColumns)) {
        const rated = inPeriod
          .map((review) => review[column])
          .filter((value): value is number => value !== null);
        figures[`categoryMeans.${category}`] = mean2(
          rated.reduce((total, value) => total + value, 0),
          rated.length,
        );
      }
      const zones = new Map(listings.map((listing) => [listing.id, listing.time_zone]));
      const completed = reservations.filter(
        (reservation) =>
          reservation.status === 'accepted' &&
          reservation.end_date >= period.startDate &&
          reservation.end_date <= period.endDate &&
          reservation.end_date <= localDate(context.now, zones.get(reservation.listing_id) ?? 'UTC'),
      );
      const reviewed = new Set(reviews.map((review) => review.reservation_id));
      const reviewedStays = completed.filter((reservation) => reviewed.has(reservation.id)).length;
      figures.completedStays = completed.length;
      figures.reviewedStays = reviewedStays;
      figures.reviewRate = ratio(reviewedStays, completed.length);
      const replied = inPeriod.filter((review) => review.host_response !== null);
      const timed = replied.filter((review) => review.responded_at !== null);
      const replySeconds = timed.reduce(
        (total, review) =>
          total + ((review.responded_at?.getTime() ?? 0) - review.submitted_at.getTime()) / 1000,
        0,
      );
      figures.replied = replied.length;
      figures.replyRate = ratio(replied.length, inPeriod.length);
      figures.meanReplyHours = timed.length === 0 ? null : Math.round(replySeconds / timed.length / 360) / 10;
      for (const channel of new Set(inPeriod.map((review) => review.channel))) {
        const ofChannel = inPeriod.filter((review) => review.channel === channel);
        Object.assign(figures, ratingFigures(ofChannel, `${channel}.`));
        figures[`${channel}.replyRate`] = ratio(
          ofChannel.filter((review) => review.host_response !== null).length,
          ofChannel.length,
        );
      }
      return figures;
    },
    figuresOf: (output) => {
      const result = output as ReviewStats;
      const figures: Record<string, number | null> = {
        reviews: result.reviews,
        meanRating: result.meanRating,
        fiveStarShare: result.fiveStarShare,
        completedStays: result.completedStays,
        reviewedStays: result.reviewedStays,
        reviewRate: result.reviewRate,
        replied: result.replied,
        replyRate: result.replyRate,
        meanReplyHours: result.meanReplyHours,
      };
      for (const entry of result.distribution) {
        figures[`distribution.${entry.rating}.reviews`] = entry.reviews;
        figures[`distribution.${entry.rating}.share`] = entry.share;
      }
      for (const category of Object.keys(categoryColumns) as (keyof typeof categoryColumns)[]) {
        figures[`categoryMeans.${category}`] = result.categoryMeans[category];
      }
      for (const entry of result.byChannel) {
        figures[`${entry.channel}.reviews`] = entry.reviews;
        figures[`${entry.channel}.meanRating`] = entry.meanRating;
        figures[`${entry.channel}.fiveStarShare`] = entry.fiveStarShare;
        figures[`${entry.channel}.replyRate`] = entry.replyRate;
      }
      return figures;
    },
  },
};

const rankedMinimumReviews = 3;
const rankedListingsShown = 5;

const reviewAnalytics: ToolCase = {
  tool: 'get_review_analytics',
  // Monthly trend, listings with at least 3 reviews ranked, 5 best and 5 worst, 10 newest low ratings.
  arguments: allListings,
  targetMs: defaultTargetMs,
  baseline: {
    run: async (context) => {
      const { period } = context;
      const [listings, reviews] = await Promise.all([
        fetchListings(context.db, context.accountId),
        fetchReviews(
          context.db,
          context.accountId,
          new Date(`${addDays(period.startDate, -1)}T00:00:00Z`),
          new Date(`${addDays(period.endDate, 2)}T00:00:00Z`),
        ),
      ]);
      const inPeriod = reviewsInPeriod(reviews, listings, period);
      const zones = new Map(listings.map((listing) => [listing.id, listing.time_zone]));
      const figures: Record<string, number | null> = { reviews: inPeriod.length };
      const byMonth = groupBy(inPeriod, (review) =>
        localDate(review.submitted_at, zones.get(review.listing_id) ?? 'UTC').slice(0, 7),
      );
      for (const [month, ofMonth] of byMonth)
        Object.assign(figures, ratingFigures(ofMonth, `trend.${month}.`));
      const byListing = groupBy(inPeriod, (review) => review.listing_id);
      const ranked = [...byListing.values()]
        .filter((ofListing) => ofListing.length >= rankedMinimumReviews)
        .map((ofListing) => ({
          mean: ofListing.reduce((total, review) => total + review.overall_rating, 0) / ofListing.length,
          sum: ofListing.reduce((total, review) => total + review.overall_rating, 0),
          reviews: ofListing.length,
        }));
      figures.rankedListings = ranked.length;
      const best = [...ranked]
        .sort((a, b) => b.mean - a.mean || b.reviews - a.reviews)
        .slice(0, rankedListingsShown);
      const worst = [...ranked]
        .sort((a, b) => a.mean - b.mean || b.reviews - a.reviews)
        .slice(0, rankedListingsShown);
      best.forEach((entry, index) => {
        figures[`best${index + 1}.meanRating`] = mean2(entry.sum, entry.reviews);
      });
      worst.forEach((entry, index) => {
        figures[`worst${index + 1}.meanRating`] = mean2(entry.sum, entry.reviews);
      });
      const low = inPeriod.filter((review) => review.overall_rating <= 3);
      figures.lowRatings = low.length;
      figures.unanswered = inPeriod.filter((review) => review.host_response === null).length;
      figures.unansweredLowRatings = low.filter((review) => review.host_response === null).length;
      return figures;
    },
    figuresOf: (output) => {
      const result = output as ReviewAnalytics;
      const figures: Record<string, number | null> = {
        reviews: result.reviews,
        rankedListings: result.rankedListings,
        lowRatings: result.lowRatings,
        unanswered: result.unanswered,
        unansweredLowRatings: result.unansweredLowRatings,
      };
      for (const bucket of result.trend) {
        figures[`trend.${bucket.key}.reviews`] = bucket.reviews;
        figures[`trend.${bucket.key}.meanRating`] = bucket.meanRating;
        figures[`trend.${bucket.key}.fiveStarShare`] = bucket.fiveStarShare;
      }
      result.bestListings.forEach((entry, index) => {
        figures[`best${index + 1}.meanRating`] = entry.meanRating;
      });
      result.worstListings.forEach((entry, index) => {
        figures[`worst${index + 1}.meanRating`] = entry.meanRating;
      });
      return figures;
    },
  },
};

/** The response-time measures of `measures`, keyed `<prefix><figure>`. */
function measureFigures(measures: Record<string, unknown>, prefix: string): Record<string, number | null> {
  const figures: Record<string, number | null> = {};
  for (const name of [
    'waits',
    'answered',
    'unanswered',
    'medianMinutes',
    'meanMinutes',
    'p90Minutes',
    'withinHourShare',
    'withinDayShare',
  ]) {
    const value = measures[name];
    figures[`${prefix}${name}`] = typeof value === 'number' ? value : null;
  }
  return figures;
}

/** The measures of the waits grouped by `key`, keyed `<key>.<figure>`. */
function groupedMeasures(waits: readonly GuestWait[], key: (wait: GuestWait) => string): Figures {
  const groups = groupBy(waits, key);
  const figures: Record<string, number | null> = {};
  for (const [name, ofGroup] of groups)
    Object.assign(figures, measureFigures(responseMeasures(ofGroup), `${name}.`));
  return figures;
}

const weekdayNames = ['', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

const responseTimeStats: ToolCase = {
  tool: 'get_response_time_stats',
  arguments: allListings,
  targetMs: defaultTargetMs,
  baseline: {
    run: async (context) => responseMeasures(await fetchGuestWaits(context, context.period)),
    figuresOf: (output) => measureFigures(output as ResponseTimeStats, ''),
  },
};

const responseTimeBreakdown: ToolCase = {
  tool: 'get_response_time_breakdown',
  arguments: allListings,
  targetMs: defaultTargetMs,
  baseline: {
    run: async (context) => {
      const waits = await fetchGuestWaits(context, context.period);
      return {
        ...measureFigures(responseMeasures(waits), 'overall.'),
        ...groupedMeasures(waits, (wait) => `channel.${wait.channel}`),
        ...groupedMeasures(waits, (wait) => `stage.${wait.stage}`),
        ...groupedMeasures(waits, (wait) => `hour.${wait.localHour}`),
        ...groupedMeasures(waits, (wait) => `weekday.${weekdayNames[wait.localWeekday]}`),
      };
    },
    figuresOf: (output) => {
      const result = output as ResponseTimeBreakdown;
      const figures: Record<string, number | null> = measureFigures(result.overall, 'overall.');
      for (const entry of result.byChannel)
        Object.assign(figures, measureFigures(entry, `channel.${entry.channel}.`));
      for (const entry of result.byStage) {
        if (entry.waits > 0) Object.assign(figures, measureFigures(entry, `stage.${entry.stage}.`));
      }
      for (const entry of result.byHour) {
        if (entry.waits > 0) Object.assign(figures, measureFigures(entry, `hour.${entry.hour}.`));
      }
      for (const entry of result.byWeekday) {
        if (entry.waits > 0) Object.assign(figures, measureFigures(entry, `weekday.${entry.weekday}.`));
      }
      return figures;
    },
  },
};

// The calendar reads a wrapping server makes at once: as many as the benchmark's pool has connections.
const calendarConcurrency = 10;

/** Listed prices (minor units) of some nights: count, sum, sorted prices. */
function listedFigures(
  pricesMinor: number[],
  currency: string,
  prefix: string,
): Record<string, number | null> {
  pricesMinor.sort((a, b) => a - b);
  const count = pricesMinor.length;
  const total = pricesMinor.reduce((sum, price) => sum + price, 0);
  const lower = pricesMinor[Math.floor((count + 1) / 2) - 1] ?? 0;
  const upper = pricesMinor[Math.floor(count / 2)] ?? 0;
  return {
    [`${prefix}openNights`]: count,
    [`${prefix}mean`]: moneyPer(total, count, currency),
    [`${prefix}median`]: count === 0 ? null : toMajorUnits(Math.round((lower + upper) / 2), currency),
    [`${prefix}min`]: count === 0 ? null : toMajorUnits(pricesMinor[0] ?? 0, currency),
    [`${prefix}max`]: count === 0 ? null : toMajorUnits(pricesMinor[count - 1] ?? 0, currency),
  };
}

const pricingStats: ToolCase = {
  tool: 'get_pricing_stats',
  arguments: allListings,
  targetMs: defaultTargetMs,
  baseline: {
    // Listed prices come from the calendar read (GET /getCalendar per listing: the effective price after
    // pricing rules), the way a wrapping server gets them; sold nights and their rent from the reservations.
    run: async (context) => {
      const listings = await fetchListings(context.db, context.accountId);
      const calendars: Calendar[] = [];
      for (let next = 0; next < listings.length; next += calendarConcurrency) {
        const batch = listings.slice(next, next + calendarConcurrency);
        calendars.push(
          ...(await Promise.all(
            batch.map((listing) =>
              context.domain.calendar.get(context.actor, { listingId: listing.id, ...context.period }),
            ),
          )),
        );
      }
      const soldNights = await fetchSoldNights(context, context.period);
      const listedPrice = new Map<string, number>();
      const open = new Map<string, { all: number[]; weekday: number[]; weekend: number[] }>();
      for (const calendar of calendars) {
        const tally = open.get(calendar.currency) ?? { all: [], weekday: [], weekend: [] };
        open.set(calendar.currency, tally);
        for (const day of calendar.days) {
          const priceMinor = toMinorUnits(day.price, calendar.currency);
          listedPrice.set(`${calendar.listingId}|${day.date}`, priceMinor);
          if (day.status !== 'available') continue;
          tally.all.push(priceMinor);
          const weekday = isoWeekday(day.date);
          (weekday === 5 || weekday === 6 ? tally.weekend : tally.weekday).push(priceMinor);
        }
      }
      const figures: Record<string, number | null> = {};
      for (const [currency, tally] of open) {
        Object.assign(figures, listedFigures(tally.all, currency, `${currency}.listed.`));
        Object.assign(figures, listedFigures(tally.weekday, currency, `${currency}.weekday.`));
        Object.assign(figures, listedFigures(tally.weekend, currency, `${currency}.weekend.`));
        const sold = soldNights.filter((night) => night.currency === currency);
        const rent = sold.reduce((sum, night) => sum + night.accommodation, 0);
        const listed = sold.reduce(
          (sum, night) => sum + (listedPrice.get(`${night.listingId}|${night.night}`) ?? 0),
          0,
        );
        figures[`${currency}.booked.soldNights`] = sold.length;
        figures[`${currency}.booked.adr`] = moneyPer(rent, sold.length, currency);
        figures[`${currency}.booked.listedMean`] = moneyPer(listed, sold.length, currency);
        figures[`${currency}.booked.realisation`] = sold.length === 0 ? null : ratio(rent, listed);
      }
      return figures;
    },
    figuresOf: (output) => {
      const result = output as PricingStats;
      const figures: Record<string, number | null> = {};
      for (const entry of result.currencies) {
        for (const part of ['listed', 'weekday', 'weekend'] as const) {
          const summary = entry[part];
          const prefix = `${entry.currency}.${part}.`;
          figures[`${prefix}openNights`] = summary.openNights;
          figures[`${prefix}mean`] = summary.mean;
          figures[`${prefix}median`] = summary.median;
          figures[`${prefix}min`] = summary.min;
          figures[`${prefix}max`] = summary.max;
        }
        figures[`${entry.currency}.booked.soldNights`] = entry.booked.soldNights;
        figures[`${entry.currency}.booked.adr`] = entry.booked.adr;
        figures[`${entry.currency}.booked.listedMean`] = entry.booked.listedMean;
        figures[`${entry.currency}.booked.realisation`] = entry.booked.realisation;
      }
      return figures;
    },
  },
};

const groupsListed = 20;
const membersListed = 10;

const listListingGroups: ToolCase = {
  tool: 'list_listing_groups',
  // The first page: 20 groups by name, with their sizes and their first 10 members by name.
  arguments: () => ({}),
  targetMs: defaultTargetMs,
  baseline: {
    // The page the tool returns: the groups with their member ids, and the listings to name the members.
    run: async (context) => {
      const [{ groups, members }, listings] = await Promise.all([
        fetchListingGroups(context.db, context.accountId),
        fetchListings(context.db, context.accountId),
      ]);
      const names = new Map(listings.map((listing) => [listing.id, listing.name]));
      const membersOf = new Map<string, { id: string; name: string }[]>();
      for (const member of members) {
        const list = membersOf.get(member.group_id) ?? [];
        list.push({ id: member.listing_id, name: names.get(member.listing_id) ?? '' });
        membersOf.set(member.group_id, list);
      }
      const byName = <Item extends { id: string; name: string }>(a: Item, b: Item) =>
        a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1;
      const page = [...groups].sort(byName).slice(0, groupsListed);
      const figures: Record<string, number | null> = { groups: page.length };
      page.forEach((group, index) => {
        const all = membersOf.get(group.id) ?? [];
        const named = [...all].sort(byName).slice(0, membersListed);
        figures[`rank${index + 1}.memberCount`] = all.length;
        figures[`rank${index + 1}.membersListed`] = named.length;
        figures[`rank${index + 1}.membersTruncated`] = named.length < all.length ? 1 : 0;
      });
      return figures;
    },
    figuresOf: (output) => {
      const items = (output as { items: ListingGroupSummary[] }).items;
      const figures: Record<string, number | null> = { groups: items.length };
      items.forEach((group, index) => {
        figures[`rank${index + 1}.memberCount`] = group.memberCount;
        figures[`rank${index + 1}.membersListed`] = group.members.length;
        figures[`rank${index + 1}.membersTruncated`] = group.membersTruncated ? 1 : 0;
      });
      return figures;
    },
  },
};

const metricDefinitions: ToolCase = {
  tool: 'get_metric_definitions',
  arguments: () => ({}),
  targetMs: defaultTargetMs,
  baseline: {
    none: 'it returns fixed rules and reads no account data, so there is nothing to fetch and compute.',
  },
};

/** The guest and pricing tools' cases. */
export const guestCases: readonly ToolCase[] = [
  pricingStats,
  reviewStats,
  reviewAnalytics,
  responseTimeStats,
  responseTimeBreakdown,
  listListingGroups,
  metricDefinitions,
];
