import type { GuestAnalyticsUseCases } from './guest-analytics.ts';
import type { PerformanceAnalyticsUseCases } from './performance-analytics.ts';
import type { ReservationAnalyticsUseCases } from './reservation-analytics.ts';

/**
 * Every analytics question an account can ask, computed set-based in the database: performance by stay night
 * (occupancy, revenue, ADR, RevPAR and their series and breakdowns), reservation flow (pace, cancellations,
 * patterns, gaps, turnovers, arrivals) and guests and prices (reviews, response times, listed prices).
 */
export interface AnalyticsUseCases
  extends PerformanceAnalyticsUseCases,
    ReservationAnalyticsUseCases,
    GuestAnalyticsUseCases {}
