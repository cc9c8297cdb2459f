import { testDatabaseKinds } from '@innkeep/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelReservationTool } from '../src/tools/reservations/cancel-reservation.tool.ts';
import { createReservationTool } from '../src/tools/reservations/create-reservation.tool.ts';
import { updateReservationTool } from '../src/tools/reservations/update-reservation.tool.ts';
import {
  errorOf,
  expectAuditedOnce,
  latestAuditId,
  listingNamed,
  openWriteWorld,
  outputOf,
  reservationsFrom,
  type WriteWorld,
} from './write-tools-support.ts';

describe.each(testDatabaseKinds)('reservation write tools (%s)', (kind) => {
  let world: WriteWorld;
  /** Seagrass Condo 412: USD, at least 2 nights, at most 6 guests; open from mid-2027 on. */
  let listingId: string;

  beforeAll(async () => {
    world = await openWriteWorld(kind);
    const listing = await listingNamed(world, 'Seagrass');
    expect(listing).toMatchObject({ currency: 'USD', minNights: 2, maxGuests: 6 });
    listingId = listing.id;
  }, 120_000);

  afterAll(async () => {
    await world?.close();
  });

  const statuses = async (startDate: string, endDate: string) =>
    (await world.context.domain.calendar.get(world.owner, { listingId, startDate, endDate })).days.map(
      (day) => [day.date, day.status, day.reservationId],
    );

  /** Books a direct stay through the domain, for tests about changing one. */
  const book = (startDate: string, endDate: string, guestPrice = 800) =>
    world.context.domain.reservations.create(world.owner, {
      listingId,
      startDate,
      endDate,
      guest: { firstName: 'Grace', lastName: 'Hopper' },
      adults: 2,
      guestPrice,
    });

  describe('create_reservation', () => {
    it('books a direct stay at the agreed price and takes its nights', async () => {
      const result = await world.call(createReservationTool, {
        listingId,
        startDate: '2027-10-04',
        endDate: '2027-10-08',
        guest: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
        adults: 2,
        children: 1,
        guestPrice: 1234.5,
        confirmationCode: 'MCP-TEST-1',
      });
      const reservation = outputOf(result, createReservationTool.output);
      expect(reservation).toMatchObject({
        listingId,
        channel: 'direct',
        status: 'accepted',
        confirmationCode: 'MCP-TEST-1',
        guest: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: null },
        guests: { adults: 2, children: 1, infants: 0, pets: 0, total: 3 },
        startDate: '2027-10-04',
        endDate: '2027-10-08',
        nights: 4,
        currency: 'USD',
        guestPrice: 1234.5,
        hostPayout: 1234.5,
      });
      // 1234.50 over 4 nights: 308.63, 308.63, 308.62, 308.62.
      expect(reservation.nightlyRates.map((night) => night.amount)).toEqual([308.63, 308.63, 308.62, 308.62]);

      expect(await world.context.domain.reservations.get(world.owner, reservation.id)).toEqual(reservation);
      expect(await statuses('2027-10-03', '2027-10-08')).toEqual([
        ['2027-10-03', 'available', null],
        ['2027-10-04', 'booked', reservation.id],
        ['2027-10-05', 'booked', reservation.id],
        ['2027-10-06', 'booked', reservation.id],
        ['2027-10-07', 'booked', reservation.id],
        ['2027-10-08', 'available', null],
      ]);
      await expectAuditedOnce(world, 'reservation.create', reservation.id);
    });

    it('prices a stay without guestPrice exactly like the quote', async () => {
      const quote = await world.context.domain.pricing.getQuote(world.owner, {
        listingId,
        startDate: '2027-11-01',
        endDate: '2027-11-04',
        guests: 2,
      });
      const reservation = outputOf(
        await world.call(createReservationTool, {
          listingId,
          startDate: '2027-11-01',
          endDate: '2027-11-04',
          guest: { firstName: 'Alan', lastName: 'Turing' },
          adults: 2,
        }),
        createReservationTool.output,
      );
      expect(reservation.guestPrice).toBe(quote.total);
      expect(reservation.hostPayout).toBe(quote.total);
      expect(reservation.confirmationCode).toMatch(/^DIR-/);
    });

    it('refuses nights that are taken, naming the dates in the way, and books nothing', async () => {
      const taken = await book('2027-10-18', '2027-10-21');
      const before = await reservationsFrom(world, '2027-10-01', { listingId });
      const audit = await latestAuditId(world);

      const error = errorOf(
        await world.call(createReservationTool, {
          listingId,
          startDate: '2027-10-20',
          endDate: '2027-10-23',
          guest: { firstName: 'Late', lastName: 'Comer' },
          adults: 1,
          guestPrice: 600,
        }),
      );
      expect(error.code).toBe('conflict');
      expect(error.message).toContain('2027-10-20 to 2027-10-23');
      expect(error.message).toContain(
        `reservation ${taken.id} for Grace Hopper, check-in 2027-10-18, check-out 2027-10-21`,
      );
      expect(error.details?.clashes).toEqual([
        {
          startDate: '2027-10-18',
          endDate: '2027-10-21',
          kind: 'reservation',
          reservationId: taken.id,
          blockReason: null,
        },
      ]);
      expect(await reservationsFrom(world, '2027-10-01', { listingId })).toEqual(before);
      expect(await latestAuditId(world)).toBe(audit);
    });

    it('refuses stays the listing cannot take as failed_precondition', async () => {
      const audit = await latestAuditId(world);
      const tooShort = errorOf(
        await world.call(createReservationTool, {
          listingId,
          startDate: '2027-12-06',
          endDate: '2027-12-07',
          guest: { firstName: 'One', lastName: 'Night' },
          adults: 1,
        }),
      );
      expect(tooShort.code).toBe('failed_precondition');
      expect(tooShort.message).toContain('at least 2 nights');

      const tooMany = errorOf(
        await world.call(createReservationTool, {
          listingId,
          startDate: '2027-12-06',
          endDate: '2027-12-09',
          guest: { firstName: 'Big', lastName: 'Party' },
          adults: 5,
          children: 2,
          guestPrice: 2000,
        }),
      );
      expect(tooMany.code).toBe('failed_precondition');
      expect(tooMany.message).toContain('at most 6 guests');
      expect(tooMany.message).toContain('7');
      expect(await statuses('2027-12-06', '2027-12-08')).toEqual([
        ['2027-12-06', 'available', null],
        ['2027-12-07', 'available', null],
        ['2027-12-08', 'available', null],
      ]);
      expect(await latestAuditId(world)).toBe(audit);
    });

    it('refuses bad dates and amounts as invalid_argument', async () => {
      const stay = {
        listingId,
        startDate: '2027-12-13',
        endDate: '2027-12-16',
        guest: { firstName: 'Bad', lastName: 'Input' },
        adults: 2,
      };
      const audit = await latestAuditId(world);
      const refusals: [Record<string, unknown>, string][] = [
        [{ endDate: '2027-12-13' }, 'endDate'],
        [{ endDate: '2027-12-10' }, 'endDate'],
        [{ startDate: '2027-13-01' }, 'startDate'],
        [{ guestPrice: -1 }, 'guestPrice'],
        [{ guestPrice: 10.005 }, '10.005'],
        [{ adults: 0 }, 'adults'],
      ];
      for (const [change, names] of refusals) {
        const error = errorOf(await world.call(createReservationTool, { ...stay, ...change }));
        expect(error.code, JSON.stringify(change)).toBe('invalid_argument');
        expect(error.message).toContain(names);
      }
      expect(await latestAuditId(world)).toBe(audit);
    });

    it('refuses a check-in before the listing’s today, and a misspelt guest field, booking nothing', async () => {
      const stay = {
        listingId,
        startDate: '2026-06-08',
        endDate: '2026-06-11',
        guest: { firstName: 'Late', lastName: 'Booking' },
        adults: 2,
        guestPrice: 600,
      };
      const audit = await latestAuditId(world);
      const past = errorOf(await world.call(createReservationTool, stay));
      expect(past.code).toBe('invalid_argument');
      expect(past.message).toContain("A stay cannot check in before the listing's today");
      expect(past.message).toContain('today is 2026-06-15');
      expect(past.details).toMatchObject({ today: '2026-06-15', pastDates: ['2026-06-08'] });

      const misspelt = errorOf(
        await world.call(createReservationTool, {
          ...stay,
          startDate: '2027-12-06',
          endDate: '2027-12-09',
          guest: { firstName: 'Ada', lastName: 'Byron', emial: 'ada@example.com' },
        }),
      );
      expect(misspelt.code).toBe('invalid_argument');
      expect(misspelt.message).toContain('guest: Unknown field emial');
      expect(misspelt.message).toContain('guest takes: firstName, lastName, email, phone');
      expect(await statuses('2027-12-06', '2027-12-08')).toEqual([
        ['2027-12-06', 'available', null],
        ['2027-12-07', 'available', null],
        ['2027-12-08', 'available', null],
      ]);
      expect(await latestAuditId(world)).toBe(audit);
    });

    it('answers not_found for unknown listings and for another account’s listing', async () => {
      for (const id of ['lst_nope', world.foreign.listingId]) {
        const error = errorOf(
          await world.call(createReservationTool, {
            listingId: id,
            startDate: '2027-12-13',
            endDate: '2027-12-16',
            guest: { firstName: 'No', lastName: 'Where' },
            adults: 2,
            guestPrice: 500,
          }),
        );
        expect(error.code).toBe('not_found');
        expect(error.message).toContain(id);
      }
    });
  });

  describe('update_reservation', () => {
    it('changes contact details and moves the stay with its calendar hold', async () => {
      const stay = await book('2027-10-25', '2027-10-28');
      const reservation = outputOf(
        await world.call(updateReservationTool, {
          reservationId: stay.id,
          guest: { phone: '+1 555 0100' },
          notes: 'Arrives by train',
          accessCode: '4821',
          startDate: '2027-10-26',
          endDate: '2027-10-30',
          guestPrice: 1100,
        }),
        updateReservationTool.output,
      );
      expect(reservation).toMatchObject({
        id: stay.id,
        guest: { firstName: 'Grace', lastName: 'Hopper', phone: '+1 555 0100' },
        notes: 'Arrives by train',
        accessCode: '4821',
        startDate: '2027-10-26',
        endDate: '2027-10-30',
        nights: 4,
        guestPrice: 1100,
        hostPayout: 1100,
      });
      expect(await world.context.domain.reservations.get(world.owner, stay.id)).toEqual(reservation);
      expect(await statuses('2027-10-25', '2027-10-30')).toEqual([
        ['2027-10-25', 'available', null],
        ['2027-10-26', 'booked', stay.id],
        ['2027-10-27', 'booked', stay.id],
        ['2027-10-28', 'booked', stay.id],
        ['2027-10-29', 'booked', stay.id],
        ['2027-10-30', 'available', null],
      ]);
      await expectAuditedOnce(world, 'reservation.update', stay.id);
    });

    it('refuses to move onto taken nights, naming them, and leaves the stay where it was', async () => {
      const first = await book('2027-11-08', '2027-11-11');
      const second = await book('2027-11-13', '2027-11-16');
      const before = await world.context.domain.reservations.get(world.owner, second.id);
      const audit = await latestAuditId(world);

      const error = errorOf(
        await world.call(updateReservationTool, {
          reservationId: second.id,
          startDate: '2027-11-10',
          endDate: '2027-11-13',
        }),
      );
      expect(error.code).toBe('conflict');
      expect(error.message).toContain('2027-11-10 to 2027-11-13');
      expect(error.message).toContain(
        `reservation ${first.id} for Grace Hopper, check-in 2027-11-08, check-out 2027-11-11`,
      );
      expect(await world.context.domain.reservations.get(world.owner, second.id)).toEqual(before);
      expect(await statuses('2027-11-10', '2027-11-10')).toEqual([['2027-11-10', 'booked', first.id]]);
      expect(await latestAuditId(world)).toBe(audit);
    });

    it('refuses bad input, unknown or foreign ids, and finished reservations', async () => {
      const stay = await book('2027-11-22', '2027-11-25');
      const audit = await latestAuditId(world);
      const invalid: [Record<string, unknown>, string][] = [
        [{}, 'at least one'],
        [{ endDate: '2027-11-20' }, 'endDate'],
        [{ guestPrice: 12.345 }, '12.345'],
        [{ adults: 0 }, 'adults'],
        // Moving the check-in before the listing's today rewrites history: refused like a new booking.
        [{ startDate: '2026-06-10', endDate: '2026-06-13' }, 'today is 2026-06-15'],
      ];
      for (const [change, names] of invalid) {
        const error = errorOf(await world.call(updateReservationTool, { reservationId: stay.id, ...change }));
        expect(error.code, JSON.stringify(change)).toBe('invalid_argument');
        expect(error.message).toContain(names);
      }
      for (const reservationId of ['res_nope', world.foreign.reservationId]) {
        const error = errorOf(await world.call(updateReservationTool, { reservationId, notes: 'x' }));
        expect(error.code).toBe('not_found');
        expect(error.message).toContain(reservationId);
      }
      const [cancelled] = await reservationsFrom(world, '2026-06-15', { statuses: ['cancelled'] });
      if (cancelled === undefined) throw new Error('the demo has no cancelled reservation');
      const finished = errorOf(
        await world.call(updateReservationTool, { reservationId: cancelled.id, notes: 'too late' }),
      );
      expect(finished.code).toBe('failed_precondition');
      expect(finished.message).toContain('cancelled');
      expect(await latestAuditId(world)).toBe(audit);
    });
  });

  describe('cancel_reservation', () => {
    it('cancels a direct booking for good and frees its nights', async () => {
      const stay = await book('2027-12-20', '2027-12-23');
      const reservation = outputOf(
        await world.call(cancelReservationTool, {
          reservationId: stay.id,
          cancelledBy: 'guest',
          reason: 'Flight cancelled',
        }),
        cancelReservationTool.output,
      );
      expect(reservation).toMatchObject({ id: stay.id, status: 'cancelled', cancelledBy: 'guest' });
      expect(reservation.cancelledAt).toBe(world.clock.now().toISOString());
      expect(await world.context.domain.reservations.get(world.owner, stay.id)).toEqual(reservation);
      expect(await statuses('2027-12-20', '2027-12-22')).toEqual([
        ['2027-12-20', 'available', null],
        ['2027-12-21', 'available', null],
        ['2027-12-22', 'available', null],
      ]);
      const entry = await expectAuditedOnce(world, 'reservation.cancel', stay.id);
      expect(entry.details).toMatchObject({ cancelledBy: 'guest', reason: 'Flight cancelled' });

      const again = errorOf(await world.call(cancelReservationTool, { reservationId: stay.id }));
      expect(again.code).toBe('failed_precondition');
      expect(await world.context.domain.reservations.get(world.owner, stay.id)).toEqual(reservation);
    });

    it('refuses a channel booking, telling to cancel it on the channel, and keeps it booked', async () => {
      const booking = (
        await reservationsFrom(world, '2026-07-01', { listingId, statuses: ['accepted'] })
      ).find((reservation) => reservation.channel === 'airbnb');
      if (booking === undefined) throw new Error('the demo has no future Airbnb booking at Seagrass');
      const before = await world.context.domain.reservations.get(world.owner, booking.id);
      const audit = await latestAuditId(world);

      const error = errorOf(await world.call(cancelReservationTool, { reservationId: booking.id }));
      expect(error.code).toBe('failed_precondition');
      expect(error.message).toContain('Airbnb');
      expect(error.details).toEqual({ reservationId: booking.id, channel: 'airbnb' });
      expect(await world.context.domain.reservations.get(world.owner, booking.id)).toEqual(before);
      expect(await statuses(booking.startDate, booking.startDate)).toEqual([
        [booking.startDate, 'booked', booking.id],
      ]);
      expect(await latestAuditId(world)).toBe(audit);
    });

    it('refuses bad input as invalid_argument and unknown or foreign ids as not_found', async () => {
      const stay = await book('2027-12-27', '2027-12-30');
      const invalid = errorOf(
        await world.call(cancelReservationTool, { reservationId: stay.id, cancelledBy: 'channel' }),
      );
      expect(invalid.code).toBe('invalid_argument');
      expect(invalid.message).toContain('cancelledBy');
      for (const reservationId of ['res_nope', world.foreign.reservationId]) {
        const error = errorOf(await world.call(cancelReservationTool, { reservationId }));
        expect(error.code).toBe('not_found');
      }
      expect((await world.context.domain.reservations.get(world.owner, stay.id)).status).toBe('accepted');
    });
  });
});
