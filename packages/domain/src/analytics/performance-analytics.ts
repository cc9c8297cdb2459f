/** Performance by stay night: occupancy, revenue, ADR, RevPAR, series, listing and channel breakdowns. */
export type PerformanceAnalyticsUseCases = {};
