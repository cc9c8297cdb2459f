import { testDatabaseKinds } from '@innkeep/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateListingTool } from '../src/tools/listings/update-listing.tool.ts';
import { createPricingRuleTool } from '../src/tools/rules/create-pricing-rule.tool.ts';
import {
  errorOf,
  expectAuditedOnce,
  latestAuditId,
  listingNamed,
  openWriteWorld,
  outputOf,
  type WriteWorld,
} from './write-tools-support.ts';

describe.each(testDatabaseKinds)('listing and pricing write tools (%s)', (kind) => {
  let world: WriteWorld;

  beforeAll(async () => {
    world = await openWriteWorld(kind);
  }, 120_000);

  afterAll(async () => {
    await world?.close();
  });

  describe('update_listing', () => {
    it('refuses a misspelt argument, naming it and every argument it takes, and changes nothing', async () => {
      const before = await listingNamed(world, 'Tidewater');
      const audit = await latestAuditId(world);
      const error = errorOf(
        await world.call(updateListingTool, { listingId: before.id, nickname: 'LX-001', basePrise: 120 }),
      );
      expect(error.code).toBe('invalid_argument');
      expect(error.message).toContain('Unknown argument basePrise');
      expect(error.message).toContain('update_listing takes: listingId, name, nickname, basePrice, minPrice');
      expect(await world.context.domain.listings.get(world.owner, before.id)).toEqual(before);
      expect(await latestAuditId(world)).toBe(audit);
    });

    it('changes only the settings given', async () => {
      const before = await listingNamed(world, 'Tidewater');
      const listing = outputOf(
        await world.call(updateListingTool, {
          listingId: before.id,
          nickname: 'Tidewater 601',
          cleaningFee: 95.5,
          minNights: 4,
          checkInTime: 15,
          weeklyDiscount: 7.5,
        }),
        updateListingTool.output,
      );
      expect(listing).toEqual({
        ...before,
        nickname: 'Tidewater 601',
        cleaningFee: 95.5,
        minNights: 4,
        checkInTime: 15,
        weeklyDiscount: 7.5,
        updatedAt: listing.updatedAt,
      });
      expect(await world.context.domain.listings.get(world.owner, before.id)).toEqual(listing);
      const entry = await expectAuditedOnce(world, 'listing.update', before.id);
      expect(entry.details).toEqual({
        changed: {
          nickname: 'Tidewater 601',
          cleaningFee: 95.5,
          minNights: 4,
          checkInTime: 15,
          weeklyDiscount: 7.5,
        },
      });
    });

    it('refuses bad settings as invalid_argument and unknown or foreign listings as not_found', async () => {
      const before = await listingNamed(world, 'Quandary');
      expect(before.maxNights).toBe(90);
      const audit = await latestAuditId(world);
      const invalid: [Record<string, unknown>, string][] = [
        [{}, 'at least one'],
        [{ minNights: 91 }, 'maxNights (90)'],
        [{ basePrice: -5 }, 'basePrice'],
        [{ cleaningFee: 10.555 }, '10.555'],
        [{ taxRate: 101 }, 'taxRate'],
        [{ checkInTime: 24 }, 'checkInTime'],
      ];
      for (const [change, names] of invalid) {
        const error = errorOf(await world.call(updateListingTool, { listingId: before.id, ...change }));
        expect(error.code, JSON.stringify(change)).toBe('invalid_argument');
        expect(error.message).toContain(names);
      }
      for (const listingId of ['lst_nope', world.foreign.listingId]) {
        const error = errorOf(await world.call(updateListingTool, { listingId, basePrice: 100 }));
        expect(error.code).toBe('not_found');
        expect(error.message).toContain(listingId);
      }
      expect(await world.context.domain.listings.get(world.owner, before.id)).toEqual(before);
      expect(await latestAuditId(world)).toBe(audit);
    });
  });

  describe('create_pricing_rule', () => {
    it('adds a rule after the others that raises the matching nights only', async () => {
      const listing = await listingNamed(world, 'Quandary');
      const { domain } = world.context;
      const existing = (await domain.pricing.listRules(world.owner, { limit: 500 })).items;
      // Monday 4 to Thursday 7 October 2027.
      const week = { listingId: listing.id, startDate: '2027-10-04', endDate: '2027-10-07' };
      const before = await domain.calendar.get(world.owner, week);

      const rule = outputOf(
        await world.call(createPricingRuleTool, {
          name: 'October midweek +10%',
          adjustment: { kind: 'percent', amount: 10 },
          listingIds: [listing.id],
          daysOfWeek: [2, 3],
          startDate: '2027-10-01',
          endDate: '2027-10-31',
        }),
        createPricingRuleTool.output,
      );
      expect(rule).toMatchObject({
        name: 'October midweek +10%',
        position: Math.max(...existing.map((candidate) => candidate.position)) + 1,
        enabled: true,
        listingIds: [listing.id],
        adjustment: { kind: 'percent', amount: 10 },
        daysOfWeek: [2, 3],
        startDate: '2027-10-01',
        endDate: '2027-10-31',
        lastMinuteDays: null,
        orphanGapMaxNights: null,
      });
      expect((await domain.pricing.listRules(world.owner, { limit: 500 })).items.at(-1)).toEqual(rule);

      const after = await domain.calendar.get(world.owner, week);
      const raised = (price: number) => Math.round((Math.round(price * 100) * 110) / 100) / 100;
      expect(after.days.map((day) => day.price)).toEqual(
        before.days.map((day, index) => (index === 1 || index === 2 ? raised(day.price) : day.price)),
      );
      expect(after.days.map((day) => day.appliedRuleIds.includes(rule.id))).toEqual([
        false,
        true,
        true,
        false,
      ]);
      await expectAuditedOnce(world, 'pricing_rule.create', rule.id);
    });

    it('refuses bad terms as invalid_argument and foreign listings as not_found, adding nothing', async () => {
      const listing = await listingNamed(world, 'Wildernest');
      const { domain } = world.context;
      const rules = await domain.pricing.listRules(world.owner, { limit: 500 });
      const days = { listingId: listing.id, startDate: '2027-10-04', endDate: '2027-10-10' };
      const calendar = await domain.calendar.get(world.owner, days);
      const audit = await latestAuditId(world);
      const rule = {
        name: 'Bad rule',
        adjustment: { kind: 'percent', amount: -10 },
        listingIds: [listing.id],
      };
      const invalid: [Record<string, unknown>, string][] = [
        [{ adjustment: { kind: 'percent', amount: 0 } }, 'changes nothing'],
        [{ adjustment: { kind: 'percent', amount: 600 } }, 'adjustment.amount'],
        [{ adjustment: { kind: 'fixed', amount: 5.555 } }, 'adjustment.amount'],
        [{ adjustment: { kind: 'double', amount: 2 } }, 'adjustment.kind'],
        [{ startDate: '2027-10-10', endDate: '2027-10-01' }, 'endDate'],
        [{ daysOfWeek: [1, 1] }, 'daysOfWeek'],
        [{ daysOfWeek: [7] }, 'daysOfWeek'],
        [{ lastMinuteDays: -1 }, 'lastMinuteDays'],
      ];
      for (const [change, names] of invalid) {
        const error = errorOf(await world.call(createPricingRuleTool, { ...rule, ...change }));
        expect(error.code, JSON.stringify(change)).toBe('invalid_argument');
        expect(error.message).toContain(names);
      }
      for (const listingId of ['lst_nope', world.foreign.listingId]) {
        const error = errorOf(
          await world.call(createPricingRuleTool, { ...rule, listingIds: [listing.id, listingId] }),
        );
        expect(error.code).toBe('not_found');
        expect(error.message).toContain(listingId);
        expect(error.message).not.toContain(listing.id);
      }
      expect(await domain.pricing.listRules(world.owner, { limit: 500 })).toEqual(rules);
      expect(await domain.calendar.get(world.owner, days)).toEqual(calendar);
      expect(await latestAuditId(world)).toBe(audit);
    });
  });
});
