import { DomainError } from '@innkeep/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CompletionRef, complete, completionScopes } from '../src/completions/complete.ts';
import { openToolWorld, type ToolWorld, worldToday } from './support/tool-world.ts';

const listingRef: CompletionRef = { type: 'ref/resource', uri: 'service://listings/{listingId}' };
const calendarRef: CompletionRef = {
  type: 'ref/resource',
  uri: 'service://listings/{listingId}/calendar/{startDate}/{endDate}',
};
const reservationRef: CompletionRef = { type: 'ref/resource', uri: 'service://reservations/{reservationId}' };
const guestResponseRef: CompletionRef = { type: 'ref/prompt', name: 'guest_response' };
const pricingReviewRef: CompletionRef = { type: 'ref/prompt', name: 'pricing_review' };

/** The error `promise` rejects with; fails the test when it resolves. */
async function failure(promise: Promise<unknown>): Promise<DomainError> {
  const outcome = await promise.then(
    () => new Error('expected a failure'),
    (thrown: unknown) => thrown,
  );
  if (!(outcome instanceof DomainError)) throw outcome;
  return outcome;
}

describe('completionScopes', () => {
  it('asks listings:read for listing ids, reservations:read for reservation ids, nothing for free values', () => {
    expect(completionScopes(listingRef, 'listingId')).toEqual(['listings:read']);
    expect(completionScopes(calendarRef, 'listingId')).toEqual(['listings:read']);
    expect(completionScopes(pricingReviewRef, 'listingId')).toEqual(['listings:read']);
    expect(completionScopes(reservationRef, 'reservationId')).toEqual(['reservations:read']);
    expect(completionScopes(guestResponseRef, 'reservationId')).toEqual(['reservations:read']);
    expect(completionScopes(calendarRef, 'startDate')).toEqual([]);
    expect(completionScopes(guestResponseRef, 'intent')).toEqual([]);
    expect(completionScopes(listingRef, 'reservationId')).toBeNull();
    expect(completionScopes({ type: 'ref/prompt', name: 'nope' }, 'date')).toBeNull();
  });
});

describe('completions on the demo account', () => {
  let world: ToolWorld;

  beforeAll(async () => {
    world = await openToolWorld();
  });

  afterAll(async () => {
    await world?.close();
  });

  const listings = async () =>
    (await world.context.domain.listings.list(world.context.actor, { limit: 500 })).items;

  describe('listingId', () => {
    it('offers every listing id, by name, for an empty value', async () => {
      const all = await listings();
      for (const ref of [listingRef, calendarRef, pricingReviewRef]) {
        expect(await complete(ref, { name: 'listingId', value: '' }, world.context)).toEqual({
          values: all.map((listing) => listing.id),
          total: all.length,
          hasMore: false,
        });
      }
    });

    it('matches names and nicknames case-insensitively, prefix matches first, and returns ids', async () => {
      const all = await listings();
      const result = await complete(listingRef, { name: 'listingId', value: 'CONDO' }, world.context);
      const expected = all.filter((listing) => listing.name.toLowerCase().includes('condo'));
      expect(expected.length).toBeGreaterThan(1);
      expect([...result.values].sort()).toEqual(expected.map((listing) => listing.id).sort());
      expect(result.total).toBe(expected.length);

      const blue = await complete(listingRef, { name: 'listingId', value: 'blue' }, world.context);
      const startsBlue = all.filter((listing) => listing.name.toLowerCase().startsWith('blue'));
      expect(startsBlue.length).toBeGreaterThan(0);
      expect(blue.values.slice(0, startsBlue.length)).toEqual(startsBlue.map((listing) => listing.id));

      const byNickname = all.find((listing) => listing.nickname !== null);
      if (byNickname?.nickname == null) throw new Error('no nickname in the demo');
      const nick = await complete(
        listingRef,
        { name: 'listingId', value: byNickname.nickname },
        world.context,
      );
      expect(nick.values[0]).toBe(byNickname.id);
    });

    it('matches ids by prefix and finds nothing for text no listing has', async () => {
      const [first] = await listings();
      const prefix = first?.id.slice(0, 8) ?? '';
      const result = await complete(listingRef, { name: 'listingId', value: prefix }, world.context);
      expect(result.values[0]).toBe(first?.id);
      expect(await complete(listingRef, { name: 'listingId', value: 'zzzz-no-such' }, world.context)).toEqual(
        {
          values: [],
          total: 0,
          hasMore: false,
        },
      );
    });
  });

  describe('reservationId', () => {
    it('finds a stay by confirmation code and by guest name, current and upcoming stays before past ones', async () => {
      const { actor, domain } = world.context;
      const { items } = await domain.reservations.list(actor, {
        startDate: '2026-06-01',
        endDate: '2026-06-30',
        limit: 500,
      });
      const stay = items.find((candidate) => candidate.startDate >= worldToday);
      if (stay === undefined) throw new Error('no upcoming stay');
      const byCode = await complete(
        guestResponseRef,
        { name: 'reservationId', value: stay.confirmationCode.toLowerCase() },
        world.context,
      );
      expect(byCode.values[0]).toBe(stay.id);

      const byName = await complete(
        reservationRef,
        { name: 'reservationId', value: `${stay.guest.firstName} ${stay.guest.lastName}` },
        world.context,
      );
      expect(byName.values).toContain(stay.id);

      // A last name shared by a stay still to come and one already over: the one to come ranks first.
      const shared = items.find(
        (candidate) =>
          candidate.endDate < worldToday &&
          items.some(
            (other) => other.endDate >= worldToday && other.guest.lastName === candidate.guest.lastName,
          ),
      );
      if (shared === undefined) throw new Error('no shared last name in June');
      const sameName = await complete(
        guestResponseRef,
        { name: 'reservationId', value: shared.guest.lastName },
        world.context,
      );
      const upcoming = items.find(
        (other) => other.endDate >= worldToday && other.guest.lastName === shared.guest.lastName,
      );
      expect(sameName.values.indexOf(upcoming?.id ?? '')).toBeGreaterThanOrEqual(0);
      expect(sameName.values.indexOf(upcoming?.id ?? '')).toBeLessThan(sameName.values.indexOf(shared.id));
    });

    it('caps the values at 100 and says more exist', async () => {
      const result = await complete(reservationRef, { name: 'reservationId', value: '' }, world.context);
      expect(result.values).toHaveLength(100);
      expect(result.hasMore).toBe(true);
      expect(result.total ?? 0).toBeGreaterThan(100);
      expect(new Set(result.values).size).toBe(100);
    });

    it('completes the full id of an old stay outside the searched window to itself', async () => {
      const { actor, domain } = world.context;
      const { items } = await domain.reservations.list(actor, { endDate: '2024-12-31', limit: 1 });
      const old = items[0];
      if (old === undefined) throw new Error('no stay in 2024');
      const result = await complete(reservationRef, { name: 'reservationId', value: old.id }, world.context);
      expect(result.values).toEqual([old.id]);
      const unknown = await complete(
        reservationRef,
        { name: 'reservationId', value: 'res_nope' },
        world.context,
      );
      expect(unknown.values).toEqual([]);
    });
  });

  it('suggests nothing for free-form arguments', async () => {
    for (const [ref, name] of [
      [calendarRef, 'startDate'],
      [pricingReviewRef, 'endDate'],
      [guestResponseRef, 'intent'],
      [{ type: 'ref/prompt', name: 'daily_briefing' }, 'date'],
    ] as const) {
      expect(await complete(ref, { name, value: '2026' }, world.context)).toEqual({
        values: [],
        total: 0,
        hasMore: false,
      });
    }
  });

  it('refuses unknown refs and arguments with invalid_argument naming what exists', async () => {
    const unknownPrompt = await failure(
      complete({ type: 'ref/prompt', name: 'weekly_report' }, { name: 'date', value: '' }, world.context),
    );
    expect(unknownPrompt.code).toBe('invalid_argument');
    expect(unknownPrompt.message).toContain('daily_briefing');
    const unknownTemplate = await failure(
      complete(
        { type: 'ref/resource', uri: 'service://guests/{guestId}' },
        { name: 'guestId', value: '' },
        world.context,
      ),
    );
    expect(unknownTemplate.code).toBe('invalid_argument');
    expect(unknownTemplate.message).toContain('service://reservations/{reservationId}');
    const wrongArgument = await failure(
      complete(listingRef, { name: 'reservationId', value: '' }, world.context),
    );
    expect(wrongArgument.code).toBe('invalid_argument');
    expect(wrongArgument.message).toContain('listingId');
    const listedResource = await failure(
      complete({ type: 'ref/resource', uri: 'service://user' }, { name: 'id', value: '' }, world.context),
    );
    expect(listedResource.code).toBe('invalid_argument');
  });
});
