import { randomBytes } from 'node:crypto';
import type { Clock } from '@innkeep/domain';
import {
  type Actor,
  allocateByLargestRemainder,
  assertCanWrite,
  assertNotBeforeToday,
  assertStayDates,
  cancelReservationInputSchema,
  changeReservationStatusInputSchema,
  createReservationInputSchema,
  DomainError,
  decodeCursor,
  holdConflict,
  isLiveStatus,
  type LineItemType,
  type LocalDate,
  listReservationsInputSchema,
  localDateIn,
  newId,
  nightsOf,
  notFound,
  parseInput,
  planStatusTransition,
  type ReservationStatus,
  type ReservationUseCases,
  reservationTransitions,
  type StatusTransition,
  statusTimestampFields,
  toMajorUnits,
  toMinorUnits,
  toPage,
  updateReservationInputSchema,
} from '@innkeep/domain';
import type { Updateable } from 'kysely';
import { refreshStayNightFacts } from '../analytics/stay-night-facts.ts';
import type { Executor, ReservationRow, ReservationsTable } from '../database.ts';
import { quoteStay } from '../pricing/quote.store.ts';
import type { StoreDeps } from '../store-deps.ts';
import { inTransaction, isOverlapViolation, recordAudit, sqlStateOf } from '../transaction.ts';
import { recordEvent } from '../webhooks/record-event.ts';
import {
  findClashingHolds,
  loadReservationDetail,
  selectReservationViews,
  toReservation,
} from './reservation-queries.ts';

/** The reservation column each status timestamp lives in. */
const timestampColumns = {
  inquiryAt: 'inquiry_at',
  pendingAt: 'pending_at',
  confirmedAt: 'confirmed_at',
  declinedAt: 'declined_at',
  expiredAt: 'expired_at',
  cancelledAt: 'cancelled_at',
} as const satisfies Record<StatusTransition['timestampField'], keyof ReservationsTable>;

/** SQLSTATE of a unique violation: two direct bookings racing for one explicit confirmation code. */
const uniqueViolation = '23505';

/** Reservation use cases over PostgreSQL. */
export function createReservationUseCases({ db, clock }: StoreDeps): ReservationUseCases {
  return {
    async create(actor, rawInput) {
      assertCanWrite(actor);
      const input = parseInput(createReservationInputSchema, rawInput);
      const stay = { listingId: input.listingId, startDate: input.startDate, endDate: input.endDate };
      const confirmationCode = input.confirmationCode ?? generateConfirmationCode();
      const work = inTransaction(db, async (trx) => {
        const now = clock.now();
        const listing = await lockListing(trx, actor, input.listingId);
        assertNotBeforeToday(listing.time_zone, now, [input.startDate], pastCheckInRefusal);
        if (!listing.enabled) {
          throw new DomainError(
            'failed_precondition',
            `Listing ${listing.name} (${listing.id}) is disabled, so it takes no bookings. Enable it in the listing settings first.`,
            { details: { listingId: listing.id, enabled: false } },
          );
        }
        assertCapacity(listing, input.adults + input.children);
        const taken = await trx
          .selectFrom('reservations')
          .select('id')
          .where('account_id', '=', actor.accountId)
          .where('channel', '=', 'direct')
          .where('confirmation_code', '=', confirmationCode)
          .executeTakeFirst();
        if (taken) throw confirmationCodeTaken(confirmationCode, taken.id);
        const live = isLiveStatus(input.status);
        if (live) await assertNightsFree(trx, actor, listing, stay);

        const pricing =
          input.guestPrice === undefined
            ? await quotedPricing(trx, actor, clock, { ...stay, guests: input.adults + input.children })
            : explicitPricing(
                toMinorUnits(input.guestPrice, listing.currency),
                input.startDate,
                input.endDate,
              );
        const hostPayoutMinor =
          input.hostPayout === undefined
            ? pricing.guestPriceMinor
            : toMinorUnits(input.hostPayout, listing.currency);

        const id = newId('reservation');
        await trx
          .insertInto('reservations')
          .values({
            id,
            account_id: actor.accountId,
            listing_id: listing.id,
            channel: 'direct',
            channel_account_id: null,
            confirmation_code: confirmationCode,
            status: input.status,
            cancelled_by: null,
            guest_first_name: input.guest.firstName,
            guest_last_name: input.guest.lastName,
            guest_email: input.guest.email ?? null,
            guest_phone: input.guest.phone ?? null,
            adults: input.adults,
            children: input.children,
            infants: input.infants,
            pets: input.pets,
            start_date: input.startDate,
            end_date: input.endDate,
            currency: listing.currency,
            accommodation_minor: pricing.accommodationMinor,
            guest_price_minor: pricing.guestPriceMinor,
            host_payout_minor: hostPayoutMinor,
            check_in_time: input.checkInTime ?? null,
            check_out_time: input.checkOutTime ?? null,
            access_code: null,
            notes: input.notes ?? null,
            [timestampColumns[statusTimestampFields[input.status]]]: now,
            created_at: now,
            updated_at: now,
          })
          .execute();
        if (live) await insertHold(trx, actor, id, stay, now);
        await writePricing(trx, id, pricing);
        await recordChange(trx, actor, await findRow(trx, id), 'created', {}, now);
        await refreshStayNightFacts(trx, [id]);
        await recordAudit(trx, actor, {
          action: 'reservation.create',
          targetType: 'reservation',
          targetId: id,
          details: {
            listingId: listing.id,
            status: input.status,
            startDate: input.startDate,
            endDate: input.endDate,
          },
        });
        await recordEvent(trx, {
          accountId: actor.accountId,
          event: 'reservation.created',
          data: {
            reservationId: id,
            listingId: listing.id,
            channel: 'direct',
            status: input.status,
            startDate: input.startDate,
            endDate: input.endDate,
          },
        });
        return loadReservationDetail(trx, actor, clock, id);
      });
      return reportClashes(db, work, actor, () => stay, confirmationCode);
    },

    async update(actor, rawInput) {
      assertCanWrite(actor);
      const input = parseInput(updateReservationInputSchema, rawInput);
      let stay: StayTarget | undefined;
      const work = inTransaction(db, async (trx) => {
        const now = clock.now();
        const current = await lockReservation(trx, actor, input.reservationId);
        assertEditable(current);
        const listing = await lockListing(trx, actor, current.listing_id);
        const startDate = input.startDate ?? current.start_date;
        const endDate = input.endDate ?? current.end_date;
        assertStayDates(startDate, endDate);
        // A stay already under way keeps its check-in; only a check-in that moves must not land in the past.
        if (startDate !== current.start_date) {
          assertNotBeforeToday(listing.time_zone, now, [startDate], pastCheckInRefusal);
        }
        stay = { listingId: listing.id, startDate, endDate };
        const datesChanged = startDate !== current.start_date || endDate !== current.end_date;
        const live = isLiveStatus(current.status as ReservationStatus);

        const next = {
          guest_first_name: input.guest?.firstName ?? current.guest_first_name,
          guest_last_name: input.guest?.lastName ?? current.guest_last_name,
          guest_email: input.guest?.email === undefined ? current.guest_email : input.guest.email,
          guest_phone: input.guest?.phone === undefined ? current.guest_phone : input.guest.phone,
          adults: input.adults ?? current.adults,
          children: input.children ?? current.children,
          infants: input.infants ?? current.infants,
          pets: input.pets ?? current.pets,
          check_in_time: input.checkInTime === undefined ? current.check_in_time : input.checkInTime,
          check_out_time: input.checkOutTime === undefined ? current.check_out_time : input.checkOutTime,
          access_code: input.accessCode === undefined ? current.access_code : input.accessCode,
          notes: input.notes === undefined ? current.notes : input.notes,
          start_date: startDate,
          end_date: endDate,
          accommodation_minor: current.accommodation_minor,
          guest_price_minor: current.guest_price_minor,
          host_payout_minor: current.host_payout_minor,
        };
        const guests = next.adults + next.children;
        if (guests !== current.adults + current.children) assertCapacity(listing, guests);
        if (datesChanged && live) await assertNightsFree(trx, actor, listing, stay, current.id);

        // A new explicit price wins; otherwise a moved direct stay is priced like a new quote, and a moved
        // channel stay keeps the channel's money, spread over its new nights.
        let pricing: StayPricing | undefined;
        if (input.guestPrice !== undefined) {
          pricing = explicitPricing(toMinorUnits(input.guestPrice, current.currency), startDate, endDate);
        } else if (datesChanged && current.channel === 'direct') {
          pricing = await quotedPricing(trx, actor, clock, {
            ...stay,
            guests,
            ignoreReservationId: current.id,
          });
        }
        if (pricing) {
          next.accommodation_minor = pricing.accommodationMinor;
          next.guest_price_minor = pricing.guestPriceMinor;
          next.host_payout_minor = pricing.guestPriceMinor;
        }
        if (input.hostPayout !== undefined) {
          next.host_payout_minor = toMinorUnits(input.hostPayout, current.currency);
        }

        const diffs = diffByKind(current, next);
        if (diffs.length === 0 && pricing === undefined) {
          return loadReservationDetail(trx, actor, clock, current.id);
        }
        await trx
          .updateTable('reservations')
          .set({ ...next, updated_at: now })
          .where('id', '=', current.id)
          .execute();
        if (datesChanged && live) {
          await trx
            .updateTable('calendar_holds')
            .set({ nights: rangeLiteral(startDate, endDate) })
            .where('reservation_id', '=', current.id)
            .execute();
        }
        if (pricing) {
          await writePricing(trx, current.id, pricing, { replace: true });
        } else if (datesChanged) {
          await writeNights(
            trx,
            current.id,
            evenNightlyRates(current.accommodation_minor, startDate, endDate),
            {
              replace: true,
            },
          );
        }
        const after = await findRow(trx, current.id);
        for (const { change, diff } of diffs) await recordChange(trx, actor, after, change, diff, now);
        await refreshStayNightFacts(trx, [current.id]);
        await recordAudit(trx, actor, {
          action: 'reservation.update',
          targetType: 'reservation',
          targetId: current.id,
          details: Object.fromEntries(diffs.map(({ change, diff }) => [change, diff])),
        });
        // A new explicit price equal to the old one rewrites the price lines but changes no field: no event.
        if (diffs.length > 0) {
          await recordEvent(trx, {
            accountId: actor.accountId,
            event: 'reservation.updated',
            data: {
              reservationId: current.id,
              listingId: current.listing_id,
              changes: Object.fromEntries(diffs.flatMap(({ diff }) => Object.entries(diff))),
            },
          });
        }
        return loadReservationDetail(trx, actor, clock, current.id);
      });
      return reportClashes(db, work, actor, () => stay);
    },

    async cancel(actor, rawInput) {
      assertCanWrite(actor);
      const input = parseInput(cancelReservationInputSchema, rawInput);
      return inTransaction(db, async (trx) => {
        const now = clock.now();
        const current = await lockReservation(trx, actor, input.reservationId);
        if (current.channel !== 'direct') {
          throw new DomainError(
            'failed_precondition',
            `Reservation ${current.id} came from ${channelNames[current.channel] ?? current.channel}; cancel it there. ` +
              'Innkeep picks up the cancellation with the next sync and frees the nights then.',
            { details: { reservationId: current.id, channel: current.channel } },
          );
        }
        const transition = planStatusTransition(current.status as ReservationStatus, 'cancelled');
        await applyTransition(trx, actor, current, transition, now, { cancelled_by: input.cancelledBy });
        const diff = {
          status: { from: current.status, to: 'cancelled' },
          cancelledBy: input.cancelledBy,
          ...(input.reason === undefined ? {} : { reason: input.reason }),
        };
        await recordChange(trx, actor, await findRow(trx, current.id), 'status', diff, now);
        await refreshStayNightFacts(trx, [current.id]);
        await recordAudit(trx, actor, {
          action: 'reservation.cancel',
          targetType: 'reservation',
          targetId: current.id,
          details: diff,
        });
        await recordEvent(trx, {
          accountId: actor.accountId,
          event: 'reservation.cancelled',
          data: {
            reservationId: current.id,
            listingId: current.listing_id,
            previousStatus: current.status as ReservationStatus,
            cancelledBy: input.cancelledBy,
          },
        });
        return loadReservationDetail(trx, actor, clock, current.id);
      });
    },

    async changeStatus(actor, rawInput) {
      assertCanWrite(actor);
      const input = parseInput(changeReservationStatusInputSchema, rawInput);
      let stay: StayTarget | undefined;
      const work = inTransaction(db, async (trx) => {
        const now = clock.now();
        const current = await lockReservation(trx, actor, input.reservationId);
        const transition = planStatusTransition(current.status as ReservationStatus, input.status);
        if (transition.hold === 'acquire') {
          const listing = await lockListing(trx, actor, current.listing_id);
          stay = { listingId: listing.id, startDate: current.start_date, endDate: current.end_date };
          await assertNightsFree(trx, actor, listing, stay);
        }
        await applyTransition(trx, actor, current, transition, now, {});
        const diff = { status: { from: current.status, to: input.status } };
        await recordChange(trx, actor, await findRow(trx, current.id), 'status', diff, now);
        await refreshStayNightFacts(trx, [current.id]);
        await recordAudit(trx, actor, {
          action: 'reservation.status',
          targetType: 'reservation',
          targetId: current.id,
          details: diff,
        });
        await recordEvent(trx, {
          accountId: actor.accountId,
          event: 'reservation.updated',
          data: { reservationId: current.id, listingId: current.listing_id, changes: diff },
        });
        return loadReservationDetail(trx, actor, clock, current.id);
      });
      return reportClashes(db, work, actor, () => stay);
    },

    async list(actor, rawInput) {
      const input = parseInput(listReservationsInputSchema, rawInput);
      let query = selectReservationViews(db, actor.accountId);
      // A stay overlaps the window when it has a night in it: it checks out after the window opens and
      // checks in on or before its last date.
      if (input.startDate !== undefined) query = query.where('reservations.end_date', '>', input.startDate);
      if (input.endDate !== undefined) query = query.where('reservations.start_date', '<=', input.endDate);
      if (input.listingId !== undefined) query = query.where('reservations.listing_id', '=', input.listingId);
      if (input.statuses !== undefined) query = query.where('reservations.status', 'in', input.statuses);
      if (input.channel !== undefined) query = query.where('reservations.channel', '=', input.channel);
      if (input.updatedSince !== undefined) {
        query = query.where('reservations.updated_at', '>=', new Date(input.updatedSince));
      }
      if (input.cursor !== undefined) {
        const [startDate, id] = decodeCursor(input.cursor, 2).map(String);
        query = query.where((eb) =>
          eb.or([
            eb('reservations.start_date', '>', startDate ?? ''),
            eb.and([
              eb('reservations.start_date', '=', startDate ?? ''),
              eb('reservations.id', '>', id ?? ''),
            ]),
          ]),
        );
      }
      const rows = await query
        .orderBy('reservations.start_date')
        .orderBy('reservations.id')
        .limit(input.limit + 1)
        .execute();
      const now = clock.now();
      const todayByZone = new Map<string, LocalDate>();
      const today = (timeZone: string) => {
        const known = todayByZone.get(timeZone);
        if (known !== undefined) return known;
        const date = localDateIn(timeZone, now);
        todayByZone.set(timeZone, date);
        return date;
      };
      return toPage(
        rows,
        input.limit,
        (row) => toReservation(row, today(row.listing_time_zone)),
        (row) => [row.start_date, row.id],
      );
    },

    async get(actor, reservationId) {
      return loadReservationDetail(db, actor, clock, reservationId);
    },
  };
}

/** Human names of the channels, for messages. */
const channelNames: Readonly<Record<string, string>> = {
  airbnb: 'Airbnb',
  vrbo: 'Vrbo',
  booking: 'Booking.com',
};

/** The listing a stay is for, and the nights it wants. */
interface StayTarget {
  readonly listingId: string;
  readonly startDate: LocalDate;
  readonly endDate: LocalDate;
}

/** How a check-in before the listing's today is refused, by create and by a move (see assertNotBeforeToday). */
const pastCheckInRefusal = "A stay cannot check in before the listing's today";

/** The listing facts a reservation write checks. */
interface LockedListing {
  readonly id: string;
  readonly name: string;
  readonly currency: string;
  readonly time_zone: string;
  readonly enabled: boolean;
  readonly max_guests: number;
}

/**
 * Reads a listing of the actor's account and locks its row until the transaction ends. Reservation writes
 * on one listing thus take turns, so the clash check before writing sees every earlier booking and a
 * clash is reported with the dates in the way; the exclusion constraint stays the final guarantee.
 * `no key update` leaves foreign-key checks of other writers unblocked.
 */
async function lockListing(trx: Executor, actor: Actor, listingId: string): Promise<LockedListing> {
  const listing = await trx
    .selectFrom('listings')
    .select(['id', 'name', 'currency', 'time_zone', 'enabled', 'max_guests'])
    .where('id', '=', listingId)
    .where('account_id', '=', actor.accountId)
    .forNoKeyUpdate()
    .executeTakeFirst();
  if (!listing) throw notFound('listing', listingId);
  return listing;
}

async function lockReservation(trx: Executor, actor: Actor, reservationId: string): Promise<ReservationRow> {
  const row = await trx
    .selectFrom('reservations')
    .selectAll()
    .where('id', '=', reservationId)
    .where('account_id', '=', actor.accountId)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw notFound('reservation', reservationId);
  return row;
}

async function findRow(trx: Executor, reservationId: string): Promise<ReservationRow> {
  return trx.selectFrom('reservations').selectAll().where('id', '=', reservationId).executeTakeFirstOrThrow();
}

function assertEditable(row: ReservationRow): void {
  // A status with no way out (declined, expired, cancelled) makes the reservation history.
  if (reservationTransitions[row.status as ReservationStatus].length === 0) {
    throw new DomainError(
      'failed_precondition',
      `Reservation ${row.id} is ${row.status}, so it can no longer be changed. Create a new reservation instead.`,
      { details: { reservationId: row.id, status: row.status } },
    );
  }
}

function assertCapacity(listing: LockedListing, guests: number): void {
  if (guests > listing.max_guests) {
    throw new DomainError(
      'failed_precondition',
      `${listing.name} takes at most ${listing.max_guests} guests (adults and children); the request is for ${guests}.`,
      { details: { listingId: listing.id, guests, maxGuests: listing.max_guests } },
    );
  }
}

/** Throws `conflict` naming every hold that takes a night of the stay. */
async function assertNightsFree(
  trx: Executor,
  actor: Actor,
  listing: Pick<LockedListing, 'id' | 'name'>,
  stay: StayTarget,
  ignoreReservationId?: string,
): Promise<void> {
  const holds = await findClashingHolds(
    trx,
    actor.accountId,
    stay.listingId,
    stay.startDate,
    stay.endDate,
    ignoreReservationId,
  );
  if (holds.length > 0) throw holdConflict(notFreeLead(listing, stay), holds, clashAdvice);
}

const clashAdvice = 'Choose other dates, or move or cancel what is in the way first.';

function notFreeLead(listing: Pick<LockedListing, 'id' | 'name'>, stay: StayTarget): string {
  return `${listing.name} (${listing.id}) is not free from ${stay.startDate} to ${stay.endDate} (check-out)`;
}

/**
 * Waits for a write and turns the database's own refusals into the errors the clash check would have
 * given. Two writers can pass the check at the same moment (a block written without the listing lock,
 * say); the exclusion constraint then refuses one of them, after which the holds are read again, outside
 * the rolled-back transaction, to say what won.
 */
async function reportClashes<T>(
  db: Executor,
  work: Promise<T>,
  actor: Actor,
  target: () => StayTarget | undefined,
  confirmationCode?: string,
): Promise<T> {
  try {
    return await work;
  } catch (error) {
    const cause = error instanceof DomainError ? error.cause : error;
    const stay = target();
    if (isOverlapViolation(cause) && stay !== undefined) throw await clashReport(db, actor, stay, cause);
    if (sqlStateOf(cause) === uniqueViolation && confirmationCode !== undefined) {
      throw confirmationCodeTaken(confirmationCode, null);
    }
    throw error;
  }
}

async function clashReport(
  db: Executor,
  actor: Actor,
  stay: StayTarget,
  cause: unknown,
): Promise<DomainError> {
  const listing = await db
    .selectFrom('listings')
    .select(['id', 'name'])
    .where('id', '=', stay.listingId)
    .where('account_id', '=', actor.accountId)
    .executeTakeFirst();
  const holds = await findClashingHolds(db, actor.accountId, stay.listingId, stay.startDate, stay.endDate);
  const named = listing ?? { id: stay.listingId, name: 'The listing' };
  if (holds.length > 0) return holdConflict(notFreeLead(named, stay), holds, clashAdvice);
  return new DomainError(
    'conflict',
    `${notFreeLead(named, stay)}: another booking took some of these nights at the same moment, and has since let them go. Check the calendar and try again.`,
    { details: { clashes: [] }, cause },
  );
}

function confirmationCodeTaken(code: string, reservationId: string | null): DomainError {
  return new DomainError(
    'conflict',
    `Confirmation code ${code} is already used by another direct reservation${reservationId ? ` (${reservationId})` : ''}. Choose another code or omit it to get a generated one.`,
    { details: { confirmationCode: code, reservationId } },
  );
}

/** Money lines and nightly rates of a stay, in minor units. */
interface StayPricing {
  readonly accommodationMinor: number;
  readonly guestPriceMinor: number;
  readonly lineItems: readonly { type: LineItemType; name: string; amountMinor: number }[];
  readonly nightly: readonly NightRate[];
}

interface NightRate {
  readonly date: LocalDate;
  readonly amountMinor: number;
}

/** Prices a stay from the calendar, exactly as a quote would. */
async function quotedPricing(
  trx: Executor,
  actor: Actor,
  clock: Clock,
  request: StayTarget & { guests: number; ignoreReservationId?: string },
): Promise<StayPricing> {
  const quote = await quoteStay(trx, actor.accountId, clock, request);
  return {
    // Accommodation revenue is after discounts: that is what ADR and RevPAR are computed on.
    accommodationMinor: quote.accommodationMinor - quote.discountMinor,
    guestPriceMinor: quote.totalMinor,
    lineItems: quote.lineItems,
    nightly: quote.nightly.map((night) => ({ date: night.date, amountMinor: night.priceMinor })),
  };
}

/** A price the host set: one accommodation line, spread evenly over the nights to the last cent. */
function explicitPricing(guestPriceMinor: number, startDate: LocalDate, endDate: LocalDate): StayPricing {
  const nightly = evenNightlyRates(guestPriceMinor, startDate, endDate);
  return {
    accommodationMinor: guestPriceMinor,
    guestPriceMinor,
    lineItems: [
      {
        type: 'accommodation',
        name: `${nightly.length} ${nightly.length === 1 ? 'night' : 'nights'}`,
        amountMinor: guestPriceMinor,
      },
    ],
    nightly,
  };
}

function evenNightlyRates(totalMinor: number, startDate: LocalDate, endDate: LocalDate): NightRate[] {
  const nights = nightsOf(startDate, endDate);
  const shares = allocateByLargestRemainder(
    totalMinor,
    nights.map(() => 1),
  );
  return nights.map((date, index) => ({ date, amountMinor: shares[index] ?? 0 }));
}

/** Stores line items and nightly rates; Innkeep-priced lines are all paid by the guest, to the host. */
async function writePricing(
  trx: Executor,
  reservationId: string,
  pricing: StayPricing,
  options: { replace?: boolean } = {},
): Promise<void> {
  if (options.replace) {
    await trx.deleteFrom('reservation_line_items').where('reservation_id', '=', reservationId).execute();
  }
  if (pricing.lineItems.length > 0) {
    await trx
      .insertInto('reservation_line_items')
      .values(
        pricing.lineItems.map((item, position) => ({
          id: newId('lineItem'),
          reservation_id: reservationId,
          position,
          type: item.type,
          name: item.name,
          amount_minor: item.amountMinor,
          paid_by: 'guest',
          paid_to_host: true,
        })),
      )
      .execute();
  }
  await writeNights(trx, reservationId, pricing.nightly, options);
}

async function writeNights(
  trx: Executor,
  reservationId: string,
  nightly: readonly NightRate[],
  options: { replace?: boolean } = {},
): Promise<void> {
  if (options.replace) {
    await trx.deleteFrom('reservation_nights').where('reservation_id', '=', reservationId).execute();
  }
  if (nightly.length === 0) return;
  await trx
    .insertInto('reservation_nights')
    .values(
      nightly.map((night) => ({
        reservation_id: reservationId,
        night: night.date,
        accommodation_minor: night.amountMinor,
      })),
    )
    .execute();
}

function rangeLiteral(startDate: LocalDate, endDate: LocalDate): string {
  return `[${startDate},${endDate})`;
}

/**
 * Inserts a reservation's calendar hold. Its id is the reservation's: a reservation has at most one hold,
 * and the `res_` prefix tells at a glance whose hold it is.
 */
async function insertHold(
  trx: Executor,
  actor: Actor,
  reservationId: string,
  stay: StayTarget,
  now: Date,
): Promise<void> {
  await trx
    .insertInto('calendar_holds')
    .values({
      id: reservationId,
      account_id: actor.accountId,
      listing_id: stay.listingId,
      nights: rangeLiteral(stay.startDate, stay.endDate),
      kind: 'reservation',
      reservation_id: reservationId,
      block_reason: null,
      note: null,
      created_by: actor.userId,
      created_at: now,
    })
    .execute();
}

/** Moves a reservation to a new status: sets the status and its timestamp, and takes or frees the nights. */
async function applyTransition(
  trx: Executor,
  actor: Actor,
  current: ReservationRow,
  transition: StatusTransition,
  now: Date,
  extra: Updateable<ReservationsTable>,
): Promise<void> {
  await trx
    .updateTable('reservations')
    .set({
      ...extra,
      status: transition.to,
      [timestampColumns[transition.timestampField]]: now,
      updated_at: now,
    })
    .where('id', '=', current.id)
    .execute();
  if (transition.hold === 'acquire') {
    await insertHold(
      trx,
      actor,
      current.id,
      { listingId: current.listing_id, startDate: current.start_date, endDate: current.end_date },
      now,
    );
  } else if (transition.hold === 'release') {
    await trx.deleteFrom('calendar_holds').where('reservation_id', '=', current.id).execute();
  }
}

/** Kinds of change the change log distinguishes. */
type ChangeKind = 'created' | 'status' | 'dates' | 'guests' | 'price' | 'details';

type FieldDiff = Record<string, { from: unknown; to: unknown }>;

/** The fields of each kind, as column → API name; money columns are reported in major units. */
const changeKinds: readonly { change: ChangeKind; fields: Readonly<Record<string, string>> }[] = [
  { change: 'dates', fields: { start_date: 'startDate', end_date: 'endDate' } },
  { change: 'guests', fields: { adults: 'adults', children: 'children', infants: 'infants', pets: 'pets' } },
  {
    change: 'price',
    fields: {
      accommodation_minor: 'accommodation',
      guest_price_minor: 'guestPrice',
      host_payout_minor: 'hostPayout',
    },
  },
  {
    change: 'details',
    fields: {
      guest_first_name: 'firstName',
      guest_last_name: 'lastName',
      guest_email: 'email',
      guest_phone: 'phone',
      check_in_time: 'checkInTime',
      check_out_time: 'checkOutTime',
      access_code: 'accessCode',
      notes: 'notes',
    },
  },
];

/** What an update changes, one entry per kind of change, in the log's order. */
function diffByKind(
  current: ReservationRow,
  next: Partial<Record<keyof ReservationRow, unknown>>,
): { change: ChangeKind; diff: FieldDiff }[] {
  const money = (column: string, value: unknown) =>
    column.endsWith('_minor') && typeof value === 'number' ? toMajorUnits(value, current.currency) : value;
  const result: { change: ChangeKind; diff: FieldDiff }[] = [];
  for (const { change, fields } of changeKinds) {
    const diff: FieldDiff = {};
    for (const [column, name] of Object.entries(fields)) {
      const before = current[column as keyof ReservationRow];
      const after = next[column as keyof ReservationRow];
      if (after !== undefined && after !== before) {
        diff[name] = { from: money(column, before), to: money(column, after) };
      }
    }
    if (Object.keys(diff).length > 0) result.push({ change, diff });
  }
  return result;
}

/** Appends the reservation's state right after a change to the append-only change log. */
async function recordChange(
  trx: Executor,
  actor: Actor,
  row: ReservationRow,
  change: ChangeKind,
  diff: Record<string, unknown>,
  at: Date,
): Promise<void> {
  await trx
    .insertInto('reservation_changes')
    .values({
      reservation_id: row.id,
      account_id: row.account_id,
      changed_at: at,
      change,
      status: row.status,
      start_date: row.start_date,
      end_date: row.end_date,
      guests: row.adults + row.children,
      accommodation_minor: row.accommodation_minor,
      guest_price_minor: row.guest_price_minor,
      host_payout_minor: row.host_payout_minor,
      currency: row.currency,
      diff: JSON.stringify(diff),
      actor_user_id: actor.userId,
      client_id: actor.clientId,
    })
    .execute();
}

const codeAlphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A direct booking reference such as `DIR-7KQ2M9XA`: 32 unambiguous characters, 40 random bits. */
function generateConfirmationCode(): string {
  const bytes = randomBytes(8);
  let code = 'DIR-';
  for (const byte of bytes) code += codeAlphabet[byte & 31];
  return code;
}
