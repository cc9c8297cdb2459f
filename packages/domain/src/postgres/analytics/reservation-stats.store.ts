import type { ReservationAnalyticsUseCases } from '../../analytics/reservation-analytics.ts';
import type { StoreDeps } from '../store-deps.ts';

/** Reservation analytics over PostgreSQL. */
export function createReservationAnalytics({ db }: StoreDeps): ReservationAnalyticsUseCases {
  void db;
  return {};
}
