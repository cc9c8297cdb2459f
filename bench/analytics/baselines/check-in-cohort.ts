import { dayNumber, localDate, type NightRange } from '../local-dates.ts';
import type { ListingRow, ReservationRow } from '../raw-rows.ts';

/** A live reservation checking in during the period, with its lead time. */
export interface CohortStay {
  readonly reservation: ReservationRow;
  /** Check-in minus the listing-local date it was confirmed (else created), in days. */
  readonly leadDays: number;
}

/** The check-in cohort of a period: live stays and cancellations that were to check in during it. */
export interface CheckInCohort {
  readonly live: readonly CohortStay[];
  readonly cancelled: readonly ReservationRow[];
}

/**
 * Splits the reservations checking in during `range` into live ones (accepted, with lead times in their
 * listing's zone) and cancelled ones; inquiries, pending, declined and expired ones are in neither.
 */
export function checkInCohort(
  reservations: readonly ReservationRow[],
  listings: readonly ListingRow[],
  range: NightRange,
): CheckInCohort {
  const zones = new Map(listings.map((listing) => [listing.id, listing.time_zone]));
  const live: CohortStay[] = [];
  const cancelled: ReservationRow[] = [];
  for (const reservation of reservations) {
    if (reservation.start_date < range.startDate || reservation.start_date > range.endDate) continue;
    if (reservation.status === 'cancelled') cancelled.push(reservation);
    if (reservation.status !== 'accepted') continue;
    const zone = zones.get(reservation.listing_id) ?? 'UTC';
    const bookedOn = localDate(reservation.confirmed_at ?? reservation.created_at, zone);
    live.push({ reservation, leadDays: dayNumber(reservation.start_date) - dayNumber(bookedOn) });
  }
  return { live, cancelled };
}

/** The median of `values` (mean of the two middle ones for an even count); null when empty. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? 0;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? 0) + upper) / 2;
}
