import type { Actor } from '../core/actor.ts';
import type {
  ChannelPerformance,
  ChannelPerformanceInput,
  ListingBreakdown,
  ListingBreakdownInput,
} from './performance-breakdowns.ts';
import type { HeadlineKpis, HeadlineKpisInput } from './performance-headline.ts';
import type {
  AdrStats,
  OccupancyStats,
  PeriodTotalsInput,
  RatioStatsInput,
  RevenueStats,
  RevparStats,
} from './performance-stats.ts';
import type { TimeseriesStats, TimeseriesStatsInput } from './performance-timeseries.ts';

/**
 * Performance by stay night: occupancy, revenue, ADR, RevPAR, series, listing and channel breakdowns. Every
 * method validates its input (`invalid_argument`), resolves the listing and group filters (`not_found` for
 * ids outside the account) and counts only accepted stays, each night in the period it falls in.
 */
export interface PerformanceAnalyticsUseCases {
  /** The KPI bundle of a period with previous-period and same-period-last-year comparisons. */
  getHeadlineKpis(actor: Actor, input: HeadlineKpisInput): Promise<HeadlineKpis>;
  /** Calendar, blocked, available and booked nights with adjusted and gross occupancy. */
  getOccupancyStats(actor: Actor, input: PeriodTotalsInput): Promise<OccupancyStats>;
  /** Accommodation, fees, total, channel fees, net and payout per currency, overall and by channel. */
  getRevenueStats(actor: Actor, input: PeriodTotalsInput): Promise<RevenueStats>;
  /** ADR per currency and channel, with the median and weekday/weekend split for short periods. */
  getAdrStats(actor: Actor, input: RatioStatsInput): Promise<AdrStats>;
  /** RevPAR per currency with its ADR × occupancy parts. */
  getRevparStats(actor: Actor, input: RatioStatsInput): Promise<RevparStats>;
  /** Figures per day, week or month bucket, optionally beside the same buckets a year earlier. */
  getTimeseriesStats(actor: Actor, input: TimeseriesStatsInput): Promise<TimeseriesStats>;
  /** Figures per listing or listing group, sorted and bounded, with totals for the whole scope. */
  getListingBreakdownStats(actor: Actor, input: ListingBreakdownInput): Promise<ListingBreakdown>;
  /** Volume, share, ADR, net ADR, commission, stay length, lead time and cancellations per channel. */
  getChannelPerformance(actor: Actor, input: ChannelPerformanceInput): Promise<ChannelPerformance>;
}
