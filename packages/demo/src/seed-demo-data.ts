import type { Channel } from '@innkeep/domain';
import { DomainError, hashPassword, localDateSchema, parseInput } from '@innkeep/domain';
import type { ChannelAccountsTable, Database, UsersTable } from '@innkeep/storage';
import { inTransaction, rebuildGuestWaits, rebuildStayNightFacts } from '@innkeep/storage';
import type { Insertable, Kysely } from 'kysely';
import { z } from 'zod';
import { demoCities } from './demo-catalog.ts';
import { messageRuleRows } from './demo-conversations.ts';
import { buildListings } from './demo-listings.ts';
import { demoLogin } from './demo-login.ts';
import type { DemoAccountPlan, DemoSpan, ListingPlan } from './demo-model.ts';
import { calendarRows, createDemoCalendar, type DemoCalendar, pricingRuleRows } from './demo-pricing.ts';
import { createIdMaker, createIdSource, type IdSource } from './demo-random.ts';
import { analyzeDemoTables } from './demo-statistics.ts';
import { addListingActivity } from './demo-stays.ts';
import {
  addMonths,
  createZoneTime,
  dayOfCalendar,
  epochDay,
  isoOf,
  msPerDay,
  msPerHour,
  msPerMinute,
  type ZoneTime,
} from './demo-time.ts';
import {
  createDemoWriter,
  type DemoCounts,
  type DemoRows,
  type DemoWriter,
  emptyDemoRows,
} from './demo-writer.ts';

/** How much demo data to generate, and around which day. */
export interface DemoOptions {
  /** The day the data is generated around, `YYYY-MM-DD`: history before it, bookings on the books after it. */
  readonly today: string;
  /** Same seed and same `today` give the same rows (except the salted password hashes). Default 1. */
  readonly seed?: number;
  /** Listings of the demo account, spread over three markets. Default 12. */
  readonly listings?: number;
  /** Years of stays before `today`. Default 2. */
  readonly historyYears?: number;
  /** Months of check-ins after `today` that are already booked or blocked. Default 12. */
  readonly forwardMonths?: number;
  /** Called as the work advances, e.g. to draw a progress bar. */
  readonly onProgress?: (event: DemoProgress) => void;
}

/** One step of {@link seedDemoData}'s progress. */
export interface DemoProgress {
  /**
   * `setup` (accounts, listings, rules, calendar), then `activity` (stays and all that hangs off them), then
   * `analytics` (the derived facts), then `statistics` (the planner's statistics of every table written).
   */
  readonly phase: string;
  readonly done: number;
  readonly total: number;
}

/** What {@link seedDemoData} wrote. */
export interface DemoSummary {
  /** The demo account (owner {@link demoLogin}). */
  readonly accountId: string;
  /** The second account, whose subscription is past due (owner lapsed@innkeep.test). */
  readonly lapsedAccountId: string;
  /** Rows written per table. */
  readonly counts: Readonly<DemoCounts>;
}

/** The benchmark preset: a large host's portfolio with three years of history. */
export const scaleDemoOptions = { listings: 2000, historyYears: 3 } as const;

/** Validates {@link DemoOptions} (all but `onProgress`) and fills the defaults. */
export const demoOptionsSchema = z.object({
  today: localDateSchema.describe('The day the data is generated around, YYYY-MM-DD.'),
  seed: z.number().int().min(0).max(0xffff_ffff).default(1).describe('Seed of the random generator.'),
  listings: z.number().int().min(1).max(3000).default(12).describe('Listings of the demo account.'),
  historyYears: z.number().int().min(0).max(5).default(2).describe('Years of stays before today.'),
  forwardMonths: z.number().int().min(0).max(24).default(12).describe('Months of bookings after today.'),
});

/** The demo's other sign-ins; both use {@link demoLogin}'s password. */
export const demoExtraLogins = {
  manager: 'manager@innkeep.test',
  lapsedOwner: 'lapsed@innkeep.test',
} as const;

// Listings generated before their rows are handed to the writer: large enough for efficient inserts,
// small enough that generation and writing overlap and memory stays flat.
const listingsPerBatch = 20;
const lapsedListings = 2;

/** True when the demo account (its owner's e-mail) already exists. */
export async function hasDemoAccount(db: Kysely<Database>): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', demoLogin.email))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Fills the database with a realistic, deterministic demo: the demo account (owner, a manager, four
 * channel connections, listings in three markets with groups, locks, pricing and message rules) with years
 * of reservations, nightly rates, line items, change history, calendar holds and blocks, message threads,
 * reviews and access codes; and a second, lapsed account with a past-due subscription and two listings.
 * Rows go straight to the tables, but keep every rule the use cases enforce. Everything is written in one
 * transaction: a failure leaves nothing behind. Once it is committed, the planner's statistics of every table
 * written are gathered, so the database answers at full speed as soon as this resolves.
 *
 * @throws DomainError `invalid_argument` for bad options; `conflict` when the demo account already exists.
 */
export async function seedDemoData(db: Kysely<Database>, options: DemoOptions): Promise<DemoSummary> {
  const { onProgress, ...rest } = options;
  const input = parseInput(demoOptionsSchema, rest);
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw new DomainError('invalid_argument', 'onProgress must be a function when given.');
  }
  if (await hasDemoAccount(db)) {
    throw new DomainError(
      'conflict',
      `The demo account ${demoLogin.email} already exists. Seed an empty database, or delete that account first.`,
    );
  }
  // Every demo user has the one published password, but each its own salt: a shared salt would show in
  // the table that these users share a password, and one cracked hash would be all of them.
  const [owner, manager, lapsedOwner] = await Promise.all([
    hashPassword(demoLogin.password),
    hashPassword(demoLogin.password),
    hashPassword(demoLogin.password),
  ]);
  const passwordHashes: DemoPasswordHashes = { owner, manager, lapsedOwner };
  const todayDay = epochDay(input.today);
  const today = new Date(todayDay * msPerDay);
  const span: DemoSpan = {
    seed: input.seed,
    todayDay,
    nowMs: todayDay * msPerDay + 18 * msPerHour,
    startDay: dayOfCalendar(
      today.getUTCFullYear() - input.historyYears,
      today.getUTCMonth(),
      today.getUTCDate(),
    ),
    endDay: addMonths(todayDay, input.forwardMonths),
    makeId: createIdMaker(input.seed),
  };
  const calendar = createDemoCalendar(span);
  const report = (phase: string, done: number, total: number) => onProgress?.({ phase, done, total });

  const summary = await inTransaction(db, async (trx) => {
    const writer = createDemoWriter(trx);
    const setup = emptyDemoRows();
    const demo = buildDemoAccount(span, calendar, setup, passwordHashes, input.listings);
    const lapsed = buildLapsedAccount(span, calendar, setup, passwordHashes.lapsedOwner);
    void writer.write(setup, () => report('setup', 1, 1));

    const work = [...demo.plans.map((plan) => ({ account: demo.account, plan }))];
    work.push(...lapsed.plans.map((plan) => ({ account: lapsed.account, plan })));
    const zones = new Map<string, ZoneTime>();
    let batch = emptyDemoRows();
    let inBatch = 0;
    let generated = 0;
    for (const { account, plan } of work) {
      let zone = zones.get(plan.city.timeZone);
      if (!zone) {
        zone = createZoneTime(plan.city.timeZone);
        zones.set(plan.city.timeZone, zone);
      }
      addListingActivity(span, calendar, account, plan, zone, batch);
      inBatch += 1;
      generated += 1;
      if (inBatch === listingsPerBatch || generated === work.length) {
        const done = generated;
        await queue(writer, batch, () => report('activity', done, work.length));
        batch = emptyDemoRows();
        inBatch = 0;
      }
      // Let the writer's queued statements go out between listings, so the database never waits for us.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await writer.flush();
    report('analytics', 0, 2);
    await rebuildStayNightFacts(trx, demo.account.accountId);
    await rebuildGuestWaits(trx, demo.account.accountId);
    report('analytics', 1, 2);
    await rebuildStayNightFacts(trx, lapsed.account.accountId);
    await rebuildGuestWaits(trx, lapsed.account.accountId);
    report('analytics', 2, 2);
    return {
      accountId: demo.account.accountId,
      lapsedAccountId: lapsed.account.accountId,
      counts: { ...writer.counts },
    };
  });
  // After the commit, so the statistics describe the rows every session sees.
  report('statistics', 0, 1);
  await analyzeDemoTables(db);
  report('statistics', 1, 1);
  return summary;
}

async function queue(writer: DemoWriter, rows: DemoRows, onStored: () => void): Promise<void> {
  // At most two batches wait in the queue while the next one is generated.
  await writer.waitBelow(2);
  void writer.write(rows, onStored);
}

/** One password hash per demo user, each with its own salt. */
interface DemoPasswordHashes {
  readonly owner: string;
  readonly manager: string;
  readonly lapsedOwner: string;
}

interface BuiltAccount {
  readonly account: DemoAccountPlan;
  readonly plans: readonly ListingPlan[];
}

function buildDemoAccount(
  span: DemoSpan,
  calendar: DemoCalendar,
  rows: DemoRows,
  passwordHashes: DemoPasswordHashes,
  listingCount: number,
): BuiltAccount {
  const ids = createIdSource(span.makeId, 0);
  const createdAt = (span.startDay - 120) * msPerDay + 15 * msPerHour;
  const accountId = ids.next('account');
  const ownerUserId = ids.next('user');
  const managerUserId = ids.next('user');
  const firstCity = demoCities[0];
  rows.accounts.push({
    id: accountId,
    name: 'Coastal & Summit Stays',
    time_zone: firstCity?.timeZone ?? 'America/Chicago',
    currency: firstCity?.currency ?? 'USD',
    created_at: isoOf(createdAt),
  });
  rows.subscriptions.push({
    account_id: accountId,
    plan: 'pro',
    status: 'active',
    current_period_end: new Date(span.nowMs + 17 * msPerDay),
    updated_at: isoOf(span.nowMs - 13 * msPerDay),
  });
  rows.users.push(
    user(
      ownerUserId,
      accountId,
      'owner',
      demoLogin.email,
      'Avery',
      'Collins',
      passwordHashes.owner,
      createdAt,
    ),
    user(
      managerUserId,
      accountId,
      'manager',
      demoExtraLogins.manager,
      'Sam',
      'Okafor',
      passwordHashes.manager,
      createdAt + 9 * msPerDay,
    ),
  );
  const channelAccountIds = addChannelAccounts(span, ids, rows, accountId, 'Avery Collins', createdAt, [
    ['airbnb', 'connected'],
    ['vrbo', 'connected'],
    ['booking', 'connected'],
    ['direct', 'connected'],
  ]);
  const base: DemoAccountPlan = {
    scope: 0,
    accountId,
    ownerUserId,
    managerUserId,
    hostFirstName: 'Avery',
    channelAccountIds,
    messageRules: null,
  };
  const built = buildListings(span, calendar, {
    account: base,
    ids,
    count: listingCount,
    scopeBase: 1,
    cityIndexes: demoCities.map((_, index) => index),
    channels: ['airbnb', 'vrbo', 'booking', 'direct'],
    accountCreatedAt: createdAt,
  });
  const rulesCreatedAt = createdAt + 2 * msPerDay;
  const { rules, rows: ruleRows } = messageRuleRows(
    accountId,
    ids,
    built.plans.filter((plan) => plan.lock !== null).map((plan) => plan.id),
    built.plans.filter((plan) => plan.lock === null).map((plan) => plan.id),
    rulesCreatedAt,
  );
  addListingRows(span, calendar, ids, rows, built, accountId, rulesCreatedAt);
  rows.message_rules.push(...ruleRows);
  return { account: { ...base, messageRules: rules }, plans: built.plans };
}

function buildLapsedAccount(
  span: DemoSpan,
  calendar: DemoCalendar,
  rows: DemoRows,
  passwordHash: string,
): BuiltAccount {
  // A scope far above any listing's, so ids never collide with the demo account's.
  const scope = 999_999;
  const ids = createIdSource(span.makeId, scope);
  const createdAt = (span.startDay - 90) * msPerDay + 11 * msPerHour;
  const accountId = ids.next('account');
  const ownerUserId = ids.next('user');
  const lisbon = demoCities.findIndex((city) => city.city === 'Lisbon');
  rows.accounts.push({
    id: accountId,
    name: 'Blake Lisbon Lets',
    time_zone: demoCities[lisbon]?.timeZone ?? 'Europe/Lisbon',
    currency: demoCities[lisbon]?.currency ?? 'EUR',
    created_at: isoOf(createdAt),
  });
  rows.subscriptions.push({
    account_id: accountId,
    plan: 'starter',
    status: 'past_due',
    current_period_end: new Date(span.nowMs - 9 * msPerDay),
    updated_at: isoOf(span.nowMs - 9 * msPerDay + 3 * msPerHour),
  });
  rows.users.push(
    user(
      ownerUserId,
      accountId,
      'owner',
      demoExtraLogins.lapsedOwner,
      'Jordan',
      'Blake',
      passwordHash,
      createdAt,
    ),
  );
  const channelAccountIds = addChannelAccounts(span, ids, rows, accountId, 'Jordan Blake', createdAt, [
    ['airbnb', 'connected'],
    ['booking', 'needs_reauth'],
  ]);
  const account: DemoAccountPlan = {
    scope,
    accountId,
    ownerUserId,
    managerUserId: null,
    hostFirstName: 'Jordan',
    channelAccountIds,
    messageRules: null,
  };
  const built = buildListings(span, calendar, {
    account,
    ids,
    count: lapsedListings,
    scopeBase: 1_000_000,
    cityIndexes: [lisbon],
    channels: ['airbnb', 'booking'],
    accountCreatedAt: createdAt,
  });
  addListingRows(span, calendar, ids, rows, built, accountId, createdAt + msPerDay);
  return { account, plans: built.plans };
}

function user(
  id: string,
  accountId: string,
  role: 'owner' | 'manager',
  email: string,
  firstName: string,
  lastName: string,
  passwordHash: string,
  createdAt: number,
): Insertable<UsersTable> {
  return {
    id,
    account_id: accountId,
    role,
    email,
    first_name: firstName,
    last_name: lastName,
    password_hash: passwordHash,
    auth_token_hash: null,
    auth_token_created_at: null,
    created_at: isoOf(createdAt),
  };
}

function addChannelAccounts(
  span: DemoSpan,
  ids: IdSource,
  rows: DemoRows,
  accountId: string,
  hostName: string,
  createdAt: number,
  channels: readonly (readonly [Channel, 'connected' | 'needs_reauth'])[],
): Partial<Record<Channel, string>> {
  const names: Record<Channel, string> = {
    airbnb: 'Airbnb',
    vrbo: 'Vrbo',
    booking: 'Booking.com',
    direct: 'Direct bookings website',
  };
  const found: Partial<Record<Channel, string>> = {};
  const handle = hostName.toLowerCase().replace(/\s+/g, '.');
  channels.forEach(([channel, status], index) => {
    const id = ids.next('channelAccount');
    found[channel] = id;
    const row: Insertable<ChannelAccountsTable> = {
      id,
      account_id: accountId,
      channel,
      external_account_id:
        channel === 'direct'
          ? null
          : `${channel}-${((span.seed * 7919 + index * 104_729) % 9_000_000) + 1_000_000}`,
      display_name: channel === 'direct' ? names[channel] : `${names[channel]} · ${hostName}`,
      email: channel === 'direct' ? null : `${handle}+${channel}@example.com`,
      connection_type: 'api',
      status,
      last_sync_at: new Date(
        span.nowMs - (status === 'connected' ? (3 + index) * msPerMinute : 6 * msPerDay),
      ),
      last_error:
        status === 'needs_reauth'
          ? `${names[channel]} no longer accepts the saved authorisation. Reconnect the account to resume syncing.`
          : null,
      created_at: isoOf(createdAt + (index + 1) * msPerHour),
    };
    rows.channel_accounts.push(row);
  });
  return found;
}

function addListingRows(
  span: DemoSpan,
  calendar: DemoCalendar,
  ids: IdSource,
  rows: DemoRows,
  built: ReturnType<typeof buildListings>,
  accountId: string,
  rulesCreatedAt: number,
): void {
  rows.listings.push(...built.listings);
  rows.listing_channel_links.push(...built.links);
  rows.listing_groups.push(...built.groups);
  rows.listing_group_members.push(...built.groupMembers);
  rows.locks.push(...built.locks);
  rows.lock_listings.push(...built.lockListings);
  const byCity = demoCities.map((_, cityIndex) =>
    built.plans.filter((plan) => plan.cityIndex === cityIndex).map((plan) => plan.id),
  );
  rows.pricing_rules.push(...pricingRuleRows(span, calendar, accountId, ids, byCity, rulesCreatedAt));
  for (const plan of built.plans) {
    const { days, channelPrices } = calendarRows(span, calendar, plan);
    rows.calendar_days.push(...days);
    rows.calendar_channel_prices.push(...channelPrices);
  }
}
