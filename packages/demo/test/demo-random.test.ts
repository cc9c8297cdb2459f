import { describe, expect, it } from 'vitest';
import { createIdMaker, createRandom, permuteBits, weightTable } from '../src/demo-random.ts';
import { addMonths, createZoneTime, dateOfDay, epochDay, weekdayOf } from '../src/demo-time.ts';

describe('demo random source', () => {
  it('repeats the same stream for the same key and differs for another key', () => {
    const draw = (key: (number | string)[]) => {
      const rng = createRandom(key);
      return Array.from({ length: 5 }, () => rng.uint32());
    };
    expect(draw([1, 'stays', 7])).toEqual(draw([1, 'stays', 7]));
    expect(draw([1, 'stays', 7])).not.toEqual(draw([1, 'stays', 8]));
    expect(draw([1, 'stays', 7])).not.toEqual(draw([2, 'stays', 7]));
  });

  it('stays inside the asked ranges and follows the weights', () => {
    const rng = createRandom([42]);
    const table = weightTable([
      ['a', 3],
      ['b', 1],
    ]);
    let a = 0;
    for (let index = 0; index < 20_000; index += 1) {
      const value = rng.int(3, 6);
      expect(value).toBeGreaterThanOrEqual(3);
      expect(value).toBeLessThanOrEqual(6);
      if (rng.fromTable(table) === 'a') a += 1;
    }
    // 3 : 1 weights → 75% "a"; 20,000 draws put the share within a percent of it.
    expect(a / 20_000).toBeGreaterThan(0.74);
    expect(a / 20_000).toBeLessThan(0.76);
  });

  it('permutes: every input below 2^bits maps to a distinct output below 2^bits', () => {
    const seen = new Set<number>();
    for (let value = 0; value < 2 ** 12; value += 1) {
      const out = permuteBits(value, 12, 99);
      expect(out).toBeLessThan(2 ** 12);
      seen.add(out);
    }
    expect(seen.size).toBe(2 ** 12);
  });

  it('makes well-formed ids that never collide across scopes and serials', () => {
    const makeId = createIdMaker(1);
    const ids = new Set<string>();
    for (let scope = 0; scope < 50; scope += 1) {
      for (let serial = 0; serial < 200; serial += 1) ids.add(makeId('reservation', scope, serial));
    }
    expect(ids.size).toBe(10_000);
    for (const id of ids) expect(id).toMatch(/^res_[0-9a-hjkmnp-tv-z]{16}$/);
    expect(makeId('listing', 3, 4)).toBe(createIdMaker(1)('listing', 3, 4));
    expect(makeId('listing', 3, 4)).not.toBe(createIdMaker(2)('listing', 3, 4));
  });
});

describe('demo time helpers', () => {
  it('counts days and weekdays like the calendar', () => {
    expect(dateOfDay(epochDay('2026-03-01') - 1)).toBe('2026-02-28');
    expect(weekdayOf(epochDay('2026-11-21'))).toBe(6); // a Saturday
    expect(dateOfDay(addMonths(epochDay('2026-01-31'), 1))).toBe('2026-02-28');
  });

  it('turns local wall-clock times into instants across daylight-saving changes', () => {
    const lisbon = createZoneTime('Europe/Lisbon');
    // Lisbon is UTC+0 in winter and UTC+1 in summer.
    expect(new Date(lisbon.instant(epochDay('2026-01-15'), 10 * 60)).toISOString()).toBe(
      '2026-01-15T10:00:00.000Z',
    );
    expect(new Date(lisbon.instant(epochDay('2026-07-15'), 10 * 60)).toISOString()).toBe(
      '2026-07-15T09:00:00.000Z',
    );
    const denver = createZoneTime('America/Denver');
    // 23:30 in Denver on 1 July is 05:30 UTC the next day, still 1 July locally.
    const late = denver.instant(epochDay('2026-07-01'), 23 * 60 + 30);
    expect(new Date(late).toISOString()).toBe('2026-07-02T05:30:00.000Z');
    expect(dateOfDay(denver.localDay(late))).toBe('2026-07-01');
  });
});
