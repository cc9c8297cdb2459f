import { addDays, DomainError } from '@innkeep/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readResource } from '../src/resources/resource-definition.ts';
import { openToolWorld, type ToolWorld, worldToday } from './support/tool-world.ts';

/** The error `promise` rejects with; fails the test when it resolves. */
async function failure(promise: Promise<unknown>): Promise<DomainError> {
  const outcome = await promise.then(
    () => new Error('expected a failure'),
    (thrown: unknown) => thrown,
  );
  if (!(outcome instanceof DomainError)) throw outcome;
  return outcome;
}

describe('resources on the demo account', () => {
  let world: ToolWorld;

  beforeAll(async () => {
    world = await openToolWorld();
  });

  afterAll(async () => {
    await world?.close();
  });

  const read = async (uri: string) => {
    const result = await readResource(uri, world.context);
    expect(result.contents).toHaveLength(1);
    expect(result.contents[0]).toMatchObject({ uri, mimeType: 'application/json' });
    return JSON.parse(result.contents[0]?.text ?? '') as unknown;
  };

  it('service://user is the signed-in owner and the account', async () => {
    const { actor, domain } = world.context;
    expect(await read('service://user')).toEqual(await domain.identity.getUser(actor));
  });

  it('service://listings summarises every listing, by name, with every field', async () => {
    const { actor, domain } = world.context;
    const { items } = await domain.listings.list(actor, { limit: 500 });
    expect(items).toHaveLength(12);
    expect(await read('service://listings')).toEqual({
      total: 12,
      complete: true,
      fields: ['id', 'name', 'city', 'timeZone', 'currency', 'basePrice', 'enabled'],
      listings: items.map(({ id, name, city, timeZone, currency, basePrice, enabled }) => ({
        id,
        name,
        city,
        timeZone,
        currency,
        basePrice,
        enabled,
      })),
    });
  });

  it('service://listings/{listingId} is the full listing, also with a percent-encoded id', async () => {
    const { actor, domain } = world.context;
    const { items } = await domain.listings.list(actor, { limit: 1 });
    const id = items[0]?.id ?? '';
    const expected = await domain.listings.get(actor, id);
    expect(await read(`service://listings/${id}`)).toEqual(expected);
    const encoded = `service://listings/${id.replace('_', '%5F')}`;
    expect(await read(encoded)).toEqual(expected);

    const missing = await failure(readResource('service://listings/lst_nope', world.context));
    expect(missing.code).toBe('not_found');
  });

  it('the calendar template reads up to 92 days, both ends included', async () => {
    const { actor, domain } = world.context;
    const { items } = await domain.listings.list(actor, { limit: 1 });
    const id = items[0]?.id ?? '';
    const uri = `service://listings/${id}/calendar/2026-06-15/2026-06-21`;
    const calendar = (await read(uri)) as { listingId: string; days: { date: string }[] };
    expect(calendar).toEqual(
      await domain.calendar.get(actor, { listingId: id, startDate: '2026-06-15', endDate: '2026-06-21' }),
    );
    expect(calendar.days.map((day) => day.date)).toEqual([
      '2026-06-15',
      '2026-06-16',
      '2026-06-17',
      '2026-06-18',
      '2026-06-19',
      '2026-06-20',
      '2026-06-21',
    ]);
    // 2026-06-15 + 91 days = 2026-09-14: 92 days in all.
    const longest = (await read(`service://listings/${id}/calendar/2026-06-15/2026-09-14`)) as {
      days: unknown[];
    };
    expect(longest.days).toHaveLength(92);
  });

  it('refuses malformed calendar ranges with invalid_argument naming the problem', async () => {
    const { actor, domain } = world.context;
    const { items } = await domain.listings.list(actor, { limit: 1 });
    const base = `service://listings/${items[0]?.id ?? ''}/calendar`;
    const tooLong = await failure(readResource(`${base}/2026-06-15/2026-09-15`, world.context));
    expect(tooLong.code).toBe('invalid_argument');
    expect(tooLong.message).toContain('93');
    const backwards = await failure(readResource(`${base}/2026-06-15/2026-06-14`, world.context));
    expect(backwards.code).toBe('invalid_argument');
    expect(backwards.message).toContain('endDate');
    const notADate = await failure(readResource(`${base}/2026-02-30/2026-03-02`, world.context));
    expect(notADate.code).toBe('invalid_argument');
    expect(notADate.message).toContain('startDate');
    const words = await failure(readResource(`${base}/today/tomorrow`, world.context));
    expect(words.code).toBe('invalid_argument');

    const unknownListing = await failure(
      readResource(
        `service://listings/lst_nope/calendar/${worldToday}/${addDays(worldToday, 1)}`,
        world.context,
      ),
    );
    expect(unknownListing.code).toBe('not_found');
  });

  it('service://reservations/{reservationId} is the reservation with its price breakdown', async () => {
    const { actor, domain } = world.context;
    const { items } = await domain.reservations.list(actor, { startDate: worldToday, limit: 1 });
    const id = items[0]?.id ?? '';
    const reservation = (await read(`service://reservations/${id}`)) as { lineItems: unknown[] };
    expect(reservation).toEqual(await domain.reservations.get(actor, id));
    expect(reservation.lineItems.length).toBeGreaterThan(0);

    const missing = await failure(readResource('service://reservations/res_nope', world.context));
    expect(missing.code).toBe('not_found');
  });

  it('answers not_found for URIs no resource matches, and hints at a trailing slash', async () => {
    const unknown = await failure(readResource('service://guests', world.context));
    expect(unknown.code).toBe('not_found');
    expect(unknown.message).toContain('service://listings/{listingId}');
    const slash = await failure(readResource('service://user/', world.context));
    expect(slash.code).toBe('not_found');
    expect(slash.message).toContain('trailing slash');
    expect((await failure(readResource('https://example.com/', world.context))).code).toBe('not_found');
  });
});
