import type { PerformanceAnalyticsUseCases } from '../../analytics/performance-analytics.ts';
import type { StoreDeps } from '../store-deps.ts';

/** Performance analytics over PostgreSQL. */
export function createPerformanceAnalytics({ db }: StoreDeps): PerformanceAnalyticsUseCases {
  void db;
  return {};
}
