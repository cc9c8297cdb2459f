import { describe, expect, it } from 'vitest';
import {
  channelNightPrice,
  holdLookaround,
  type PricingInputs,
  type PricingRuleTerms,
  priceNights,
} from '../src/pricing/pricing-engine.ts';

// 2026-05-01 is a Friday. Base price $100.00 (10000 cents) unless a test says otherwise.
const noon = new Date('2026-04-20T16:00:00Z');

function rule(
  id: string,
  terms: Partial<PricingRuleTerms> & Pick<PricingRuleTerms, 'adjustment'>,
): PricingRuleTerms {
  return {
    id,
    enabled: true,
    listingIds: null,
    daysOfWeek: null,
    startDate: null,
    endDate: null,
    lastMinuteDays: null,
    orphanGapMaxNights: null,
    ...terms,
  };
}

function inputs(overrides: Partial<PricingInputs> = {}): PricingInputs {
  return {
    listingId: 'lst_a',
    currency: 'USD',
    timeZone: 'America/New_York',
    basePriceMinor: 10_000,
    minPriceMinor: null,
    rules: [],
    priceOverrides: new Map(),
    holds: [],
    now: noon,
    ...overrides,
  };
}

/** The fields of a night no rule and no floor changed. */
const unchanged = { appliedRuleIds: [], ruleSteps: [], floorApplied: false };

const prices = (input: PricingInputs, dates: string[]) => priceNights(input, dates).map((n) => n.priceMinor);

describe('pricing engine', () => {
  it('starts from the base price, or the per-date override which replaces it', () => {
    const result = priceNights(inputs({ priceOverrides: new Map([['2026-05-02', 13_500]]) }), [
      '2026-05-01',
      '2026-05-02',
    ]);
    expect(result).toEqual([
      { ...unchanged, date: '2026-05-01', priceMinor: 10_000, startMinor: 10_000 },
      { ...unchanged, date: '2026-05-02', priceMinor: 13_500, startMinor: 13_500 },
    ]);
  });

  it('applies a weekday rule only on its days (0 = Sunday)', () => {
    const weekend = rule('pru_weekend', { adjustment: { kind: 'percent', amount: 20 }, daysOfWeek: [5, 6] });
    const result = priceNights(inputs({ rules: [weekend] }), ['2026-05-01', '2026-05-02', '2026-05-03']);
    // Fri and Sat +20% of 100.00 = 120.00; Sunday untouched.
    expect(result.map((n) => n.priceMinor)).toEqual([12_000, 12_000, 10_000]);
    expect(result.map((n) => n.appliedRuleIds)).toEqual([['pru_weekend'], ['pru_weekend'], []]);
  });

  it('applies a date-range rule on both bounds inclusive and not outside them', () => {
    const may = rule('pru_may', {
      adjustment: { kind: 'fixed', amount: -15 },
      startDate: '2026-05-02',
      endDate: '2026-05-03',
    });
    expect(
      prices(inputs({ rules: [may] }), ['2026-05-01', '2026-05-02', '2026-05-03', '2026-05-04']),
    ).toEqual([10_000, 8_500, 8_500, 10_000]);
  });

  it('takes last-minute days from the listing-local today of the injected clock', () => {
    // 03:30 UTC on 10 March is 23:30 on 9 March in New York (EDT since 8 March): today is 2026-03-09.
    const now = new Date('2026-03-10T03:30:00Z');
    const lastMinute = rule('pru_late', { adjustment: { kind: 'percent', amount: -10 }, lastMinuteDays: 1 });
    const dates = ['2026-03-08', '2026-03-09', '2026-03-10', '2026-03-11'];
    expect(prices(inputs({ rules: [lastMinute], now }), dates)).toEqual([10_000, 9_000, 9_000, 10_000]);
    // The same instant is already 10 March in Lisbon (UTC+0): the window moves one day on.
    expect(prices(inputs({ rules: [lastMinute], now, timeZone: 'Europe/Lisbon' }), dates)).toEqual([
      10_000, 10_000, 9_000, 9_000,
    ]);
  });

  it('finds orphan gaps bounded on both sides, even when the gap runs past the priced dates', () => {
    const orphan = rule('pru_gap', { adjustment: { kind: 'percent', amount: -20 }, orphanGapMaxNights: 2 });
    // Held 1–4 May and 7–9 May: the open gap is the 5th and 6th, two nights.
    const holds = [
      { startDate: '2026-05-01', endDate: '2026-05-05' },
      { startDate: '2026-05-07', endDate: '2026-05-10' },
    ];
    // Pricing only the 6th: its gap starts before the priced range and still counts.
    expect(priceNights(inputs({ rules: [orphan], holds }), ['2026-05-06'])).toEqual([
      {
        date: '2026-05-06',
        priceMinor: 8_000,
        appliedRuleIds: ['pru_gap'],
        startMinor: 10_000,
        ruleSteps: [{ ruleId: 'pru_gap', priceAfterMinor: 8_000 }],
        floorApplied: false,
      },
    ]);
    // Held nights and nights outside the gap are not orphans.
    expect(
      prices(inputs({ rules: [orphan], holds }), ['2026-05-04', '2026-05-05', '2026-05-06', '2026-05-10']),
    ).toEqual([10_000, 8_000, 8_000, 10_000]);
    // A gap of 2 is too long for a rule that looks for 1.
    const tight = { ...orphan, orphanGapMaxNights: 1 };
    expect(prices(inputs({ rules: [tight], holds }), ['2026-05-05'])).toEqual([10_000]);
    // Open on one side only: not an orphan.
    expect(prices(inputs({ rules: [orphan], holds: holds.slice(0, 1) }), ['2026-05-05'])).toEqual([10_000]);
    // A three-night gap (5th–7th) is longer than 2.
    const wider = [
      { startDate: '2026-05-01', endDate: '2026-05-05' },
      { startDate: '2026-05-08', endDate: '2026-05-10' },
    ];
    expect(prices(inputs({ rules: [orphan], holds: wider }), ['2026-05-05', '2026-05-07'])).toEqual([
      10_000, 10_000,
    ]);
  });

  it('applies rules in the order given, each on the running price', () => {
    const tenPercent = rule('pru_pct', { adjustment: { kind: 'percent', amount: 10 } });
    const twentyDollars = rule('pru_fix', { adjustment: { kind: 'fixed', amount: 20 } });
    // 100 + 10% = 110, + 20 = 130.00
    expect(priceNights(inputs({ rules: [tenPercent, twentyDollars] }), ['2026-05-05'])[0]).toEqual({
      date: '2026-05-05',
      priceMinor: 13_000,
      appliedRuleIds: ['pru_pct', 'pru_fix'],
      startMinor: 10_000,
      ruleSteps: [
        { ruleId: 'pru_pct', priceAfterMinor: 11_000 },
        { ruleId: 'pru_fix', priceAfterMinor: 13_000 },
      ],
      floorApplied: false,
    });
    // 100 + 20 = 120, + 10% = 132.00
    expect(priceNights(inputs({ rules: [twentyDollars, tenPercent] }), ['2026-05-05'])[0]).toEqual({
      date: '2026-05-05',
      priceMinor: 13_200,
      appliedRuleIds: ['pru_fix', 'pru_pct'],
      startMinor: 10_000,
      ruleSteps: [
        { ruleId: 'pru_fix', priceAfterMinor: 12_000 },
        { ruleId: 'pru_pct', priceAfterMinor: 13_200 },
      ],
      floorApplied: false,
    });
  });

  it('floors the result at the minimum price and at zero, overrides included', () => {
    const half = rule('pru_half', { adjustment: { kind: 'percent', amount: -50 } });
    expect(prices(inputs({ rules: [half], minPriceMinor: 9_000 }), ['2026-05-05'])).toEqual([9_000]);
    expect(
      prices(inputs({ minPriceMinor: 9_000, priceOverrides: new Map([['2026-05-05', 7_000]]) }), [
        '2026-05-05',
      ]),
    ).toEqual([9_000]);
    const minus150 = rule('pru_big', { adjustment: { kind: 'fixed', amount: -150 } });
    expect(prices(inputs({ rules: [minus150] }), ['2026-05-05'])).toEqual([0]);
    // The floor comes after all rules: an intermediate negative price still gets the later uplift.
    const plus80 = rule('pru_up', { adjustment: { kind: 'fixed', amount: 80 } });
    expect(prices(inputs({ rules: [minus150, plus80] }), ['2026-05-05'])).toEqual([3_000]);
  });

  it('says when the floor, not the rules, set the price', () => {
    const half = rule('pru_half', { adjustment: { kind: 'percent', amount: -50 } });
    const [floored] = priceNights(inputs({ rules: [half], minPriceMinor: 9_000 }), ['2026-05-05']);
    expect(floored).toMatchObject({
      priceMinor: 9_000,
      startMinor: 10_000,
      ruleSteps: [{ ruleId: 'pru_half', priceAfterMinor: 5_000 }],
      floorApplied: true,
    });
    // A floor the rules stay above does not count as applied.
    const [above] = priceNights(inputs({ rules: [half], minPriceMinor: 4_000 }), ['2026-05-05']);
    expect(above).toMatchObject({ priceMinor: 5_000, floorApplied: false });
  });

  it('skips disabled rules and rules for other listings', () => {
    const off = rule('pru_off', { adjustment: { kind: 'percent', amount: 50 }, enabled: false });
    const elsewhere = rule('pru_b', { adjustment: { kind: 'percent', amount: 50 }, listingIds: ['lst_b'] });
    const mine = rule('pru_a', {
      adjustment: { kind: 'percent', amount: 5 },
      listingIds: ['lst_b', 'lst_a'],
    });
    expect(priceNights(inputs({ rules: [off, elsewhere, mine] }), ['2026-05-05'])[0]).toMatchObject({
      priceMinor: 10_500,
      appliedRuleIds: ['pru_a'],
    });
  });

  it('needs every set condition to hold', () => {
    const weekendInMay = rule('pru_both', {
      adjustment: { kind: 'percent', amount: 10 },
      daysOfWeek: [6],
      startDate: '2026-05-01',
      endDate: '2026-05-31',
    });
    // Saturday 2 May (both hold), Friday 1 May (wrong day), Saturday 6 June (out of range).
    expect(prices(inputs({ rules: [weekendInMay] }), ['2026-05-02', '2026-05-01', '2026-06-06'])).toEqual([
      11_000, 10_000, 10_000,
    ]);
  });

  it('adds a fixed amount in the listing’s own currency', () => {
    const plus20 = rule('pru_fix', { adjustment: { kind: 'fixed', amount: 20 } });
    expect(
      prices(inputs({ rules: [plus20], currency: 'JPY', basePriceMinor: 12_000 }), ['2026-05-05']),
    ).toEqual([12_020]);
  });

  it('looks around the range as far as the widest orphan rule of the listing needs', () => {
    const gap3 = rule('pru_3', { adjustment: { kind: 'percent', amount: -5 }, orphanGapMaxNights: 3 });
    const gap5other = rule('pru_5', {
      adjustment: { kind: 'percent', amount: -5 },
      orphanGapMaxNights: 5,
      listingIds: ['lst_b'],
    });
    expect(holdLookaround([gap3, gap5other], 'lst_a')).toBe(4);
    expect(holdLookaround([], 'lst_a')).toBe(0);
  });

  it('lets a channel price replace the effective price, above the floor', () => {
    expect(channelNightPrice(12_000, undefined, 9_000)).toBe(12_000);
    expect(channelNightPrice(12_000, 15_000, 9_000)).toBe(15_000);
    expect(channelNightPrice(12_000, 5_000, 9_000)).toBe(9_000);
  });
});
