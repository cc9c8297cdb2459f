import type { Actor } from '../core/actor.ts';
import type { CheckInsCheckOuts, CheckInsCheckOutsInput } from './reservation-arrivals.ts';
import type { CancellationStats, CancellationStatsInput } from './reservation-cancellations.ts';
import type { GapAnalysis, GapAnalysisInput } from './reservation-gaps.ts';
import type { PaceStats, PaceStatsInput } from './reservation-pace.ts';
import type { BookingPatternStats, BookingPatternStatsInput } from './reservation-patterns.ts';
import type { ReservationStatusStats, ReservationStatusStatsInput } from './reservation-statuses.ts';
import type { TurnoverStats, TurnoverStatsInput } from './reservation-turnovers.ts';
import type { UpcomingReservations, UpcomingReservationsInput } from './reservation-upcoming.ts';

/**
 * Reservation flow: pace, booking patterns, cancellations, statuses, gaps, turnovers, arrivals and departures,
 * upcoming stays. Every method validates its input (`invalid_argument`) and resolves the listing and group
 * filters (`not_found` for ids outside the account). Dates are listing-local and "today" is each listing's own.
 */
export interface ReservationAnalyticsUseCases {
  /** What is on the books for a stay period as of a date, against the same time last year, with pickup. */
  getPaceStats(actor: Actor, input: PaceStatsInput): Promise<PaceStats>;
  /** When and how the period's check-ins were booked: weekdays, lead time, stay length, party size. */
  getBookingPatternStats(actor: Actor, input: BookingPatternStatsInput): Promise<BookingPatternStats>;
  /** Cancellation rates by count, nights and rent, by who cancelled and by channel, with their timing. */
  getCancellationStats(actor: Actor, input: CancellationStatsInput): Promise<CancellationStats>;
  /** Reservations checking in during the period per normalised status. */
  getReservationStatusStats(
    actor: Actor,
    input: ReservationStatusStatsInput,
  ): Promise<ReservationStatusStats>;
  /** Runs of open nights between occupied ones, orphan gaps and what they are worth. */
  getGapAnalysis(actor: Actor, input: GapAnalysisInput): Promise<GapAnalysis>;
  /** Check-outs and the days until the next guest arrives. */
  getTurnoverStats(actor: Actor, input: TurnoverStatsInput): Promise<TurnoverStats>;
  /** Arrivals, departures and stayovers per day, week or month. */
  getCheckInsCheckOuts(actor: Actor, input: CheckInsCheckOutsInput): Promise<CheckInsCheckOuts>;
  /** Guests in house and the next arrivals, soonest first, a page at a time. */
  getUpcomingReservations(actor: Actor, input: UpcomingReservationsInput): Promise<UpcomingReservations>;
}
