import { type Actor, addDays, parseInput } from '@innkeep/domain';
import {
  getAdrStatsOperation,
  getBookingPatternStatsOperation,
  getCancellationStatsOperation,
  getChannelPerformanceOperation,
  getCheckInsCheckOutsOperation,
  getGapAnalysisOperation,
  getHeadlineKpisOperation,
  getListingBreakdownStatsOperation,
  getMetricDefinitionsOperation,
  getOccupancyStatsOperation,
  getPaceStatsOperation,
  getPricingStatsOperation,
  getReservationStatusStatsOperation,
  getResponseTimeBreakdownOperation,
  getResponseTimeStatsOperation,
  getRevenueStatsOperation,
  getReviewAnalyticsOperation,
  getReviewStatsOperation,
  getRevparStatsOperation,
  getTimeseriesStatsOperation,
  getTurnoverStatsOperation,
  getUpcomingReservationsOperation,
  type Operation,
} from '@innkeep/operations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOf, expectError, ownerActor } from './support/rest-expectations.ts';
import {
  authTokenOf,
  bearerTokenOf,
  callApi,
  demoUsers,
  demoViewer,
  openRestWorld,
  type RestWorld,
  type RunningRestApp,
  startRestApp,
} from './support/rest-world.ts';

// Innkeep's Analytics routes: each answers what its MCP tool answers, from query parameters.

// Four weeks of the demo's history, and four weeks of its booked future.
const today = new Date().toISOString().slice(0, 10);
const past = `startDate=${addDays(today, -120)}&endDate=${addDays(today, -93)}`;
const future = `startDate=${addDays(today, 10)}&endDate=${addDays(today, 37)}`;
const pastYear = `startDate=${addDays(today, -400)}&endDate=${addDays(today, -36)}`;

/** What a happy-path query may name: two of the demo's listings and one of its groups. */
interface Scope {
  readonly listingIds: string;
  readonly groupId: string;
}

/** Every analytics route with a query using the options it has beyond the period. */
const routeCases: readonly { path: string; operation: Operation; query: (scope: Scope) => string }[] = [
  {
    path: '/getHeadlineKpis',
    operation: getHeadlineKpisOperation,
    query: () => `${past}&compareTo=previous_period`,
  },
  {
    path: '/getOccupancyStats',
    operation: getOccupancyStatsOperation,
    query: ({ groupId }) => `${past}&listingGroupId=${groupId}&compareTo=same_period_last_year`,
  },
  {
    path: '/getRevenueStats',
    operation: getRevenueStatsOperation,
    query: () => `${past}&channel=airbnb&compareTo=previous_period,same_period_last_year`,
  },
  { path: '/getAdrStats', operation: getAdrStatsOperation, query: () => `${past}&revenueBasis=total` },
  { path: '/getRevparStats', operation: getRevparStatsOperation, query: () => `${past}&revenueBasis=net` },
  {
    path: '/getTimeseriesStats',
    operation: getTimeseriesStatsOperation,
    query: () => `${past}&granularity=week&metrics=occupancy,adr&compareToLastYear=true`,
  },
  {
    path: '/getListingBreakdownStats',
    operation: getListingBreakdownStatsOperation,
    query: () => `${past}&by=listing&sortBy=adr&order=asc&limit=5`,
  },
  { path: '/getChannelPerformance', operation: getChannelPerformanceOperation, query: () => past },
  { path: '/getPaceStats', operation: getPaceStatsOperation, query: () => `${future}&pickupDays=1,7` },
  {
    path: '/getBookingPatternStats',
    operation: getBookingPatternStatsOperation,
    query: ({ listingIds }) => `${past}&listingIds=${listingIds}`,
  },
  {
    path: '/getCancellationStats',
    operation: getCancellationStatsOperation,
    query: () => `${past}&cohort=booked`,
  },
  { path: '/getReservationStatusStats', operation: getReservationStatusStatsOperation, query: () => past },
  {
    path: '/getCheckInsCheckOuts',
    operation: getCheckInsCheckOutsOperation,
    query: () => `${future}&granularity=week&listReservations=true`,
  },
  {
    path: '/getTurnoverStats',
    operation: getTurnoverStatsOperation,
    query: () => `${past}&includeOwnerStays=true`,
  },
  {
    path: '/getGapAnalysis',
    operation: getGapAnalysisOperation,
    query: () => `${future}&maxGapNights=3&order=longest&limit=5`,
  },
  {
    path: '/getUpcomingReservations',
    operation: getUpcomingReservationsOperation,
    query: () => 'withinDays=14&limit=3',
  },
  { path: '/getPricingStats', operation: getPricingStatsOperation, query: () => future },
  {
    path: '/getResponseTimeStats',
    operation: getResponseTimeStatsOperation,
    query: () => `${past}&countAutomatedReplies=true`,
  },
  {
    path: '/getResponseTimeBreakdown',
    operation: getResponseTimeBreakdownOperation,
    query: () => `${past}&listingLimit=3`,
  },
  { path: '/getReviewStats', operation: getReviewStatsOperation, query: () => pastYear },
  {
    path: '/getReviewAnalytics',
    operation: getReviewAnalyticsOperation,
    query: () => `${pastYear}&granularity=month&minReviews=1&listingLimit=2`,
  },
  { path: '/getMetricDefinitions', operation: getMetricDefinitionsOperation, query: () => 'ids=adr,revpar' },
];

// On PostgreSQL only: the routes run the operations the storage suite tests on both drivers, and the
// host-tools and plugin suites serve REST from the embedded database too; one kind keeps CI's time down.
describe.each(['postgres'] as const)('Innkeep’s analytics routes on %s', (kind) => {
  let world: RestWorld;
  let running: RunningRestApp;
  let demo: Actor;
  let owner: { authToken: string };
  let viewer: { authToken: string };
  let reservationsReader: { authorization: string };
  let scope: Scope;
  let otherListingId: string;

  beforeAll(async () => {
    world = await openRestWorld(kind);
    running = await startRestApp(world, { rateLimits: { perCredential: 10_000, withApiKey: 10_000 } });
    demo = await ownerActor(world, demoUsers.owner);
    owner = { authToken: await authTokenOf(world, demoUsers.owner) };
    viewer = { authToken: (await demoViewer(world)).authToken };
    reservationsReader = {
      authorization: `Bearer ${await bearerTokenOf(running, { scopes: ['reservations:read'] })}`,
    };
    const listings = await world.domain.listings.list(demo, { limit: 2 });
    const groups = await world.domain.listingGroups.list(demo, { limit: 1 });
    scope = {
      listingIds: listings.items.map((listing) => listing.id).join(','),
      groupId: groups.items[0]?.id ?? '',
    };
    const lapsed = await ownerActor(world, demoUsers.lapsedOwner);
    otherListingId = (await world.domain.listings.list(lapsed, { limit: 1 })).items[0]?.id ?? '';
  }, 300_000);

  afterAll(async () => {
    await running?.close();
    await world?.close();
  });

  it('serves every analytics operation, once each', () => {
    expect(new Set(routeCases.map((route) => route.operation.id)).size).toBe(routeCases.length);
    expect(routeCases).toHaveLength(22);
  });

  for (const route of routeCases) {
    it(`answers GET ${route.path} with the operation’s output`, async () => {
      answerOf(
        await callApi(running, 'GET', `${route.path}?${route.query(scope)}`, { headers: owner }),
        200,
        route.operation.output,
      );
    });
  }

  it('answers with the same figures as the operation called directly', async () => {
    const context = { actor: demo, domain: world.domain, clock: world.clock };
    const kpis = answerOf(
      await callApi(running, 'GET', `/getHeadlineKpis?${past}&listingIds=${scope.listingIds}`, {
        headers: viewer,
      }),
      200,
      getHeadlineKpisOperation.output,
    );
    const [startDate, endDate] = [addDays(today, -120), addDays(today, -93)];
    const listingIds = scope.listingIds.split(',');
    const direct = await getHeadlineKpisOperation.run(
      parseInput(getHeadlineKpisOperation.input, { startDate, endDate, listingIds }),
      context,
    );
    expect(kpis).toEqual(getHeadlineKpisOperation.output.parse(direct));
    expect(kpis.meta.listings).toBe(2);

    const pace = answerOf(
      await callApi(running, 'GET', `/getPaceStats?${future}&pickupDays=30&pickupDays=1`, { headers: owner }),
      200,
      getPaceStatsOperation.output,
    );
    const directPace = await getPaceStatsOperation.run(
      parseInput(getPaceStatsOperation.input, {
        startDate: addDays(today, 10),
        endDate: addDays(today, 37),
        pickupDays: [30, 1],
      }),
      context,
    );
    expect(pace).toEqual(getPaceStatsOperation.output.parse(directPace));
    expect(pace.pickup.map((window) => window.days).sort()).toEqual([1, 30]);
  });

  it('pages upcoming reservations with limit and cursor', async () => {
    const first = answerOf(
      await callApi(running, 'GET', '/getUpcomingReservations?withinDays=60&limit=2', { headers: owner }),
      200,
      getUpcomingReservationsOperation.output,
    );
    expect(first).toMatchObject({ hasMore: true });
    expect(first.items).toHaveLength(2);
    const next = answerOf(
      await callApi(
        running,
        'GET',
        `/getUpcomingReservations?withinDays=60&limit=2&cursor=${first.nextCursor}`,
        {
          headers: owner,
        },
      ),
      200,
      getUpcomingReservationsOperation.output,
    );
    const four = answerOf(
      await callApi(running, 'GET', '/getUpcomingReservations?withinDays=60&limit=4', { headers: owner }),
      200,
      getUpcomingReservationsOperation.output,
    );
    expect([...first.items, ...next.items]).toEqual(four.items);
    // The operation pages at most 100 stays; a larger REST limit gets its largest page, and the cursor.
    const large = answerOf(
      await callApi(running, 'GET', '/getUpcomingReservations?withinDays=365&limit=500', { headers: owner }),
      200,
      getUpcomingReservationsOperation.output,
    );
    expect(large.items).toHaveLength(100);
    expect(large).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
  });

  it('names bad query values', async () => {
    for (const [query, field] of [
      ['startDate=2026-02-30&endDate=2026-03-10', 'startDate'],
      ['endDate=2026-03-10', 'startDate'],
      ['startDate=2026-03-10&endDate=2026-03-01', 'endDate'],
      ['startDate=2020-01-01&endDate=2026-01-01', 'endDate'],
      [`${past}&channel=expedia`, 'channel'],
      [`${past}&compareTo=next_year`, 'compareTo.0'],
    ] as const) {
      expectError(
        await callApi(running, 'GET', `/getOccupancyStats?${query}`, { headers: owner }),
        400,
        'invalid_argument',
        field,
      );
    }
    expectError(
      await callApi(running, 'GET', `/getTimeseriesStats?${past}&granularity=hour`, { headers: owner }),
      400,
      'invalid_argument',
      'granularity',
    );
    expectError(
      await callApi(running, 'GET', `/getPaceStats?${future}&pickupDays=2`, { headers: owner }),
      400,
      'invalid_argument',
      'pickupDays.0',
    );
    expectError(
      await callApi(running, 'GET', `/getPaceStats?${future}&pickupDays=week`, { headers: owner }),
      400,
      'invalid_argument',
      'pickupDays.0',
    );
    expectError(
      await callApi(running, 'GET', `/getCheckInsCheckOuts?${past}&listReservations=often`, {
        headers: owner,
      }),
      400,
      'invalid_argument',
      'listReservations',
    );
    expectError(
      await callApi(running, 'GET', '/getMetricDefinitions?ids=adr,magic', { headers: owner }),
      400,
      'invalid_argument',
      'ids.1',
    );
  });

  it('reads other accounts’ listings and unknown groups as 404', async () => {
    expectError(
      await callApi(running, 'GET', `/getRevenueStats?${past}&listingIds=${otherListingId}`, {
        headers: owner,
      }),
      404,
      'not_found',
    );
    expectError(
      await callApi(running, 'GET', `/getRevenueStats?${past}&listingGroupId=grp_unknown`, {
        headers: owner,
      }),
      404,
      'not_found',
    );
  });

  it('asks Bearer callers for every scope of the operation, and for none for the definitions', async () => {
    answerOf(
      await callApi(running, 'GET', `/getRevenueStats?${past}`, { headers: reservationsReader }),
      200,
      getRevenueStatsOperation.output,
    );
    const kpis = await callApi(running, 'GET', `/getHeadlineKpis?${past}`, { headers: reservationsReader });
    expectError(kpis, 403, 'insufficient_scope');
    expect(kpis.body).toMatchObject({ details: { required: ['calendar:read'] } });
    const reviews = await callApi(running, 'GET', `/getReviewStats?${past}`, { headers: reservationsReader });
    expectError(reviews, 403, 'insufficient_scope');
    expect(reviews.body).toMatchObject({ details: { required: ['reviews:read'] } });
    answerOf(
      await callApi(running, 'GET', '/getMetricDefinitions', { headers: reservationsReader }),
      200,
      getMetricDefinitionsOperation.output,
    );
    expect(world.reported).toEqual([]);
  });
});
