import { z } from 'zod';
import type { Actor } from '../core/actor.ts';
import { areLocalDates, daysBetween, localDateSchema } from '../core/dates.ts';
import { amountSchema } from '../core/money.ts';
import { type Page, pageInputShape } from '../core/paging.ts';
import { channelSchema, listingIdSchema } from '../listings/listings.ts';
import { maxStayNights } from '../pricing/quote.ts';
import { cancelledByValues, reservationStatuses, stayPhases } from './reservation-status.ts';

/** Validates a reservation id. */
export const reservationIdSchema = z.string().min(1).max(64).describe('Reservation id, e.g. res_…');

/** Validates a reservation status. */
export const reservationStatusSchema = z
  .enum(reservationStatuses)
  .describe(
    'inquiry (guest asked), pending (request awaiting an answer), accepted (booked), declined, expired or cancelled.',
  );

/** Kinds of money line on a reservation; discounts and refunds are negative amounts. */
export const lineItemTypes = [
  'accommodation',
  'cleaning_fee',
  'extra_guest_fee',
  'pet_fee',
  'guest_service_fee',
  'host_service_fee',
  'tax',
  'discount',
  'other',
] as const;
/** One of {@link lineItemTypes}. */
export type LineItemType = (typeof lineItemTypes)[number];

const hourSchema = z.number().int().min(0).max(23);
const personNameSchema = z.string().trim().min(1).max(100);
const emailSchema = z.email().max(254);
const phoneSchema = z.string().trim().min(3).max(40);
const notesSchema = z.string().trim().max(5000);

/** Input of {@link ReservationUseCases.create}. */
export const createReservationInputSchema = z
  .object({
    listingId: listingIdSchema,
    startDate: localDateSchema.describe('Check-in date.'),
    endDate: localDateSchema.describe('Check-out date; the last night is the day before.'),
    guest: z
      .object({
        firstName: personNameSchema,
        lastName: personNameSchema,
        email: emailSchema.optional(),
        phone: phoneSchema.optional(),
      })
      .describe('The guest who booked.'),
    adults: z.number().int().min(1).max(50).describe('Adults, at least 1.'),
    children: z.number().int().min(0).max(50).default(0).describe('Count towards maxGuests.'),
    infants: z.number().int().min(0).max(20).default(0).describe('Do not count towards maxGuests.'),
    pets: z.number().int().min(0).max(20).default(0).describe('Pets coming along.'),
    status: z
      .enum(['inquiry', 'pending', 'accepted'])
      .default('accepted')
      .describe('accepted (default) books the nights, pending holds them, inquiry holds nothing.'),
    confirmationCode: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9_-]+$/, 'Use letters, digits, - and _ only.')
      .optional()
      .describe('Your booking reference; generated when omitted.'),
    guestPrice: amountSchema
      .optional()
      .describe('Agreed total the guest pays; omit to price from the calendar.'),
    hostPayout: amountSchema.optional().describe('What the host receives; default the guest price.'),
    checkInTime: hourSchema.optional().describe("Arrival hour; default the listing's."),
    checkOutTime: hourSchema.optional().describe("Departure hour; default the listing's."),
    notes: notesSchema.optional().describe('Private host notes.'),
  })
  .refine((input) => input.endDate > input.startDate, {
    path: ['endDate'],
    message: 'endDate (check-out) must be after startDate.',
  })
  .refine(
    (input) =>
      !areLocalDates(input.startDate, input.endDate) ||
      daysBetween(input.startDate, input.endDate) <= maxStayNights,
    {
      path: ['endDate'],
      message: `A stay can be at most ${maxStayNights} nights.`,
    },
  );
/** Input of {@link ReservationUseCases.create}. */
export type CreateReservationInput = z.input<typeof createReservationInputSchema>;

/** Input of {@link ReservationUseCases.update}. Omitted fields stay as they are; null clears a field. */
export const updateReservationInputSchema = z
  .object({
    reservationId: reservationIdSchema,
    guest: z
      .object({
        firstName: personNameSchema.optional(),
        lastName: personNameSchema.optional(),
        email: emailSchema.nullable().optional(),
        phone: phoneSchema.nullable().optional(),
      })
      .optional()
      .describe('Guest contact fields to change.'),
    adults: z.number().int().min(1).max(50).optional().describe('New number of adults.'),
    children: z
      .number()
      .int()
      .min(0)
      .max(50)
      .optional()
      .describe('New number of children (count towards maxGuests).'),
    infants: z
      .number()
      .int()
      .min(0)
      .max(20)
      .optional()
      .describe('New number of infants (do not count towards maxGuests).'),
    pets: z.number().int().min(0).max(20).optional().describe('New number of pets.'),
    checkInTime: hourSchema.nullable().optional().describe("Arrival hour; null restores the listing's."),
    checkOutTime: hourSchema.nullable().optional().describe("Departure hour; null restores the listing's."),
    accessCode: z
      .string()
      .trim()
      .min(1)
      .max(32)
      .nullable()
      .optional()
      .describe('Door or lock code for the guest; null removes it.'),
    notes: notesSchema.nullable().optional().describe('Private host notes; null removes them.'),
    startDate: localDateSchema.optional().describe('New check-in date.'),
    endDate: localDateSchema.optional().describe('New check-out date.'),
    guestPrice: amountSchema
      .optional()
      .describe('New guest total; without it, a direct booking whose dates move is re-priced.'),
    hostPayout: amountSchema.optional().describe('New host payout; default the new guest total.'),
  })
  .refine((input) => Object.keys(input).length > 1, 'Name at least one field to change.');
/** Input of {@link ReservationUseCases.update}. */
export type UpdateReservationInput = z.input<typeof updateReservationInputSchema>;

/** Input of {@link ReservationUseCases.cancel}. */
export const cancelReservationInputSchema = z.object({
  reservationId: reservationIdSchema,
  cancelledBy: z
    .enum(['guest', 'host'])
    .default('host')
    .describe('Who asked for the cancellation: the host (default) or the guest.'),
  reason: z.string().trim().min(1).max(1000).optional().describe('Why, for the change log.'),
});
/** Input of {@link ReservationUseCases.cancel}. */
export type CancelReservationInput = z.input<typeof cancelReservationInputSchema>;

/** Input of {@link ReservationUseCases.changeStatus}. Cancelling has its own use case. */
export const changeReservationStatusInputSchema = z.object({
  reservationId: reservationIdSchema,
  status: z
    .enum(['pending', 'accepted', 'declined', 'expired'])
    .describe('pending or accepted take the nights; declined and expired release them.'),
});
/** Input of {@link ReservationUseCases.changeStatus}. */
export type ChangeReservationStatusInput = z.input<typeof changeReservationStatusInputSchema>;

/** Filters and paging for {@link ReservationUseCases.list}. */
export const listReservationsInputSchema = z
  .object({
    ...pageInputShape,
    startDate: localDateSchema.optional().describe('Only stays with a night on or after this date.'),
    endDate: localDateSchema.optional().describe('Only stays with a night on or before this date.'),
    listingId: listingIdSchema.optional(),
    statuses: z
      .array(reservationStatusSchema)
      .min(1)
      .max(reservationStatuses.length)
      .optional()
      .describe('Only these statuses; all when omitted.'),
    channel: channelSchema.optional(),
    updatedSince: z.iso
      .datetime({ offset: true })
      .optional()
      .describe('Only reservations changed since this ISO 8601 instant.'),
  })
  .refine((input) => !input.startDate || !input.endDate || input.endDate >= input.startDate, {
    path: ['endDate'],
    message: 'endDate must not be before startDate.',
  });
/** Input of {@link ReservationUseCases.list}. */
export type ListReservationsInput = z.input<typeof listReservationsInputSchema>;

/** A reservation as lists return it. Money in major units of `currency`; timestamps UTC ISO 8601. */
export const reservationSchema = z.object({
  id: z.string(),
  listingId: z.string(),
  listingName: z.string(),
  channel: channelSchema,
  confirmationCode: z.string(),
  status: reservationStatusSchema,
  cancelledBy: z.enum(cancelledByValues).nullable(),
  guest: z.object({
    firstName: z.string(),
    lastName: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
  }),
  guests: z.object({
    adults: z.number(),
    children: z.number(),
    infants: z.number(),
    pets: z.number(),
    total: z.number().describe('Adults plus children: the count that listing capacity and fees use.'),
  }),
  startDate: localDateSchema,
  endDate: localDateSchema.describe('Check-out date.'),
  nights: z.number(),
  checkInTime: z.number().describe("Local arrival hour: the reservation's own, else the listing's."),
  checkOutTime: z.number().describe("Local departure hour: the reservation's own, else the listing's."),
  accessCode: z.string().nullable(),
  notes: z.string().nullable(),
  currency: z.string(),
  accommodation: z.number().describe('Accommodation revenue after discounts, excluding fees and taxes.'),
  guestPrice: z.number().describe('Total the guest pays.'),
  hostPayout: z.number().describe('What the host receives after channel fees.'),
  stayPhase: z
    .enum(stayPhases)
    .nullable()
    .describe("Where the stay is on the listing's local today; null unless pending or accepted."),
  inquiryAt: z.string().nullable(),
  pendingAt: z.string().nullable(),
  confirmedAt: z.string().nullable(),
  declinedAt: z.string().nullable(),
  expiredAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
/** A reservation without its money lines. */
export type Reservation = z.infer<typeof reservationSchema>;

/** One reservation with its price breakdown and nightly rates. */
export const reservationDetailSchema = reservationSchema.extend({
  lineItems: z.array(
    z.object({
      type: z.enum(lineItemTypes),
      name: z.string(),
      amount: z.number().describe('Major units; negative for discounts and refunds.'),
      paidBy: z.enum(['guest', 'host']),
      paidToHost: z.boolean(),
    }),
  ),
  nightlyRates: z
    .array(z.object({ date: localDateSchema, amount: z.number() }))
    .describe('Accommodation price of each night, when known.'),
});
/** One reservation with its price breakdown. */
export type ReservationDetail = z.infer<typeof reservationDetailSchema>;

/**
 * Reads and changes reservations. Every live (pending or accepted) reservation holds its nights on the
 * calendar, and no two holds on one listing can overlap: a write that would double-book fails with
 * `conflict`, `details.clashes` listing what is in the way, and changes nothing.
 */
export interface ReservationUseCases {
  /**
   * Books a direct reservation (channel bookings arrive by sync). Without `guestPrice` the stay is priced
   * from the calendar like a quote, and the quote's stay rules apply (minimum nights, closed arrival and
   * departure days); with `guestPrice` the host has agreed the stay directly, so only capacity and free
   * nights are checked. Fails with `not_found` (listing), `failed_precondition` (listing disabled, too many
   * guests, a stay rule), `conflict` (nights taken, or confirmation code in use).
   */
  create(actor: Actor, input: CreateReservationInput): Promise<ReservationDetail>;
  /**
   * Changes guest details, guest counts, times, access code, notes, dates or price, and logs one change
   * row per kind of change. Moving dates moves the calendar hold (`conflict` when taken, nothing changed)
   * and re-prices a direct stay from the calendar unless `guestPrice` is given; channel stays keep the
   * channel's money. Guest counts never re-price on their own. Fails with `failed_precondition` on
   * declined, expired or cancelled reservations and when the listing cannot take that many guests.
   */
  update(actor: Actor, input: UpdateReservationInput): Promise<ReservationDetail>;
  /**
   * Cancels a direct reservation and frees its nights. Channel reservations must be cancelled on the
   * channel (`failed_precondition`); the sync then records the cancellation here. Reservations that are
   * already declined, expired or cancelled also fail with `failed_precondition`.
   */
  cancel(actor: Actor, input: CancelReservationInput): Promise<ReservationDetail>;
  /**
   * Moves a reservation along its status machine (accept, decline, expire, or turn an inquiry into a
   * request). Illegal moves fail with `failed_precondition` naming the allowed ones; accepting an inquiry
   * whose dates were taken meanwhile fails with `conflict`.
   */
  changeStatus(actor: Actor, input: ChangeReservationStatusInput): Promise<ReservationDetail>;
  /** Lists reservations by check-in date, then id. */
  list(actor: Actor, input: ListReservationsInput): Promise<Page<Reservation>>;
  /** One reservation with its price breakdown; `not_found` for ids outside the account. */
  get(actor: Actor, reservationId: string): Promise<ReservationDetail>;
}
