import type {
  LineItemType,
  Message,
  Reservation,
  ReservationDetail,
  ReservationStatus,
} from '@innkeep/domain';
import { z } from 'zod';
import { hostToolsSourceNames, hostToolsSources } from './host-tools-channel-names.ts';

/** The statuses a Host Tools reservation can have. */
export const hostToolsReservationStatuses = ['accepted', 'pending', 'cancelled', 'inquiry'] as const;
/** One of {@link hostToolsReservationStatuses}. */
export type HostToolsReservationStatus = (typeof hostToolsReservationStatuses)[number];

/**
 * Innkeep's statuses in Host Tools' four. Inquiry, pending, accepted and cancelled mean the same in both.
 * Host Tools has no word for a request the host declined or one that expired unanswered: both are stays
 * that will not happen and hold no nights, which is what `cancelled` tells its clients (they drop
 * cancelled and declined stays alike).
 */
const hostToolsStatusOf = {
  inquiry: 'inquiry',
  pending: 'pending',
  accepted: 'accepted',
  declined: 'cancelled',
  expired: 'cancelled',
  cancelled: 'cancelled',
} as const satisfies Record<ReservationStatus, HostToolsReservationStatus>;

/**
 * A reservation as Host Tools clients read it in lists (`Reservation` of the Host Tools API). Optional
 * fields Innkeep has no value for (no email, no access code, a status never reached) are left out.
 */
export const hostToolsReservationSchema = z.object({
  _id: z.string().describe('Reservation id, e.g. res_…'),
  userID: z.string().describe('The account the reservation belongs to; the same in every answer.'),
  status: z
    .enum(hostToolsReservationStatuses)
    .describe('accepted, pending, inquiry, or cancelled (also for declined and expired requests).'),
  listingID: z.string(),
  startDate: z.string().describe('Check-in date, YYYY-MM-DD, listing-local.'),
  endDate: z.string().describe('Check-out date, YYYY-MM-DD, listing-local.'),
  nights: z.number(),
  firstName: z.string().describe('The guest’s first name.'),
  lastName: z.string().describe('The guest’s last name.'),
  phone: z.string().optional().describe('The guest’s phone, when known.'),
  email: z.string().optional().describe('The guest’s email, when known.'),
  source: z
    .enum(hostToolsSources)
    .describe('Where it was booked: Airbnb, VRBO, Booking.com, or internal for direct bookings.'),
  confirmationCode: z.string(),
  guests: z.object({
    adults: z.number(),
    children: z.number(),
    infants: z.number(),
    pets: z.number(),
  }),
  hostPayout: z.number().describe('What the host receives after channel fees, in currency.'),
  guestPrice: z.number().describe('Total the guest pays, in currency.'),
  currency: z.string().describe('ISO 4217 code of every amount.'),
  checkInTime: z.number().describe('Local arrival hour, 0–23.'),
  checkOutTime: z.number().describe('Local departure hour, 0–23.'),
  lockCode: z.string().optional().describe('The guest’s door or lock code, when one is set.'),
  notes: z.string().optional().describe('The host’s private notes, when any.'),
  inquiryDate: z.string().optional().describe('When the guest asked (UTC ISO 8601).'),
  pendingDate: z.string().optional().describe('When the booking request came in (UTC ISO 8601).'),
  confirmationDate: z.string().optional().describe('When the stay was accepted (UTC ISO 8601).'),
  cancelledDate: z.string().optional().describe('When it was cancelled, declined or expired (UTC ISO 8601).'),
});
/** A reservation as Host Tools clients read it in lists. */
export type HostToolsReservation = z.infer<typeof hostToolsReservationSchema>;

/** Host Tools' kinds of money line. */
const hostToolsRateTypes = ['price', 'fee', 'tax', 'deposit'] as const;

/**
 * Innkeep's money lines in Host Tools' kinds: accommodation and its discounts are the price; fees are
 * fees; tax is tax. A line of kind `other` is not said to be any of them, so it carries no type.
 */
const hostToolsRateTypeOf = {
  accommodation: 'price',
  discount: 'price',
  cleaning_fee: 'fee',
  extra_guest_fee: 'fee',
  pet_fee: 'fee',
  guest_service_fee: 'fee',
  host_service_fee: 'fee',
  tax: 'tax',
  other: undefined,
} as const satisfies Record<LineItemType, (typeof hostToolsRateTypes)[number] | undefined>;

/** A reservation as Host Tools' getReservation answers it: with its money lines and its messages. */
export const hostToolsReservationDetailSchema = hostToolsReservationSchema.extend({
  rates: z
    .array(
      z.object({
        amount: z.number().describe('In currency; negative for discounts and refunds.'),
        name: z.string(),
        paidToHost: z.boolean(),
        paidBy: z.enum(['guest', 'host']),
        type: z.enum(hostToolsRateTypes).optional().describe('price, fee or tax; absent for other lines.'),
      }),
    )
    .describe('The money lines of the stay.'),
  posts: z
    .array(
      z.object({
        _id: z.string().describe('Message id.'),
        message: z.string().describe('The text. Written by the guest or the host: untrusted.'),
        isGuest: z.boolean().describe('True when the guest wrote it; false for the host and automations.'),
        sentTimestamp: z.string().describe('When it was written (UTC ISO 8601).'),
      }),
    )
    .describe('The conversation with the guest, oldest first.'),
});
/** A reservation as Host Tools' getReservation answers it. */
export type HostToolsReservationDetail = z.infer<typeof hostToolsReservationDetailSchema>;

/** Innkeep's reservation as Host Tools clients read it in lists; `accountId` is their `userID`. */
export function toHostToolsReservation(reservation: Reservation, accountId: string): HostToolsReservation {
  // A declined or expired request is `cancelled` in Host Tools; its end is when it became so.
  const cancelledAt = reservation.cancelledAt ?? reservation.declinedAt ?? reservation.expiredAt;
  return {
    _id: reservation.id,
    userID: accountId,
    status: hostToolsStatusOf[reservation.status],
    listingID: reservation.listingId,
    startDate: reservation.startDate,
    endDate: reservation.endDate,
    nights: reservation.nights,
    firstName: reservation.guest.firstName,
    lastName: reservation.guest.lastName,
    ...(reservation.guest.phone === null ? {} : { phone: reservation.guest.phone }),
    ...(reservation.guest.email === null ? {} : { email: reservation.guest.email }),
    source: hostToolsSourceNames[reservation.channel],
    confirmationCode: reservation.confirmationCode,
    guests: {
      adults: reservation.guests.adults,
      children: reservation.guests.children,
      infants: reservation.guests.infants,
      pets: reservation.guests.pets,
    },
    hostPayout: reservation.hostPayout,
    guestPrice: reservation.guestPrice,
    currency: reservation.currency,
    checkInTime: reservation.checkInTime,
    checkOutTime: reservation.checkOutTime,
    ...(reservation.accessCode === null ? {} : { lockCode: reservation.accessCode }),
    ...(reservation.notes === null ? {} : { notes: reservation.notes }),
    ...(reservation.inquiryAt === null ? {} : { inquiryDate: reservation.inquiryAt }),
    ...(reservation.pendingAt === null ? {} : { pendingDate: reservation.pendingAt }),
    ...(reservation.confirmedAt === null ? {} : { confirmationDate: reservation.confirmedAt }),
    ...(cancelledAt === null ? {} : { cancelledDate: cancelledAt }),
  };
}

/**
 * Innkeep's reservation with its money lines and messages as Host Tools' getReservation answers it (and
 * as its reservation webhook sends it); `accountId` is their `userID`.
 */
export function toHostToolsReservationDetail(
  reservation: ReservationDetail,
  messages: readonly Message[],
  accountId: string,
): HostToolsReservationDetail {
  return {
    ...toHostToolsReservation(reservation, accountId),
    rates: reservation.lineItems.map((line) => {
      const type = hostToolsRateTypeOf[line.type];
      return {
        amount: line.amount,
        name: line.name,
        paidToHost: line.paidToHost,
        paidBy: line.paidBy,
        ...(type === undefined ? {} : { type }),
      };
    }),
    posts: messages.map((message) => ({
      _id: message.id,
      message: message.body,
      isGuest: message.sender === 'guest',
      sentTimestamp: message.sentAt,
    })),
  };
}
