import { addDays, maxDate, minDate, type Scope } from '@innkeep/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readOnly, type ToolDefinition } from '../src/tool-definition.ts';
import type { ToolCallResult } from '../src/tool-result.ts';
import { getAdrStatsTool } from '../src/tools/analytics/get-adr-stats.tool.ts';
import { getChannelPerformanceTool } from '../src/tools/analytics/get-channel-performance.tool.ts';
import { getHeadlineKpisTool } from '../src/tools/analytics/get-headline-kpis.tool.ts';
import { getListingBreakdownStatsTool } from '../src/tools/analytics/get-listing-breakdown-stats.tool.ts';
import { getOccupancyStatsTool } from '../src/tools/analytics/get-occupancy-stats.tool.ts';
import { getRevenueStatsTool } from '../src/tools/analytics/get-revenue-stats.tool.ts';
import { getRevparStatsTool } from '../src/tools/analytics/get-revpar-stats.tool.ts';
import { getTimeseriesStatsTool } from '../src/tools/analytics/get-timeseries-stats.tool.ts';
import { performanceAnalyticsTools } from '../src/tools/analytics/performance-analytics-tools.ts';
import { listListingsTool } from '../src/tools/listings/list-listings.tool.ts';
import { getReservationsTool } from '../src/tools/reservations/get-reservations.tool.ts';
import { toolErrorOf } from './support/tool-error.ts';
import { openToolWorld, type ToolWorld } from './support/tool-world.ts';

/** The result's structured content checked against the tool's declared output schema. */
function output<Output extends z.ZodObject>(
  tool: ToolDefinition<z.ZodObject, Output>,
  result: ToolCallResult,
): z.output<Output> {
  expect(result.isError, JSON.stringify(result.structuredContent)).toBeUndefined();
  return tool.output.parse(result.structuredContent);
}

/** The error code and message of a failed call. */
function failure(result: ToolCallResult) {
  return toolErrorOf(result);
}

describe('the performance analytics tools', () => {
  it('are the eight of PRODUCT.md with its scopes, all read-only and fully described', () => {
    const both: Scope[] = ['reservations:read', 'calendar:read'];
    expect(performanceAnalyticsTools.map((tool) => [tool.name, [...tool.scopes]])).toEqual([
      ['get_headline_kpis', both],
      ['get_occupancy_stats', both],
      ['get_revenue_stats', ['reservations:read']],
      ['get_adr_stats', ['reservations:read']],
      ['get_revpar_stats', both],
      ['get_timeseries_stats', both],
      ['get_listing_breakdown_stats', both],
      ['get_channel_performance', ['reservations:read']],
    ]);
    for (const tool of performanceAnalyticsTools) {
      expect(tool.annotations, tool.name).toEqual(readOnly);
      const schema = z.toJSONSchema(tool.input, { io: 'input' }) as {
        properties?: Record<string, { description?: string }>;
      };
      for (const [field, property] of Object.entries(schema.properties ?? {})) {
        expect(property.description, `${tool.name}.${field}`).toBeTruthy();
      }
      expect(tool.description.length, tool.name).toBeGreaterThan(150);
    }
  });
});

describe('performance analytics on the demo account', () => {
  let world: ToolWorld;
  let listingIds: string[];
  // Three months around the demo's today (2026-06-15): past stays and future bookings alike.
  const spring = { startDate: '2026-04-01', endDate: '2026-06-30' };

  beforeAll(async () => {
    world = await openToolWorld();
    const listings = output(listListingsTool, await world.call(listListingsTool, { limit: 100 }));
    listingIds = listings.items.map((listing) => listing.id);
  });
  afterAll(async () => world?.close());

  const call = (tool: ToolDefinition, args: unknown) => world.call(tool, args);

  it('get_headline_kpis bundles the KPIs with both comparison periods', async () => {
    const kpis = output(getHeadlineKpisTool, await call(getHeadlineKpisTool, spring));
    expect(kpis.meta).toMatchObject({ basis: 'stay_night', listings: listingIds.length, channel: null });
    expect(kpis.comparisonPeriods).toEqual({
      previousPeriod: { startDate: '2025-12-31', endDate: '2026-03-31', nights: 91 },
      samePeriodLastYear: { startDate: '2025-04-01', endDate: '2025-06-30', nights: 91 },
    });
    expect(kpis.bookedNights.value).toBeGreaterThan(0);
    expect(kpis.occupancy.previousPeriod).toBeDefined();
    expect(kpis.currencies.length).toBeGreaterThan(0);
    const occupancy = output(getOccupancyStatsTool, await call(getOccupancyStatsTool, spring));
    expect([kpis.bookedNights.value, kpis.availableNights.value, kpis.occupancy.value]).toEqual([
      occupancy.bookedNights,
      occupancy.availableNights,
      occupancy.occupancy,
    ]);
  });

  it('get_occupancy_stats counts one listing’s booked nights like its accepted reservations', async () => {
    const listingId = listingIds[0] ?? '';
    const stats = output(
      getOccupancyStatsTool,
      await call(getOccupancyStatsTool, { ...spring, listingIds: [listingId] }),
    );
    const page = output(
      getReservationsTool,
      await call(getReservationsTool, { listingId, ...spring, statuses: ['accepted'], limit: 100 }),
    );
    expect(page.nextCursor).toBeNull();
    const nights = page.items.reduce((total, stay) => {
      const first = maxDate(stay.startDate, spring.startDate);
      const last = minDate(addDays(stay.endDate, -1), spring.endDate);
      let count = 0;
      for (let night = first; night <= last; night = addDays(night, 1)) count += 1;
      return total + count;
    }, 0);
    expect(stats.bookedNights).toBe(nights);
    expect(stats.calendarNights).toBe(91);
    expect(stats.availableNights).toBe(91 - stats.blockedNights.total);
  });

  it('get_revenue_stats, get_adr_stats and get_revpar_stats agree with each other', async () => {
    const revenue = output(getRevenueStatsTool, await call(getRevenueStatsTool, spring));
    const adr = output(getAdrStatsTool, await call(getAdrStatsTool, spring));
    const revpar = output(
      getRevparStatsTool,
      await call(getRevparStatsTool, { ...spring, compareTo: ['previous_period'] }),
    );
    expect(revenue.currencies.length).toBeGreaterThan(0);
    for (const money of revenue.currencies) {
      const adrEntry = adr.currencies.find((entry) => entry.currency === money.currency);
      const revparEntry = revpar.currencies.find((entry) => entry.currency === money.currency);
      expect(adrEntry).toMatchObject({
        bookedNights: money.bookedNights,
        revenue: money.accommodationRevenue,
      });
      expect(revparEntry).toMatchObject({
        bookedNights: money.bookedNights,
        revenue: money.accommodationRevenue,
      });
      expect(money.totalRevenue).toBeCloseTo(money.accommodationRevenue + money.fees, 2);
    }
    expect(revpar.comparisons.map((entry) => entry.kind)).toEqual(['previous_period']);
  });

  it('get_timeseries_stats months add up to the occupancy of the period', async () => {
    const series = output(
      getTimeseriesStatsTool,
      await call(getTimeseriesStatsTool, { ...spring, compareToLastYear: true }),
    );
    const occupancy = output(getOccupancyStatsTool, await call(getOccupancyStatsTool, spring));
    expect(series.buckets.map((bucket) => [bucket.key, bucket.partial])).toEqual([
      ['2026-04', false],
      ['2026-05', false],
      ['2026-06', false],
    ]);
    expect(series.buckets.reduce((total, bucket) => total + (bucket.bookedNights ?? 0), 0)).toBe(
      occupancy.bookedNights,
    );
    expect(series.buckets[0]?.lastYear).toMatchObject({ startDate: '2025-04-01', endDate: '2025-04-30' });
  });

  it('get_listing_breakdown_stats ranks listings and its rows add up to its totals', async () => {
    const breakdown = output(
      getListingBreakdownStatsTool,
      await call(getListingBreakdownStatsTool, { ...spring, limit: 100 }),
    );
    expect(breakdown.rows).toHaveLength(listingIds.length);
    expect(breakdown.truncated).toBe(false);
    const occupancies = breakdown.rows.map((row) => row.occupancy ?? -1);
    expect(occupancies).toEqual([...occupancies].sort((a, b) => b - a));
    expect(breakdown.rows.reduce((total, row) => total + row.bookedNights, 0)).toBe(
      breakdown.totals.bookedNights,
    );
    const two = output(
      getListingBreakdownStatsTool,
      await call(getListingBreakdownStatsTool, { ...spring, limit: 2 }),
    );
    expect(two.rows.map((row) => row.id)).toEqual(breakdown.rows.slice(0, 2).map((row) => row.id));
    expect(two).toMatchObject({ truncated: true, totalRows: listingIds.length });
  });

  it('get_channel_performance shares the booked nights out among the channels', async () => {
    const performance = output(getChannelPerformanceTool, await call(getChannelPerformanceTool, spring));
    expect(performance.channels.length).toBeGreaterThan(1);
    expect(performance.channels.reduce((total, row) => total + row.bookedNights, 0)).toBe(
      performance.totals.bookedNights,
    );
    for (const row of performance.channels) {
      for (const money of row.currencies) {
        if (money.adr !== null && money.netAdr !== null) expect(money.netAdr).toBeLessThanOrEqual(money.adr);
      }
    }
  });

  it('answers invalid_argument with what to change', async () => {
    const backwards = failure(
      await call(getHeadlineKpisTool, { startDate: '2026-06-30', endDate: '2026-06-01' }),
    );
    expect(backwards.code).toBe('invalid_argument');
    expect(backwards.message).toContain('endDate cannot be before startDate');
    const tooManyDays = failure(
      await call(getTimeseriesStatsTool, {
        startDate: '2026-01-01',
        endDate: '2026-12-31',
        granularity: 'day',
      }),
    );
    expect(tooManyDays).toMatchObject({ code: 'invalid_argument' });
    expect(tooManyDays.message).toContain('Use granularity week or month');
    expect(failure(await call(getListingBreakdownStatsTool, { ...spring, limit: 101 })).code).toBe(
      'invalid_argument',
    );
    expect(failure(await call(getAdrStatsTool, { ...spring, revenueBasis: 'gross' })).code).toBe(
      'invalid_argument',
    );
  });

  it('answers not_found for a listing or group that is not the account’s', async () => {
    expect(failure(await call(getRevparStatsTool, { ...spring, listingIds: ['lst_nope'] })).code).toBe(
      'not_found',
    );
    expect(
      failure(await call(getChannelPerformanceTool, { ...spring, listingGroupId: 'grp_nope' })).code,
    ).toBe('not_found');
  });
});
