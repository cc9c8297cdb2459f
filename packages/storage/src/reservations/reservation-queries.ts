import type {
  Actor,
  CalendarHold,
  Channel,
  Clock,
  LineItemType,
  Reservation,
  ReservationDetail,
} from '@innkeep/domain';
import {
  type CancelledBy,
  isLiveStatus,
  type LocalDate,
  localDateIn,
  notFound,
  type ReservationStatus,
  stayPhaseOn,
  toMajorUnits,
} from '@innkeep/domain';
import type { Executor, ReservationRow } from '../database.ts';
import { loadHolds } from '../pricing/pricing-inputs.ts';

/** A reservation row with the listing facts its view needs. */
export type ReservationViewRow = ReservationRow & {
  listing_name: string;
  listing_time_zone: string;
  listing_check_in_time: number;
  listing_check_out_time: number;
};

/** Reservations joined to their listing, scoped to one account: the base of every reservation read. */
export function selectReservationViews(db: Executor, accountId: string) {
  return db
    .selectFrom('reservations')
    .innerJoin('listings', 'listings.id', 'reservations.listing_id')
    .selectAll('reservations')
    .select([
      'listings.name as listing_name',
      'listings.time_zone as listing_time_zone',
      'listings.check_in_time as listing_check_in_time',
      'listings.check_out_time as listing_check_out_time',
    ])
    .where('reservations.account_id', '=', accountId);
}

/** One reservation of the actor's account with its listing facts; `not_found` otherwise. */
export async function findReservationViewOrThrow(
  db: Executor,
  actor: Actor,
  reservationId: string,
): Promise<ReservationViewRow> {
  const row = await selectReservationViews(db, actor.accountId)
    .where('reservations.id', '=', reservationId)
    .executeTakeFirst();
  if (!row) throw notFound('reservation', reservationId);
  return row;
}

/** One reservation with its line items and nightly rates. */
export async function loadReservationDetail(
  db: Executor,
  actor: Actor,
  clock: Clock,
  reservationId: string,
): Promise<ReservationDetail> {
  const row = await findReservationViewOrThrow(db, actor, reservationId);
  // Sequential on purpose: `db` may be a transaction, whose single connection runs one query at a time.
  const lineItems = await db
    .selectFrom('reservation_line_items')
    .selectAll()
    .where('reservation_id', '=', row.id)
    .orderBy('position')
    .execute();
  const nights = await db
    .selectFrom('reservation_nights')
    .selectAll()
    .where('reservation_id', '=', row.id)
    .orderBy('night')
    .execute();
  const money = (minor: number) => toMajorUnits(minor, row.currency);
  return {
    ...toReservation(row, localDateIn(row.listing_time_zone, clock.now())),
    lineItems: lineItems.map((item) => ({
      type: item.type as LineItemType,
      name: item.name,
      amount: money(item.amount_minor),
      paidBy: item.paid_by === 'host' ? 'host' : 'guest',
      paidToHost: item.paid_to_host,
    })),
    nightlyRates: nights.map((night) => ({ date: night.night, amount: money(night.accommodation_minor) })),
  };
}

/**
 * Maps a row to the API shape.
 * @param today - the listing-local date the stay phase is judged on.
 */
export function toReservation(row: ReservationViewRow, today: LocalDate): Reservation {
  const money = (minor: number) => toMajorUnits(minor, row.currency);
  const status = row.status as ReservationStatus;
  const iso = (value: Date | null) => (value === null ? null : value.toISOString());
  return {
    id: row.id,
    listingId: row.listing_id,
    listingName: row.listing_name,
    channel: row.channel as Channel,
    confirmationCode: row.confirmation_code,
    status,
    cancelledBy: row.cancelled_by as CancelledBy | null,
    guest: {
      firstName: row.guest_first_name,
      lastName: row.guest_last_name,
      email: row.guest_email,
      phone: row.guest_phone,
    },
    guests: {
      adults: row.adults,
      children: row.children,
      infants: row.infants,
      pets: row.pets,
      total: row.adults + row.children,
    },
    startDate: row.start_date,
    endDate: row.end_date,
    nights: row.nights,
    checkInTime: row.check_in_time ?? row.listing_check_in_time,
    checkOutTime: row.check_out_time ?? row.listing_check_out_time,
    accessCode: row.access_code,
    notes: row.notes,
    currency: row.currency,
    accommodation: money(row.accommodation_minor),
    guestPrice: money(row.guest_price_minor),
    hostPayout: money(row.host_payout_minor),
    stayPhase: isLiveStatus(status) ? stayPhaseOn(today, row.start_date, row.end_date) : null,
    inquiryAt: iso(row.inquiry_at),
    pendingAt: iso(row.pending_at),
    confirmedAt: iso(row.confirmed_at),
    declinedAt: iso(row.declined_at),
    expiredAt: iso(row.expired_at),
    cancelledAt: iso(row.cancelled_at),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/**
 * Holds on a listing that take any night from `startDate` up to check-out `endDate`, earliest first,
 * with the guest's name for reservation holds so a conflict can say whose stay is in the way.
 * @param ignoreReservationId - a reservation whose own hold does not count (it is the one being moved).
 */
export function findClashingHolds(
  db: Executor,
  accountId: string,
  listingId: string,
  startDate: LocalDate,
  endDate: LocalDate,
  ignoreReservationId?: string,
): Promise<CalendarHold[]> {
  return loadHolds(db, { account_id: accountId, id: listingId }, startDate, endDate, { ignoreReservationId });
}
