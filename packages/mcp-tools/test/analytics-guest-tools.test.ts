import type { Scope } from '@innkeep/domain';
import { metricDefinitionIds } from '@innkeep/domain/analytics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readOnly, type ToolDefinition } from '../src/tool-definition.ts';
import { maxResultChars, type ToolCallResult } from '../src/tool-result.ts';
import { getMetricDefinitionsTool } from '../src/tools/analytics/get-metric-definitions.tool.ts';
import { getPricingStatsTool } from '../src/tools/analytics/get-pricing-stats.tool.ts';
import { getResponseTimeBreakdownTool } from '../src/tools/analytics/get-response-time-breakdown.tool.ts';
import { getResponseTimeStatsTool } from '../src/tools/analytics/get-response-time-stats.tool.ts';
import { getReviewAnalyticsTool } from '../src/tools/analytics/get-review-analytics.tool.ts';
import { getReviewStatsTool } from '../src/tools/analytics/get-review-stats.tool.ts';
import { guestAnalyticsTools } from '../src/tools/analytics/guest-analytics-tools.ts';
import { listListingGroupsTool } from '../src/tools/analytics/list-listing-groups.tool.ts';
import { toolErrorOf } from './support/tool-error.ts';
import { openToolWorld, type ToolWorld } from './support/tool-world.ts';

/** The result's structured content checked against the tool's declared output schema. */
function output<Output extends z.ZodObject>(
  tool: ToolDefinition<z.ZodObject, Output>,
  result: ToolCallResult,
): z.output<Output> {
  expect(result.isError, JSON.stringify(result.structuredContent)).toBeUndefined();
  expect(result.content[0]?.text.length ?? 0).toBeLessThan(maxResultChars);
  return tool.output.parse(result.structuredContent);
}

/** The error code of a failed call. */
function errorCode(result: ToolCallResult): string {
  return toolErrorOf(result).code;
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

// The demo account's last twelve whole months before the world's today (2026-06-15).
const lastYear = { startDate: '2025-06-01', endDate: '2026-05-31' };

describe('the guest and pricing analytics catalogue', () => {
  it('declares the seven tools with the scopes PRODUCT.md gives them, all read-only and described', () => {
    const expected: [string, Scope[]][] = [
      ['get_pricing_stats', ['calendar:read']],
      ['get_review_stats', ['reviews:read']],
      ['get_review_analytics', ['reviews:read']],
      ['get_response_time_stats', ['messages:read']],
      ['get_response_time_breakdown', ['messages:read']],
      ['list_listing_groups', ['listingGroups:read']],
      ['get_metric_definitions', []],
    ];
    expect(guestAnalyticsTools.map((tool) => [tool.name, [...tool.scopes]])).toEqual(expected);
    for (const tool of guestAnalyticsTools) {
      expect(tool.annotations, tool.name).toEqual(readOnly);
      expect(tool.description.length, tool.name).toBeGreaterThan(150);
      const schema = z.toJSONSchema(tool.input, { io: 'input' }) as {
        properties?: Record<string, { description?: string }>;
      };
      for (const [field, property] of Object.entries(schema.properties ?? {})) {
        expect(property.description, `${tool.name}.${field}`).toBeTruthy();
      }
    }
  });
});

describe('guest and pricing analytics tools on the demo account', () => {
  let world: ToolWorld;

  beforeAll(async () => {
    world = await openToolWorld();
  });
  afterAll(async () => world?.close());

  const call = (tool: ToolDefinition, args: unknown) => world.call(tool, args);
  const firstListing = async () => {
    const page = await world.context.domain.listings.list(world.owner, { limit: 1 });
    return page.items[0]?.id ?? '';
  };

  it('get_pricing_stats prices the open nights and compares sold nights with their listed prices', async () => {
    const stats = output(getPricingStatsTool, await call(getPricingStatsTool, lastYear));
    expect(stats.currencies.length).toBeGreaterThan(0);
    expect(stats.meta.currencies).toEqual(stats.currencies.map((entry) => entry.currency));
    for (const entry of stats.currencies) {
      const { listed, weekday, weekend, booked } = entry;
      expect(weekday.openNights + weekend.openNights).toBe(listed.openNights);
      expect(listed.openNights).toBeGreaterThan(0);
      expect(listed.min ?? 0).toBeLessThanOrEqual(listed.median ?? 0);
      expect(listed.median ?? 0).toBeLessThanOrEqual(listed.max ?? 0);
      expect(listed.mean ?? 0).toBeGreaterThanOrEqual(listed.min ?? 0);
      expect(booked.soldNights).toBeGreaterThan(0);
      // Realisation is revenue over listed prices of the same nights: ADR over their mean listed price.
      expect(booked.realisation ?? 0).toBeCloseTo((booked.adr ?? 0) / (booked.listedMean ?? 1), 2);
    }
    expect(
      errorCode(await call(getPricingStatsTool, { startDate: '2026-05-31', endDate: '2025-06-01' })),
    ).toBe('invalid_argument');
    expect(errorCode(await call(getPricingStatsTool, { ...lastYear, listingIds: ['lst_missing'] }))).toBe(
      'not_found',
    );
  });

  it('get_review_stats counts the year’s reviews consistently across its parts', async () => {
    const stats = output(getReviewStatsTool, await call(getReviewStatsTool, lastYear));
    expect(stats.reviews).toBeGreaterThan(0);
    expect(sum(stats.distribution.map((entry) => entry.reviews))).toBe(stats.reviews);
    expect(sum(stats.byChannel.map((entry) => entry.reviews))).toBe(stats.reviews);
    expect(stats.reviewedStays).toBeLessThanOrEqual(stats.completedStays);
    expect(stats.meanRating ?? 0).toBeGreaterThanOrEqual(1);
    expect(stats.meanRating ?? 0).toBeLessThanOrEqual(5);
    const listingId = await firstListing();
    const one = output(
      getReviewStatsTool,
      await call(getReviewStatsTool, { ...lastYear, listingIds: [listingId] }),
    );
    expect(one.meta.listings).toBe(1);
    expect(one.reviews).toBeLessThan(stats.reviews);
    expect(errorCode(await call(getReviewStatsTool, { ...lastYear, channel: 'expedia' }))).toBe(
      'invalid_argument',
    );
    expect(errorCode(await call(getReviewStatsTool, { ...lastYear, listingIds: ['lst_missing'] }))).toBe(
      'not_found',
    );
  });

  it('get_review_analytics trends by month and lists the newest low ratings by id', async () => {
    const analytics = output(getReviewAnalyticsTool, await call(getReviewAnalyticsTool, lastYear));
    expect(analytics.trend.map((bucket) => bucket.key)).toHaveLength(12);
    expect(sum(analytics.trend.map((bucket) => bucket.reviews))).toBe(analytics.reviews);
    expect(analytics.recentLowRatings.length).toBeLessThanOrEqual(10);
    for (const low of analytics.recentLowRatings) {
      expect(low.rating).toBeLessThanOrEqual(3);
      const review = await world.context.domain.reviews.get(world.owner, low.reviewId);
      expect(review.rating).toBe(low.rating);
    }
    expect(analytics.bestListings.length).toBeLessThanOrEqual(5);
    expect(errorCode(await call(getReviewAnalyticsTool, { ...lastYear, granularity: 'year' }))).toBe(
      'invalid_argument',
    );
    expect(
      errorCode(await call(getReviewAnalyticsTool, { ...lastYear, listingGroupId: 'grp_missing' })),
    ).toBe('not_found');
  });

  it('get_response_time_stats and the breakdown agree on the year’s waits', async () => {
    const stats = output(getResponseTimeStatsTool, await call(getResponseTimeStatsTool, lastYear));
    expect(stats.waits).toBeGreaterThan(0);
    expect(stats.answered + stats.unanswered).toBe(stats.waits);
    expect(stats.medianMinutes ?? 0).toBeLessThanOrEqual(stats.p90Minutes ?? 0);
    const breakdown = output(
      getResponseTimeBreakdownTool,
      await call(getResponseTimeBreakdownTool, { ...lastYear, listingLimit: 3 }),
    );
    const { nullReasons: _, ...overall } = breakdown.overall;
    expect(overall).toEqual({
      waits: stats.waits,
      answered: stats.answered,
      unanswered: stats.unanswered,
      medianMinutes: stats.medianMinutes,
      meanMinutes: stats.meanMinutes,
      p90Minutes: stats.p90Minutes,
      withinHourShare: stats.withinHourShare,
      withinDayShare: stats.withinDayShare,
    });
    for (const parts of [breakdown.byChannel, breakdown.byStage, breakdown.byHour, breakdown.byWeekday]) {
      expect(sum(parts.map((part) => part.waits))).toBe(stats.waits);
    }
    expect(breakdown.byListing.length).toBeLessThanOrEqual(3);
    expect(
      errorCode(await call(getResponseTimeStatsTool, { ...lastYear, countAutomatedReplies: 'yes' })),
    ).toBe('invalid_argument');
    expect(
      errorCode(await call(getResponseTimeBreakdownTool, { ...lastYear, listingIds: ['lst_missing'] })),
    ).toBe('not_found');
  });

  it('list_listing_groups gives each group’s size and some members, and its ids filter analytics', async () => {
    const page = output(listListingGroupsTool, await call(listListingGroupsTool, { membersListed: 2 }));
    expect(page.items.length).toBeGreaterThan(0);
    const groups = await world.context.domain.listingGroups.list(world.owner, { limit: 500 });
    for (const group of page.items) {
      const full = groups.items.find((candidate) => candidate.id === group.id);
      expect(group.memberCount).toBe(full?.listingIds.length);
      expect(group.members.length).toBe(Math.min(2, group.memberCount));
      expect(group.membersTruncated).toBe(group.memberCount > 2);
    }
    const group = page.items.find((candidate) => candidate.memberCount > 0);
    const filtered = output(
      getReviewStatsTool,
      await call(getReviewStatsTool, { ...lastYear, listingGroupId: group?.id }),
    );
    expect(filtered.meta.listings).toBe(group?.memberCount);
    expect(errorCode(await call(listListingGroupsTool, { cursor: 'not-a-cursor' }))).toBe('invalid_argument');
    expect(errorCode(await call(listListingGroupsTool, { membersListed: 101 }))).toBe('invalid_argument');
  });

  it('get_metric_definitions returns the catalogue, or the ids asked for', async () => {
    const all = output(getMetricDefinitionsTool, await call(getMetricDefinitionsTool, {}));
    expect(all.definitions.map((definition) => definition.id)).toEqual([...metricDefinitionIds]);
    const some = output(
      getMetricDefinitionsTool,
      await call(getMetricDefinitionsTool, { ids: ['response_time'] }),
    );
    expect(some.definitions.map((definition) => definition.id)).toEqual(['response_time']);
    expect(some.conventions.soldStatuses).toEqual(['accepted']);
    expect(errorCode(await call(getMetricDefinitionsTool, { ids: ['profit'] }))).toBe('invalid_argument');
  });
});
