import type { GuestAnalyticsUseCases } from '../../analytics/guest-analytics.ts';
import type { StoreDeps } from '../store-deps.ts';

/** Guest and pricing analytics over PostgreSQL. */
export function createGuestAnalytics({ db }: StoreDeps): GuestAnalyticsUseCases {
  void db;
  return {};
}
