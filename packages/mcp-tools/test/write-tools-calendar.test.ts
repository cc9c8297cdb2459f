import { addDays } from '@innkeep/domain';
import { testDatabaseKinds } from '@innkeep/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setAvailabilityTool } from '../src/tools/calendar/set-availability.tool.ts';
import { setPricesTool } from '../src/tools/calendar/set-prices.tool.ts';
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

describe.each(testDatabaseKinds)('calendar write tools (%s)', (kind) => {
  let world: WriteWorld;

  beforeAll(async () => {
    world = await openWriteWorld(kind);
  }, 120_000);

  afterAll(async () => {
    await world?.close();
  });

  const calendar = (listingId: string, startDate: string, endDate: string) =>
    world.context.domain.calendar.get(world.owner, { listingId, startDate, endDate });

  describe('set_prices', () => {
    it('sets a price, a channel price and restrictions, and the calendar shows them', async () => {
      const listing = await listingNamed(world, 'Blue Heron');
      // Tuesday and Wednesday nights in October 2027: open, and no demo pricing rule touches them.
      const before = await calendar(listing.id, '2027-10-05', '2027-10-06');
      for (const day of before.days) expect(day).toMatchObject({ status: 'available', appliedRuleIds: [] });
      expect(listing.minPrice ?? 0).toBeLessThan(287.5);

      const result = await world.call(setPricesTool, {
        listingId: listing.id,
        prices: [
          { date: '2027-10-05', price: 287.5 },
          { date: '2027-10-05', channel: 'airbnb', price: 301.25 },
          { date: '2027-10-06', minNights: 4, closedToArrival: true },
        ],
      });
      const output = outputOf(result, setPricesTool.output);
      expect(output).toMatchObject({ listingId: listing.id, currency: 'USD', timeZone: 'America/Chicago' });
      expect(output.days.map((day) => day.date)).toEqual(['2027-10-05', '2027-10-06']);

      const after = await calendar(listing.id, '2027-10-05', '2027-10-06');
      expect(after.days).toEqual(output.days.map(({ priceOutcomes: _outcomes, ...day }) => day));
      expect(after.days[0]).toMatchObject({
        price: 287.5,
        channelPrices: { airbnb: 301.25 },
        minNights: listing.minNights,
        closedToArrival: false,
      });
      expect(after.days[1]).toMatchObject({
        price: before.days[1]?.price,
        channelPrices: {},
        minNights: 4,
        closedToArrival: true,
        closedToDeparture: false,
      });
      const entry = await expectAuditedOnce(world, 'calendar.set_prices', listing.id);
      expect(entry.details).toMatchObject({ prices: [{ date: '2027-10-05', price: 287.5 }, {}, {}] });
    });

    it('says per date what a guest pays and which pricing rule or minimum price made the difference', async () => {
      const listing = await listingNamed(world, 'Blue Heron');
      const dates = ['2027-11-09', '2027-11-10'];
      for (const day of (await calendar(listing.id, '2027-11-09', '2027-11-10')).days) {
        expect(day).toMatchObject({ status: 'available', appliedRuleIds: [] });
      }
      const { domain } = world.context;
      await domain.listings.update(world.owner, { listingId: listing.id, minPrice: 66 });
      const rule = await domain.pricing.createRule(world.owner, {
        name: 'November 20% off',
        adjustment: { kind: 'percent', amount: -20 },
        listingIds: [listing.id],
        startDate: '2027-11-09',
        endDate: '2027-11-10',
      });
      const byRule = (priceAfter: number) => ({
        by: 'pricing_rule',
        ruleId: rule.id,
        name: 'November 20% off',
        priceAfter,
      });
      const byMinimum = { by: 'minimum_price', name: 'the listing’s minimum price', priceAfter: 66 };

      const output = outputOf(
        await world.call(setPricesTool, {
          listingId: listing.id,
          prices: [
            { date: '2027-11-09', price: 321.5 },
            { date: '2027-11-10', price: 1 },
            { date: '2027-11-10', channel: 'airbnb', price: 50 },
          ],
        }),
        setPricesTool.output,
      );
      expect(output.days.map((day) => [day.date, day.price, day.priceOutcomes])).toEqual([
        [
          '2027-11-09',
          257.2,
          [{ askedPrice: 321.5, storedPrice: 321.5, guestPrice: 257.2, steps: [byRule(257.2)] }],
        ],
        [
          '2027-11-10',
          66,
          [
            { askedPrice: 1, storedPrice: 1, guestPrice: 66, steps: [byRule(0.8), byMinimum] },
            // A channel's own price takes no rules, only the floor.
            { channel: 'airbnb', askedPrice: 50, storedPrice: 50, guestPrice: 66, steps: [byMinimum] },
          ],
        ],
      ]);
      const after = await calendar(listing.id, '2027-11-09', '2027-11-10');
      expect(after.days.map((day) => [day.date, day.price, day.channelPrices])).toEqual([
        [dates[0], 257.2, {}],
        [dates[1], 66, { airbnb: 66 }],
      ]);
    });

    it('refuses a batch with a past date as a whole, naming the date', async () => {
      const listing = await listingNamed(world, 'Blue Heron');
      const before = await calendar(listing.id, '2027-10-12', '2027-10-12');
      const audit = await latestAuditId(world);

      const error = errorOf(
        await world.call(setPricesTool, {
          listingId: listing.id,
          prices: [
            { date: '2027-10-12', price: 500 },
            { date: '2026-06-01', price: 500 },
          ],
        }),
      );
      expect(error.code).toBe('invalid_argument');
      expect(error.message).toContain('2026-06-01');
      expect(error.message).toContain('2026-06-15');

      expect(await calendar(listing.id, '2027-10-12', '2027-10-12')).toEqual(before);
      expect(await latestAuditId(world)).toBe(audit);
    });

    it('refuses bad amounts and dates as invalid_argument', async () => {
      const listing = await listingNamed(world, 'Blue Heron');
      const audit = await latestAuditId(world);
      const refusals = [
        { prices: [{ date: '2027-10-12', price: -10 }], names: 'price' },
        { prices: [{ date: '2027-10-12', price: 99.999 }], names: '99.999' },
        { prices: [{ date: '2027-02-30', price: 100 }], names: 'date' },
        { prices: [{ date: '2027-10-12' }], names: 'at least one' },
        { prices: [], names: 'prices' },
      ];
      for (const { prices, names } of refusals) {
        const error = errorOf(await world.call(setPricesTool, { listingId: listing.id, prices }));
        expect(error.code, JSON.stringify(prices)).toBe('invalid_argument');
        expect(error.message).toContain(names);
      }
      expect(await latestAuditId(world)).toBe(audit);
    });

    it('answers not_found for unknown listings and for another account’s listing', async () => {
      for (const listingId of ['lst_nope', world.foreign.listingId]) {
        const error = errorOf(
          await world.call(setPricesTool, { listingId, prices: [{ date: '2027-10-12', price: 100 }] }),
        );
        expect(error.code).toBe('not_found');
        expect(error.message).toContain(listingId);
      }
    });
  });

  describe('set_availability', () => {
    it('blocks inclusive nights and opens one of them again', async () => {
      const listing = await listingNamed(world, 'Salt Air');
      const before = await calendar(listing.id, '2027-10-10', '2027-10-14');
      for (const day of before.days) expect(day.status).toBe('available');

      const blocked = outputOf(
        await world.call(setAvailabilityTool, {
          listingId: listing.id,
          startDate: '2027-10-11',
          endDate: '2027-10-13',
          available: false,
          reason: 'owner',
          note: 'Family visit',
        }),
        setAvailabilityTool.output,
      );
      // 11, 12 and 13 October: the end date is a night too.
      expect(blocked).toEqual({
        listingId: listing.id,
        startDate: '2027-10-11',
        endDate: '2027-10-13',
        available: false,
        changedNights: 3,
        stillBookedNights: [],
      });
      const afterBlock = await calendar(listing.id, '2027-10-10', '2027-10-14');
      expect(afterBlock.days.map((day) => [day.date, day.status, day.blockReason, day.note])).toEqual([
        ['2027-10-10', 'available', null, null],
        ['2027-10-11', 'blocked', 'owner', 'Family visit'],
        ['2027-10-12', 'blocked', 'owner', 'Family visit'],
        ['2027-10-13', 'blocked', 'owner', 'Family visit'],
        ['2027-10-14', 'available', null, null],
      ]);
      const entry = await expectAuditedOnce(world, 'calendar.set_availability', listing.id);
      expect(entry.details).toMatchObject({
        startDate: '2027-10-11',
        endDate: '2027-10-13',
        available: false,
      });

      const opened = outputOf(
        await world.call(setAvailabilityTool, {
          listingId: listing.id,
          startDate: '2027-10-12',
          endDate: '2027-10-12',
          available: true,
        }),
        setAvailabilityTool.output,
      );
      expect(opened).toMatchObject({ available: true, changedNights: 1, stillBookedNights: [] });
      const afterOpen = await calendar(listing.id, '2027-10-11', '2027-10-13');
      expect(afterOpen.days.map((day) => day.status)).toEqual(['blocked', 'available', 'blocked']);
    });

    it('refuses to block over a reservation, naming it and its dates, and changes nothing', async () => {
      const listing = await listingNamed(world, 'Salt Air');
      const [stay] = await reservationsFrom(world, '2026-07-01', {
        listingId: listing.id,
        statuses: ['accepted'],
      });
      if (stay === undefined) throw new Error('the demo has no future booking at Salt Air');
      const lastNight = addDays(stay.endDate, -1);
      const before = await calendar(listing.id, stay.startDate, lastNight);
      const audit = await latestAuditId(world);

      const error = errorOf(
        await world.call(setAvailabilityTool, {
          listingId: listing.id,
          startDate: stay.startDate,
          endDate: lastNight,
          available: false,
        }),
      );
      expect(error.code).toBe('conflict');
      expect(error.message).toContain(stay.id);
      expect(error.message).toContain(`check-in ${stay.startDate}`);
      expect(error.message).toContain(`check-out ${stay.endDate}`);
      expect(error.details?.clashes).toEqual([
        {
          startDate: stay.startDate,
          endDate: stay.endDate,
          kind: 'reservation',
          reservationId: stay.id,
          blockReason: null,
        },
      ]);
      expect(await calendar(listing.id, stay.startDate, lastNight)).toEqual(before);
      expect(await latestAuditId(world)).toBe(audit);
    });

    it('opening a booked range leaves the reservation and reports its nights', async () => {
      const listing = await listingNamed(world, 'Salt Air');
      const stay = (
        await reservationsFrom(world, '2026-08-01', { listingId: listing.id, statuses: ['accepted'] })
      ).find((reservation) => reservation.nights === 3);
      if (stay === undefined) throw new Error('the demo has no future 3-night booking at Salt Air');
      const nights = [stay.startDate, addDays(stay.startDate, 1), addDays(stay.startDate, 2)];

      const output = outputOf(
        await world.call(setAvailabilityTool, {
          listingId: listing.id,
          startDate: stay.startDate,
          endDate: nights[2],
          available: true,
        }),
        setAvailabilityTool.output,
      );
      expect(output).toMatchObject({ changedNights: 0, stillBookedNights: nights });
      const after = await calendar(listing.id, stay.startDate, addDays(stay.endDate, -1));
      expect(after.days.map((day) => [day.status, day.reservationId])).toEqual(
        nights.map(() => ['booked', stay.id]),
      );
    });

    it('refuses bad ranges as invalid_argument and unknown or foreign listings as not_found', async () => {
      const listing = await listingNamed(world, 'Salt Air');
      const audit = await latestAuditId(world);
      const invalid = [
        { startDate: '2027-10-20', endDate: '2027-10-19', available: false, names: 'endDate' },
        { startDate: '2026-06-01', endDate: '2026-06-20', available: false, names: '2026-06-01' },
        { startDate: '2027-10-20', endDate: '2027-10-21', names: 'available' },
        { startDate: '2027-10-20', endDate: '2030-12-31', available: false, names: '1125' },
      ];
      for (const { names, ...args } of invalid) {
        const error = errorOf(await world.call(setAvailabilityTool, { listingId: listing.id, ...args }));
        expect(error.code, names).toBe('invalid_argument');
        expect(error.message).toContain(names);
      }
      for (const listingId of ['lst_nope', world.foreign.listingId]) {
        const error = errorOf(
          await world.call(setAvailabilityTool, {
            listingId,
            startDate: '2027-10-20',
            endDate: '2027-10-21',
            available: false,
          }),
        );
        expect(error.code).toBe('not_found');
      }
      expect(await latestAuditId(world)).toBe(audit);
    });
  });
});
