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
// Guest and pricing analytics (guest-analytics.ts, metric-definitions.ts).
export type { GuestAnalyticsUseCases } from './guest-analytics.ts';
export type { MetricDefinitionId } from './metric-definition-ids.ts';
export { metricDefinitionIdSchema, metricDefinitionIds } from './metric-definition-ids.ts';
// Performance analytics (performance-analytics.ts).
export type { PerformanceAnalyticsUseCases } from './performance-analytics.ts';
// Reservation analytics (reservation-analytics.ts).
export type { ReservationAnalyticsUseCases } from './reservation-analytics.ts';
