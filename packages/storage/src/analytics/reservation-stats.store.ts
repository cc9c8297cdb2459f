import { parseInput } from '@innkeep/domain';
import type { ReservationAnalyticsUseCases } from '@innkeep/domain/analytics';
import {
  bookingPatternStatsInputSchema,
  cancellationStatsInputSchema,
  checkInsCheckOutsInputSchema,
  gapAnalysisInputSchema,
  paceStatsInputSchema,
  reservationStatusStatsInputSchema,
  turnoverStatsInputSchema,
  upcomingReservationsInputSchema,
} from '@innkeep/domain/analytics';
import type { StoreDeps } from '../store-deps.ts';
import { withAnalyticsSettings } from './analytics-query-settings.ts';
import { resolveAnalyticsScope } from './analytics-scope.ts';
import { checkInsCheckOuts } from './reservation-arrivals.ts';
import { cancellationStats } from './reservation-cancellations.ts';
import { gapAnalysis } from './reservation-gaps.ts';
import { paceStats } from './reservation-pace.ts';
import { bookingPatternStats } from './reservation-patterns.ts';
import { reservationStatusStats } from './reservation-statuses.ts';
import { turnoverStats } from './reservation-turnovers.ts';
import { upcomingReservations } from './reservation-upcoming.ts';

/**
 * Reservation analytics over PostgreSQL: each method validates its input, then, in one transaction with the
 * analytics settings (no JIT, custom plans, more work memory), resolves the listing, group and channel
 * filters against the actor's account and runs its set-based queries (one file per tool). Upcoming
 * reservations, one small indexed statement, need neither the settings nor the transaction.
 */
export function createReservationAnalytics({ db, clock }: StoreDeps): ReservationAnalyticsUseCases {
  return {
    async getPaceStats(actor, rawInput) {
      const input = parseInput(paceStatsInputSchema, rawInput);
      return withAnalyticsSettings(db, async (trx) =>
        paceStats(trx, await resolveAnalyticsScope(trx, actor, input), input, clock.now()),
      );
    },
    async getBookingPatternStats(actor, rawInput) {
      const input = parseInput(bookingPatternStatsInputSchema, rawInput);
      return withAnalyticsSettings(db, async (trx) =>
        bookingPatternStats(trx, await resolveAnalyticsScope(trx, actor, input), input),
      );
    },
    async getCancellationStats(actor, rawInput) {
      const input = parseInput(cancellationStatsInputSchema, rawInput);
      return withAnalyticsSettings(db, async (trx) =>
        cancellationStats(trx, await resolveAnalyticsScope(trx, actor, input), input, clock.now()),
      );
    },
    async getReservationStatusStats(actor, rawInput) {
      const input = parseInput(reservationStatusStatsInputSchema, rawInput);
      return withAnalyticsSettings(db, async (trx) =>
        reservationStatusStats(trx, await resolveAnalyticsScope(trx, actor, input), input, clock.now()),
      );
    },
    async getGapAnalysis(actor, rawInput) {
      const input = parseInput(gapAnalysisInputSchema, rawInput);
      return withAnalyticsSettings(db, async (trx) =>
        gapAnalysis(trx, await resolveAnalyticsScope(trx, actor, input), input, clock.now()),
      );
    },
    async getTurnoverStats(actor, rawInput) {
      const input = parseInput(turnoverStatsInputSchema, rawInput);
      return withAnalyticsSettings(db, async (trx) =>
        turnoverStats(trx, await resolveAnalyticsScope(trx, actor, input), input),
      );
    },
    async getCheckInsCheckOuts(actor, rawInput) {
      const input = parseInput(checkInsCheckOutsInputSchema, rawInput);
      return withAnalyticsSettings(db, async (trx) =>
        checkInsCheckOuts(trx, await resolveAnalyticsScope(trx, actor, input), input),
      );
    },
    async getUpcomingReservations(actor, rawInput) {
      const input = parseInput(upcomingReservationsInputSchema, rawInput);
      // One small indexed statement, so neither the analytics settings nor a transaction (see the function).
      return upcomingReservations(db, actor, input, clock.now());
    },
  };
}
