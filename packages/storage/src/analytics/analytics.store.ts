import type { AnalyticsUseCases } from '@innkeep/domain/analytics';
import type { StoreDeps } from '../store-deps.ts';
import { createGuestAnalytics } from './guest-stats.store.ts';
import { createPerformanceAnalytics } from './performance.store.ts';
import { createReservationAnalytics } from './reservation-stats.store.ts';

/** Every analytics use case over PostgreSQL (or PGlite). */
export function createAnalyticsUseCases(deps: StoreDeps): AnalyticsUseCases {
  return {
    ...createPerformanceAnalytics(deps),
    ...createReservationAnalytics(deps),
    ...createGuestAnalytics(deps),
  };
}
