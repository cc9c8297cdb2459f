import type { Actor } from '@innkeep/domain';
import { parseInput } from '@innkeep/domain';
import type { AnalyticsFilters, PerformanceAnalyticsUseCases } from '@innkeep/domain/analytics';
import {
  channelPerformanceInputSchema,
  headlineKpisInputSchema,
  listingBreakdownInputSchema,
  periodTotalsInputSchema,
  ratioStatsInputSchema,
  timeseriesStatsInputSchema,
} from '@innkeep/domain/analytics';
import type { z } from 'zod';
import type { Executor } from '../database.ts';
import type { StoreDeps } from '../store-deps.ts';
import { type AnalyticsScope, resolveAnalyticsScope } from './analytics-scope.ts';
import { adrStats } from './performance-adr.ts';
import { channelPerformance } from './performance-channels.ts';
import { headlineKpis } from './performance-headline.ts';
import { listingBreakdown } from './performance-listing-breakdown.ts';
import { occupancyStats } from './performance-occupancy.ts';
import { revenueStats } from './performance-revenue.ts';
import { revparStats } from './performance-revpar.ts';
import { timeseriesStats } from './performance-timeseries.ts';

/**
 * One analytics question: validate the raw input against `schema`, resolve its listing, group and channel
 * filters against the actor's account, then let `answer` compute the result.
 */
function question<Schema extends z.ZodType<AnalyticsFilters>, Result>(
  db: Executor,
  schema: Schema,
  answer: (db: Executor, scope: AnalyticsScope, input: z.output<Schema>) => Promise<Result>,
): (actor: Actor, rawInput: unknown) => Promise<Result> {
  return async (actor, rawInput) => {
    const input = parseInput(schema, rawInput);
    const scope = await resolveAnalyticsScope(db, actor, input);
    return answer(db, scope, input);
  };
}

/** Performance analytics over PostgreSQL (or PGlite). */
export function createPerformanceAnalytics({ db }: StoreDeps): PerformanceAnalyticsUseCases {
  return {
    getHeadlineKpis: question(db, headlineKpisInputSchema, headlineKpis),
    getOccupancyStats: question(db, periodTotalsInputSchema, occupancyStats),
    getRevenueStats: question(db, periodTotalsInputSchema, revenueStats),
    getAdrStats: question(db, ratioStatsInputSchema, adrStats),
    getRevparStats: question(db, ratioStatsInputSchema, revparStats),
    getTimeseriesStats: question(db, timeseriesStatsInputSchema, timeseriesStats),
    getListingBreakdownStats: question(db, listingBreakdownInputSchema, listingBreakdown),
    getChannelPerformance: question(db, channelPerformanceInputSchema, channelPerformance),
  };
}
