// The analytics surface of @innkeep/domain ('@innkeep/domain/analytics'): filters, periods, result schemas
// and the use-case interface. The SQL behind it lives in '@innkeep/storage'.

export type { AnalyticsUseCases } from './analytics.ts';
export type { AnalyticsFilters, ComparisonKind, Granularity } from './analytics-filters.ts';
export { comparisonKinds } from './analytics-filters.ts';
export type { AnalyticsPeriod, PeriodBucket } from './analytics-period.ts';
export {
  bucketStart,
  comparisonPeriod,
  distinctPeriods,
  periodBuckets,
  periodNights,
  samePeriodLastYear,
  shiftYears,
} from './analytics-period.ts';
export type { AnalyticsMeta, NullReason } from './analytics-result.ts';
export { attributionBases, moneyPer, nullReasons, ratioOf, relativeChange } from './analytics-result.ts';
// Guest and pricing analytics (guest-analytics.ts, metric-definitions.ts, pricing-stats.ts, review-*.ts,
// response-time-stats.ts).
export type { GuestAnalyticsUseCases, ListingGroupSummary } from './guest-analytics.ts';
export { listingGroupSummarySchema, listListingGroupSummariesInputSchema } from './guest-analytics.ts';
export type { MetricDefinitionId } from './metric-definition-ids.ts';
export { metricDefinitionIds } from './metric-definition-ids.ts';
export {
  analyticsConventions,
  metricDefinitions,
  metricDefinitionsInputSchema,
  metricDefinitionsResultSchema,
  selectMetricDefinitions,
} from './metric-definitions.ts';
// Performance analytics (performance-*.ts).
export type { PerformanceAnalyticsUseCases } from './performance-analytics.ts';
export type { BreakdownSortKey, ChannelPerformance, ListingBreakdown } from './performance-breakdowns.ts';
export {
  channelPerformanceInputSchema,
  channelPerformanceSchema,
  listingBreakdownInputSchema,
  listingBreakdownSchema,
} from './performance-breakdowns.ts';
export type {
  BlockedNights,
  Change,
  OccupancyFigures,
  RevenueAmounts,
  RevenueBasis,
} from './performance-figures.ts';
export type { HeadlineKpi, HeadlineKpis } from './performance-headline.ts';
export { headlineKpisInputSchema, headlineKpisSchema } from './performance-headline.ts';
export type { AdrStats, OccupancyStats, RevenueStats, RevparStats } from './performance-stats.ts';
export {
  adrStatsSchema,
  maxNightlyDetailNights,
  occupancyStatsSchema,
  periodTotalsInputSchema,
  ratioStatsInputSchema,
  revenueStatsSchema,
  revparStatsSchema,
} from './performance-stats.ts';
export type { SeriesMetric, TimeseriesStats } from './performance-timeseries.ts';
export {
  defaultSeriesMetrics,
  timeseriesStatsInputSchema,
  timeseriesStatsSchema,
} from './performance-timeseries.ts';
export type {
  BookedPriceSummary,
  ListedPriceSummary,
  PricingStats,
  PricingStatsCurrency,
} from './pricing-stats.ts';
export { pricingStatsInputSchema, pricingStatsSchema, weekendNights } from './pricing-stats.ts';
// Reservation analytics (reservation-analytics.ts and reservation-*.ts).
export type { ReservationAnalyticsUseCases } from './reservation-analytics.ts';
export type { CheckInsCheckOuts } from './reservation-arrivals.ts';
export {
  checkInsCheckOutsInputSchema,
  checkInsCheckOutsSchema,
  maxDailyArrivalNights,
  maxListedArrivals,
} from './reservation-arrivals.ts';
export type { CancellationStats } from './reservation-cancellations.ts';
export { cancellationStatsInputSchema, cancellationStatsSchema } from './reservation-cancellations.ts';
export type { CurrencyAmount, DayBucket, DayRange, DaySummary, Weekday } from './reservation-figures.ts';
export {
  bucketLabel,
  inBucket,
  leadTimeBuckets,
  stayLengthBuckets,
  weekdays,
} from './reservation-figures.ts';
export type { GapAnalysis } from './reservation-gaps.ts';
export { gapAnalysisInputSchema, gapAnalysisSchema } from './reservation-gaps.ts';
export type { OnTheBooks, PaceStats, Pickup } from './reservation-pace.ts';
export { paceStatsInputSchema, paceStatsSchema, pickupWindowDays } from './reservation-pace.ts';
export type { BookingPatternStats } from './reservation-patterns.ts';
export { bookingPatternStatsInputSchema, bookingPatternStatsSchema } from './reservation-patterns.ts';
export type { NormalisedStatus, ReservationStatusStats } from './reservation-statuses.ts';
export {
  normalisedStatuses,
  reservationStatusStatsInputSchema,
  reservationStatusStatsSchema,
} from './reservation-statuses.ts';
export type { TurnoverStats } from './reservation-turnovers.ts';
export {
  maxTurnoverListings,
  turnoverStatsInputSchema,
  turnoverStatsSchema,
} from './reservation-turnovers.ts';
export type { UpcomingReservations } from './reservation-upcoming.ts';
export { upcomingReservationsInputSchema, upcomingReservationsSchema } from './reservation-upcoming.ts';
export type { ResponseMeasures, ResponseTimeBreakdown, ResponseTimeStats } from './response-time-stats.ts';
export {
  conversationStages,
  responseTimeBreakdownInputSchema,
  responseTimeBreakdownSchema,
  responseTimeStatsInputSchema,
  responseTimeStatsSchema,
} from './response-time-stats.ts';
export type { ReviewAnalytics } from './review-analytics.ts';
export { reviewAnalyticsInputSchema, reviewAnalyticsSchema } from './review-analytics.ts';
export type { CategoryMeans, ReviewCategory, ReviewStats } from './review-stats.ts';
export { reviewCategories, reviewStatsInputSchema, reviewStatsSchema } from './review-stats.ts';
