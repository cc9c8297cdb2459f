import type { LocalDate } from '../core/dates.ts';
import { DomainError } from '../core/errors.ts';

/** Every status a reservation can have. */
export const reservationStatuses = [
  'inquiry',
  'pending',
  'accepted',
  'declined',
  'expired',
  'cancelled',
] as const;
/** One of {@link reservationStatuses}. */
export type ReservationStatus = (typeof reservationStatuses)[number];

/**
 * Statuses that take the nights off the calendar. A live reservation owns one calendar hold; the
 * database's exclusion constraint on holds is what makes two live stays on one listing impossible.
 */
export const liveStatuses = ['pending', 'accepted'] as const;

/** Who cancelled a reservation. `channel` is only ever set by a channel sync. */
export const cancelledByValues = ['guest', 'host', 'channel'] as const;
/** One of {@link cancelledByValues}. */
export type CancelledBy = (typeof cancelledByValues)[number];

/**
 * The legal moves. An inquiry may become a request (pending) or a booking directly; a request is answered
 * (accepted or declined) or lapses; a booking can only be cancelled. Declined, expired and cancelled are final.
 */
export const reservationTransitions: Readonly<Record<ReservationStatus, readonly ReservationStatus[]>> = {
  inquiry: ['pending', 'accepted', 'declined', 'expired', 'cancelled'],
  pending: ['accepted', 'declined', 'expired', 'cancelled'],
  accepted: ['cancelled'],
  declined: [],
  expired: [],
  cancelled: [],
};

/**
 * The timestamp each status sets when a reservation enters it, named as on the reservation record.
 * `confirmedAt` is the moment of acceptance (the channels' word for it).
 */
export const statusTimestampFields = {
  inquiry: 'inquiryAt',
  pending: 'pendingAt',
  accepted: 'confirmedAt',
  declined: 'declinedAt',
  expired: 'expiredAt',
  cancelled: 'cancelledAt',
} as const satisfies Record<ReservationStatus, string>;

/** True when a reservation in `status` holds its nights on the calendar. */
export function isLiveStatus(status: ReservationStatus): boolean {
  return (liveStatuses as readonly ReservationStatus[]).includes(status);
}

/** What happens to the reservation's calendar hold when it moves between two statuses. */
export type HoldChange = 'acquire' | 'release' | 'keep' | 'none';

/** What a legal transition does: the timestamp it sets and what it does to the calendar hold. */
export interface StatusTransition {
  readonly from: ReservationStatus;
  readonly to: ReservationStatus;
  readonly timestampField: (typeof statusTimestampFields)[ReservationStatus];
  readonly hold: HoldChange;
}

/**
 * Plans a move from `from` to `to`.
 *
 * @throws DomainError `failed_precondition` naming the statuses `from` may move to, when the move is illegal.
 */
export function planStatusTransition(from: ReservationStatus, to: ReservationStatus): StatusTransition {
  const allowed = reservationTransitions[from];
  if (!allowed.includes(to)) {
    const options =
      allowed.length === 0
        ? `A ${from} reservation is final and cannot change status.`
        : `From ${from} it can move to: ${allowed.join(', ')}.`;
    throw new DomainError(
      'failed_precondition',
      `A reservation cannot go from ${from} to ${to}. ${options}`,
      {
        details: { from, to, allowed: [...allowed] },
      },
    );
  }
  return { from, to, timestampField: statusTimestampFields[to], hold: holdChange(from, to) };
}

function holdChange(from: ReservationStatus, to: ReservationStatus): HoldChange {
  const wasLive = isLiveStatus(from);
  const isLive = isLiveStatus(to);
  if (wasLive && isLive) return 'keep';
  if (isLive) return 'acquire';
  if (wasLive) return 'release';
  return 'none';
}

/** Where a stay is relative to the listing's local today. */
export const stayPhases = [
  'upcoming',
  'checking_in_today',
  'in_house',
  'checking_out_today',
  'past',
] as const;
/** One of {@link stayPhases}. */
export type StayPhase = (typeof stayPhases)[number];

/**
 * The phase of a stay from `startDate` to check-out `endDate` on the listing-local date `today`.
 * Derived, never stored, so it is always right for the day it is read.
 */
export function stayPhaseOn(today: LocalDate, startDate: LocalDate, endDate: LocalDate): StayPhase {
  if (today < startDate) return 'upcoming';
  if (today === startDate) return 'checking_in_today';
  if (today < endDate) return 'in_house';
  if (today === endDate) return 'checking_out_today';
  return 'past';
}
