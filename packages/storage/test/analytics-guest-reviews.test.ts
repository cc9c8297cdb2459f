import { describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../src/testing.ts';
import { useGuestWorld } from './support/analytics-guest-world.ts';

const march = { startDate: '2026-03-01', endDate: '2026-03-31' };

describe.each(testDatabaseKinds)('review analytics on %s', (kind) => {
  const world = useGuestWorld(kind);

  it('counts March’s reviews by their listing-local date, with ratings, categories, replies and review rate', async () => {
    const stats = await world.domain.analytics.getReviewStats(world.fixture.account.owner, march);
    // March by local date: r6 (UTC Feb 28, Berlin Mar 1), r1, r5, r2, r3 (UTC Apr 1, Boston Mar 31); not r4.
    // Ratings 5, 5, 3, 4, 2: mean 19 / 5 = 3.8; five stars 2 / 5.
    // Categories: cleanliness (5 + 3 + 1) / 3 = 3; accuracy (5 + 4) / 2 = 4.5; check-in 5; communication 5;
    // location (5 + 4 + 5) / 3 = 4.67; value 5.
    // Replies: r1 after 6 h, r5 after 48 h: rate 2 / 5, mean 27 h.
    // Completed stays checked out in March up to 03-16: s1, s2, s20 (Berlin), s7 (Boston); reviewed s1, s2, s7.
    expect(stats).toEqual({
      meta: expect.objectContaining({
        basis: 'review_date',
        listings: 4,
        definitions: expect.arrayContaining(['review_stats']),
      }),
      reviews: 5,
      meanRating: 3.8,
      distribution: [
        { rating: 1, reviews: 0, share: 0 },
        { rating: 2, reviews: 1, share: 0.2 },
        { rating: 3, reviews: 1, share: 0.2 },
        { rating: 4, reviews: 1, share: 0.2 },
        { rating: 5, reviews: 2, share: 0.4 },
      ],
      fiveStarShare: 0.4,
      categoryMeans: {
        cleanliness: 3,
        accuracy: 4.5,
        checkIn: 5,
        communication: 5,
        location: 4.67,
        value: 5,
        nullReasons: {},
      },
      completedStays: 4,
      reviewedStays: 3,
      reviewRate: 0.75,
      replied: 2,
      replyRate: 0.4,
      meanReplyHours: 27,
      byChannel: [
        { channel: 'airbnb', reviews: 1, meanRating: 5, fiveStarShare: 1, replyRate: 1, nullReasons: {} },
        { channel: 'booking', reviews: 1, meanRating: 3, fiveStarShare: 0, replyRate: 1, nullReasons: {} },
        { channel: 'direct', reviews: 2, meanRating: 3, fiveStarShare: 0, replyRate: 0, nullReasons: {} },
        { channel: 'vrbo', reviews: 1, meanRating: 5, fiveStarShare: 1, replyRate: 0, nullReasons: {} },
      ],
      nullReasons: {},
    });
  });

  it('applies the channel to reviews and to the stays of the review rate', async () => {
    const stats = await world.domain.analytics.getReviewStats(world.fixture.account.owner, {
      ...march,
      channel: 'direct',
    });
    // Direct: r2 (4) and r3 (2); completed direct stays s2 and s7, both reviewed.
    expect(stats).toMatchObject({
      reviews: 2,
      meanRating: 3,
      completedStays: 2,
      reviewedStays: 2,
      reviewRate: 1,
    });
  });

  it('gives nulls with reasons for a period without reviews or stays', async () => {
    const stats = await world.domain.analytics.getReviewStats(world.fixture.account.owner, {
      startDate: '2026-06-01',
      endDate: '2026-06-30',
    });
    expect(stats).toMatchObject({
      reviews: 0,
      meanRating: null,
      fiveStarShare: null,
      reviewRate: null,
      replyRate: null,
      meanReplyHours: null,
      byChannel: [],
      nullReasons: {
        meanRating: 'no_reviews',
        distribution: 'no_reviews',
        fiveStarShare: 'no_reviews',
        replyRate: 'no_reviews',
        meanReplyHours: 'no_reviews',
        reviewRate: 'no_completed_stays',
      },
    });
    expect(stats.categoryMeans.nullReasons).toEqual({
      cleanliness: 'no_reviews',
      accuracy: 'no_reviews',
      checkIn: 'no_reviews',
      communication: 'no_reviews',
      location: 'no_reviews',
      value: 'no_reviews',
    });
  });

  it('trends by week, ranks listings, finds the weakest category and the newest low ratings', async () => {
    const analytics = await world.domain.analytics.getReviewAnalytics(world.fixture.account.owner, {
      ...march,
      granularity: 'week',
      minReviews: 1,
      listingLimit: 2,
      lowRatingLimit: 1,
    });
    // Weeks (Mondays): 02-23 holds Mar 1 only (r6, 5★); 03-02: r1 (5★); 03-09: r5 (3★, Mar 10) and r2 (4★,
    // Mar 14 local); 03-16 and 03-23: none; 03-30 holds Mar 30–31 only: r3 (2★).
    expect(analytics.trend).toEqual([
      {
        key: '2026-02-23',
        startDate: '2026-03-01',
        endDate: '2026-03-01',
        partial: true,
        reviews: 1,
        meanRating: 5,
        fiveStarShare: 1,
        nullReasons: {},
      },
      {
        key: '2026-03-02',
        startDate: '2026-03-02',
        endDate: '2026-03-08',
        partial: false,
        reviews: 1,
        meanRating: 5,
        fiveStarShare: 1,
        nullReasons: {},
      },
      {
        key: '2026-03-09',
        startDate: '2026-03-09',
        endDate: '2026-03-15',
        partial: false,
        reviews: 2,
        meanRating: 3.5,
        fiveStarShare: 0,
        nullReasons: {},
      },
      {
        key: '2026-03-16',
        startDate: '2026-03-16',
        endDate: '2026-03-22',
        partial: false,
        reviews: 0,
        meanRating: null,
        fiveStarShare: null,
        nullReasons: { meanRating: 'no_reviews', fiveStarShare: 'no_reviews' },
      },
      {
        key: '2026-03-23',
        startDate: '2026-03-23',
        endDate: '2026-03-29',
        partial: false,
        reviews: 0,
        meanRating: null,
        fiveStarShare: null,
        nullReasons: { meanRating: 'no_reviews', fiveStarShare: 'no_reviews' },
      },
      {
        key: '2026-03-30',
        startDate: '2026-03-30',
        endDate: '2026-03-31',
        partial: true,
        reviews: 1,
        meanRating: 2,
        fiveStarShare: 0,
        nullReasons: {},
      },
    ]);
    // Cleanliness has the lowest mean: (5 + 3 + 1) / 3 = 3.
    expect(analytics.lowestCategory).toEqual({ category: 'cleanliness', mean: 3, ratings: 3 });
    // Berlin: r6 5, r1 5, r2 4 → 4.67 (cleanliness (5 + 3) / 2 = 4 its weakest); Cabin: r5 3 (no categories);
    // Boston: r3 2 (cleanliness 1).
    const berlin = {
      listingId: world.fixture.listings.berlin,
      listingName: 'Berlin Loft',
      reviews: 3,
      meanRating: 4.67,
      fiveStarShare: 0.6667,
      lowestCategory: { category: 'cleanliness', mean: 4, ratings: 2 },
    };
    const cabin = {
      listingId: world.fixture.listings.cabin,
      listingName: 'Owner Cabin',
      reviews: 1,
      meanRating: 3,
      fiveStarShare: 0,
      lowestCategory: null,
    };
    const boston = {
      listingId: world.fixture.listings.boston,
      listingName: 'Boston House',
      reviews: 1,
      meanRating: 2,
      fiveStarShare: 0,
      lowestCategory: { category: 'cleanliness', mean: 1, ratings: 1 },
    };
    expect(analytics.rankedListings).toBe(3);
    expect(analytics.bestListings).toEqual([berlin, cabin]);
    expect(analytics.worstListings).toEqual([boston, cabin]);
    // Low ratings (3★ or fewer): r3 and r5; the newest is r3, submitted 04-01 02:00 UTC (03-31 in Boston).
    expect(analytics.lowRatings).toBe(2);
    expect(analytics.recentLowRatings).toEqual([
      {
        reviewId: world.fixture.reviews.r3,
        listingId: world.fixture.listings.boston,
        listingName: 'Boston House',
        channel: 'direct',
        rating: 2,
        submittedAt: '2026-04-01T02:00:00.000Z',
        localDate: '2026-03-31',
        answered: false,
      },
    ]);
    expect(analytics.lowRatingsTruncated).toBe(true);
    // Unanswered: r6, r2, r3; of the low ratings only r3 (r5 was answered).
    expect(analytics).toMatchObject({ reviews: 5, unanswered: 3, unansweredLowRatings: 1 });
    expect(analytics.meta.notes.join(' ')).toMatch(/newest 1 of 2 low ratings/);
  });

  it('ranks only listings with enough reviews, by month by default', async () => {
    const analytics = await world.domain.analytics.getReviewAnalytics(world.fixture.account.owner, {
      ...march,
      minReviews: 2,
    });
    expect(analytics.trend).toEqual([
      {
        key: '2026-03',
        startDate: '2026-03-01',
        endDate: '2026-03-31',
        partial: false,
        reviews: 5,
        meanRating: 3.8,
        fiveStarShare: 0.4,
        nullReasons: {},
      },
    ]);
    expect(analytics.rankedListings).toBe(1);
    expect(analytics.bestListings.map((listing) => listing.listingId)).toEqual([
      world.fixture.listings.berlin,
    ]);
    expect(analytics.worstListings.map((listing) => listing.listingId)).toEqual([
      world.fixture.listings.berlin,
    ]);
    await expect(
      world.domain.analytics.getReviewAnalytics(world.fixture.account.owner, {
        ...march,
        listingGroupId: 'grp_unknown',
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      world.domain.analytics.getReviewAnalytics(world.fixture.account.owner, { ...march, minReviews: 0 }),
    ).rejects.toMatchObject({ code: 'invalid_argument' });
  });
});
