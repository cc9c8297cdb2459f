import { addDays, channels, daysBetween } from '@innkeep/domain';
import type { Kysely } from 'kysely';
import { rebuildStayNightFacts } from '../../src/analytics/stay-night-facts.ts';
import type { Database } from '../../src/database.ts';
import { insertBlock, insertStay, type StaySpec } from './analytics-fixture.ts';
import { createTestAccount, createTestListing, type TestAccount } from './fixtures.ts';

// Random portfolios for property tests: what they check must hold for any data, so the data is drawn from a
// seeded generator (a failing seed reproduces) and the generator keeps what it inserted, for the tests to
// compute their own expectations from.

/** A small seeded pseudo-random generator (mulberry32): the same seed gives the same portfolio. */
export interface Random {
  /** A whole number from `min` to `max`, both included. */
  int(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
}

/** A {@link Random} from `seed`. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new Error('pick needs a non-empty list');
      return item;
    },
  };
}

/** A stay as inserted, with its id and money in minor units. */
export interface RandomStay extends StaySpec {
  readonly id: string;
  readonly currency: string;
  readonly accommodation: number;
  readonly fees: number;
  readonly channelFees: number;
  readonly payoutMinor: number;
}

/** A block as inserted; `endDate` is the first night no longer blocked. */
export interface RandomBlock {
  readonly listingId: string;
  readonly startDate: string;
  readonly endDate: string;
  readonly reason: 'owner' | 'maintenance' | 'manual';
}

/** A generated account and everything in it. */
export interface RandomPortfolio {
  readonly account: TestAccount;
  readonly listings: readonly { readonly id: string; readonly currency: string }[];
  readonly stays: readonly RandomStay[];
  readonly blocks: readonly RandomBlock[];
  /** First and last night the generator may have filled. */
  readonly range: { readonly startDate: string; readonly endDate: string };
}

const currencies = ['EUR', 'USD', 'JPY'] as const;
const statuses = ['accepted', 'cancelled', 'pending', 'declined', 'inquiry'] as const;

/**
 * Inserts an account with `listings` listings (currencies EUR, USD and JPY in turn) whose calendars from
 * `startDate` to `endDate` are filled with random stays (mostly accepted, some cancelled, pending, declined
 * or inquiries; 1–21 nights, now and then 30–75) and blocks (owner, maintenance, manual), never overlapping,
 * with random nightly rates, fees, commissions and payouts; then builds the stay-night facts.
 */
export async function buildRandomPortfolio(
  db: Kysely<Database>,
  seed: number,
  options: { readonly listings?: number; readonly startDate?: string; readonly endDate?: string } = {},
): Promise<RandomPortfolio> {
  const random = seededRandom(seed);
  const range = { startDate: options.startDate ?? '2025-01-01', endDate: options.endDate ?? '2026-06-30' };
  const account = await createTestAccount(db, { timeZone: 'Europe/Berlin', currency: 'EUR' });
  const listings: { id: string; currency: string }[] = [];
  const stays: RandomStay[] = [];
  const blocks: RandomBlock[] = [];

  for (let index = 0; index < (options.listings ?? 4); index += 1) {
    const currency = currencies[index % currencies.length] ?? 'EUR';
    const id = await createTestListing(db, account.accountId, {
      name: `Random ${index}`,
      currency,
      time_zone: random.pick(['Europe/Berlin', 'America/New_York', 'Asia/Tokyo']),
      // Active long before the portfolio's first night, so every night of the range is supply.
      created_at: '2020-01-01T00:00:00Z',
    });
    listings.push({ id, currency });
    const unit = currency === 'JPY' ? 1 : 100;

    let night = addDays(range.startDate, random.int(0, 10));
    while (night <= range.endDate) {
      const remaining = daysBetween(night, range.endDate) + 1;
      if (random.chance(0.2)) {
        const length = Math.min(remaining, random.int(1, 10));
        const reason = random.pick(['owner', 'maintenance', 'manual'] as const);
        const endDate = addDays(night, length);
        await insertBlock(db, account.accountId, id, night, endDate, reason);
        blocks.push({ listingId: id, startDate: night, endDate, reason });
        night = endDate;
      } else {
        const length = Math.min(remaining, random.chance(0.08) ? random.int(30, 75) : random.int(1, 21));
        const endDate = addDays(night, length);
        const rate = random.int(50, 300) * unit;
        const nightly = Array.from({ length }, () => rate + random.int(-20, 20) * unit + random.int(0, 99));
        const cleaningFee = random.chance(0.8) ? random.int(0, 8_000) : 0;
        const extraGuestFee = random.chance(0.2) ? random.int(1, 3_000) : 0;
        const channel = random.pick(channels);
        const rent = nightly.reduce((sum, amount) => sum + amount, 0);
        const fees = cleaningFee + extraGuestFee;
        const channelFee = channel === 'direct' ? 0 : Math.round(((rent + fees) * random.int(3, 18)) / 100);
        // Now and then the payout differs from rent + fees − commission (a payout adjustment).
        const payout = rent + fees - channelFee + (random.chance(0.1) ? random.int(-5_000, 5_000) : 0);
        const status = random.chance(0.8) ? 'accepted' : random.pick(statuses);
        const createdAt = new Date(
          Date.parse(`${night}T12:00:00Z`) - random.int(0, 150 * 24) * 3_600_000,
        ).toISOString();
        const spec: StaySpec = {
          listingId: id,
          startDate: night,
          endDate,
          nightly,
          channel,
          status,
          currency,
          cleaningFee,
          extraGuestFee,
          channelFee,
          payout,
          createdAt,
          ...(status === 'cancelled' ? { cancelledAt: createdAt } : {}),
        };
        const stayId = await insertStay(db, account, spec);
        stays.push({
          ...spec,
          id: stayId,
          currency,
          accommodation: rent,
          fees,
          channelFees: channelFee,
          payoutMinor: payout,
        });
        night = endDate;
      }
      night = addDays(night, random.chance(0.5) ? 0 : random.int(1, 12));
    }
  }
  await rebuildStayNightFacts(db, account.accountId);
  return { account, listings, stays, blocks, range };
}

/** A random period of 1 to `maxNights` nights starting within `range`, now and then of whole months. */
export function randomPeriod(
  random: Random,
  range: { readonly startDate: string; readonly endDate: string },
  maxNights: number,
): { startDate: string; endDate: string } {
  const span = daysBetween(range.startDate, range.endDate);
  let startDate = addDays(range.startDate, random.int(-20, span));
  if (random.chance(0.3)) startDate = `${startDate.slice(0, 7)}-01`;
  let endDate = addDays(startDate, random.int(0, maxNights - 1));
  if (random.chance(0.3)) {
    // The last night of endDate's month, when that stays within maxNights.
    const nextMonth = addDays(`${endDate.slice(0, 7)}-28`, 4);
    const monthEnd = addDays(`${nextMonth.slice(0, 7)}-01`, -1);
    if (daysBetween(startDate, monthEnd) < maxNights) endDate = monthEnd;
  }
  return { startDate, endDate };
}
