// The analytics surface of @innkeep/domain ('@innkeep/domain/analytics'): filters, periods, result schemas
// and the use-case interface. The SQL behind it lives in '@innkeep/domain/postgres'.

export type { AnalyticsUseCases } from './analytics.ts';
export type {
  AnalyticsFilters,
  AnalyticsFiltersInput,
  ComparisonKind,
  Granularity,
} from './analytics-filters.ts';
export {
  analyticsFiltersSchema,
  analyticsFiltersShape,
  analyticsPeriodShape,
  analyticsScopeShape,
  compareToShape,
  comparisonKinds,
  granularities,
  granularitySchema,
  maxAnalyticsListingIds,
  maxAnalyticsPeriodNights,
  withPeriodChecks,
} from './analytics-filters.ts';
export type { AnalyticsPeriod, PeriodBucket } from './analytics-period.ts';
export {
  bucketStart,
  comparisonPeriod,
  periodBuckets,
  periodNights,
  previousPeriod,
  samePeriodLastYear,
  shiftYears,
} from './analytics-period.ts';
export type { AnalyticsMeta, NullReason } from './analytics-result.ts';
export {
  analyticsMetaSchema,
  attributionBases,
  moneyPer,
  nullReasonSchema,
  nullReasons,
  periodSchema,
  ratioOf,
  relativeChange,
} from './analytics-result.ts';
// Guest and pricing analytics (guest-analytics.ts, metric-definitions.ts, pricing-stats.ts, review-*.ts,
// response-time-stats.ts).
export type {
  GuestAnalyticsUseCases,
  ListingGroupSummary,
  ListListingGroupSummariesInput,
} from './guest-analytics.ts';
export {
  listingGroupSummarySchema,
  listListingGroupSummariesInputSchema,
  maxGroupMembersListed,
} from './guest-analytics.ts';
export type { MetricDefinitionId } from './metric-definition-ids.ts';
export { metricDefinitionIdSchema, metricDefinitionIds } from './metric-definition-ids.ts';
export type {
  AnalyticsConventions,
  MetricDefinition,
  MetricDefinitionsInput,
  MetricDefinitionsResult,
} from './metric-definitions.ts';
export {
  analyticsConventions,
  analyticsConventionsSchema,
  metricDefinitionSchema,
  metricDefinitions,
  metricDefinitionsInputSchema,
  metricDefinitionsResultSchema,
  selectMetricDefinitions,
} from './metric-definitions.ts';
// Performance analytics (performance-*.ts).
export type { PerformanceAnalyticsUseCases } from './performance-analytics.ts';
export type {
  BreakdownSortKey,
  ChannelPerformance,
  ChannelPerformanceInput,
  ListingBreakdown,
  ListingBreakdownInput,
} from './performance-breakdowns.ts';
export {
  breakdownSortKeys,
  channelPerformanceInputSchema,
  channelPerformanceSchema,
  listingBreakdownInputSchema,
  listingBreakdownSchema,
  maxBreakdownRows,
} from './performance-breakdowns.ts';
export type {
  BlockedNights,
  Change,
  OccupancyFigures,
  RevenueAmounts,
  RevenueBasis,
} from './performance-figures.ts';
export {
  blockedNightsSchema,
  changeSchema,
  occupancyFiguresSchema,
  revenueAmountsSchema,
  revenueBases,
} from './performance-figures.ts';
export type { HeadlineKpi, HeadlineKpis, HeadlineKpisInput } from './performance-headline.ts';
export { headlineKpiSchema, headlineKpisInputSchema, headlineKpisSchema } from './performance-headline.ts';
export type {
  AdrStats,
  OccupancyStats,
  PeriodTotalsInput,
  RatioStatsInput,
  RevenueStats,
  RevparStats,
} from './performance-stats.ts';
export {
  adrStatsSchema,
  maxNightlyDetailNights,
  occupancyStatsSchema,
  periodTotalsInputSchema,
  ratioStatsInputSchema,
  revenueStatsSchema,
  revparStatsSchema,
} from './performance-stats.ts';
export type { SeriesMetric, TimeseriesStats, TimeseriesStatsInput } from './performance-timeseries.ts';
export {
  defaultSeriesMetrics,
  maxSeriesBuckets,
  seriesMetrics,
  timeseriesStatsInputSchema,
  timeseriesStatsSchema,
} from './performance-timeseries.ts';
export type {
  BookedPriceSummary,
  ListedPriceSummary,
  PricingStats,
  PricingStatsCurrency,
  PricingStatsInput,
} from './pricing-stats.ts';
export {
  bookedPriceSummarySchema,
  listedPriceSummarySchema,
  pricingStatsCurrencySchema,
  pricingStatsInputSchema,
  pricingStatsSchema,
  weekendNights,
} from './pricing-stats.ts';
// Reservation analytics (reservation-analytics.ts and reservation-*.ts).
export type { ReservationAnalyticsUseCases } from './reservation-analytics.ts';
export type { CheckInsCheckOuts, CheckInsCheckOutsInput } from './reservation-arrivals.ts';
export {
  checkInsCheckOutsInputSchema,
  checkInsCheckOutsSchema,
  maxDailyArrivalNights,
  maxListedArrivalNights,
  maxListedArrivals,
} from './reservation-arrivals.ts';
export type {
  CancellationCohort,
  CancellationStats,
  CancellationStatsInput,
} from './reservation-cancellations.ts';
export {
  cancellationCohorts,
  cancellationStatsInputSchema,
  cancellationStatsSchema,
} from './reservation-cancellations.ts';
export type { GapAnalysis, GapAnalysisInput } from './reservation-gaps.ts';
export { gapAnalysisInputSchema, gapAnalysisSchema, maxListedGaps } from './reservation-gaps.ts';
export type { PaceStats, PaceStatsInput } from './reservation-pace.ts';
export { paceStatsInputSchema, paceStatsSchema, pickupWindowDays } from './reservation-pace.ts';
export type { BookingPatternStats, BookingPatternStatsInput } from './reservation-patterns.ts';
export { bookingPatternStatsInputSchema, bookingPatternStatsSchema } from './reservation-patterns.ts';
export type {
  NormalisedStatus,
  ReservationStatusStats,
  ReservationStatusStatsInput,
} from './reservation-statuses.ts';
export {
  normalisedStatuses,
  reservationStatusStatsInputSchema,
  reservationStatusStatsSchema,
} from './reservation-statuses.ts';
export type { TurnoverStats, TurnoverStatsInput } from './reservation-turnovers.ts';
export {
  maxTurnoverListings,
  turnoverStatsInputSchema,
  turnoverStatsSchema,
} from './reservation-turnovers.ts';
export type { UpcomingReservations, UpcomingReservationsInput } from './reservation-upcoming.ts';
export {
  maxUpcomingLimit,
  upcomingReservationsInputSchema,
  upcomingReservationsSchema,
} from './reservation-upcoming.ts';
export type {
  ConversationStage,
  ResponseMeasures,
  ResponseTimeBreakdown,
  ResponseTimeBreakdownInput,
  ResponseTimeStats,
  ResponseTimeStatsInput,
} from './response-time-stats.ts';
export {
  conversationStages,
  maxResponseListings,
  responseMeasuresSchema,
  responseTimeBreakdownInputSchema,
  responseTimeBreakdownSchema,
  responseTimeStatsInputSchema,
  responseTimeStatsSchema,
} from './response-time-stats.ts';
export type { ReviewAnalytics, ReviewAnalyticsInput } from './review-analytics.ts';
export {
  maxLowRatingsListed,
  maxRankedListings,
  reviewAnalyticsInputSchema,
  reviewAnalyticsSchema,
} from './review-analytics.ts';
export type {
  CategoryMeans,
  ChannelReviewSummary,
  ReviewCategory,
  ReviewStats,
  ReviewStatsInput,
} from './review-stats.ts';
export {
  categoryMeansSchema,
  channelReviewSummarySchema,
  reviewCategories,
  reviewStatsInputSchema,
  reviewStatsSchema,
} from './review-stats.ts';
