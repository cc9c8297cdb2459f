import type { Channel } from '@innkeep/domain';
import type {
  ListingChannelLinksTable,
  ListingGroupMembersTable,
  ListingGroupsTable,
  ListingsTable,
  LockListingsTable,
  LocksTable,
} from '@innkeep/storage';
import type { Insertable } from 'kysely';
import { demoCities, groupOwners, lockProviderTraits } from './demo-catalog.ts';
import type { DemoAccountPlan, DemoLock, DemoSpan, ListingPlan } from './demo-model.ts';
import type { DemoCalendar } from './demo-pricing.ts';
import { planChannelPrices } from './demo-pricing.ts';
import { createRandom, type DemoRandom, type IdSource, weightTable } from './demo-random.ts';
import { isoOf, msPerDay, msPerHour } from './demo-time.ts';

/** What to build listings for. */
export interface ListingBuildOptions {
  readonly account: DemoAccountPlan;
  /** Account-wide id source (listings, groups, locks are account-wide records). */
  readonly ids: IdSource;
  readonly count: number;
  /** First id scope for the listings' own records; listing i gets `scopeBase + i`. */
  readonly scopeBase: number;
  /** Indexes into `demoCities` the listings may be in, with the catalogue's shares among them. */
  readonly cityIndexes: readonly number[];
  /** Channels every listing is connected to. */
  readonly channels: readonly Channel[];
  /** When the account joined Innkeep; the first listings arrive right after. */
  readonly accountCreatedAt: number;
}

/** Listing rows plus the plans the activity generator works from. */
export interface BuiltListings {
  readonly plans: ListingPlan[];
  readonly listings: Insertable<ListingsTable>[];
  readonly links: Insertable<ListingChannelLinksTable>[];
  readonly groups: Insertable<ListingGroupsTable>[];
  readonly groupMembers: Insertable<ListingGroupMembersTable>[];
  readonly locks: Insertable<LocksTable>[];
  readonly lockListings: Insertable<LockListingsTable>[];
}

const weeklyDiscounts = weightTable([
  [0, 30],
  [5, 25],
  [10, 35],
  [15, 10],
]);
const monthlyDiscounts = weightTable([
  [0, 25],
  [15, 25],
  [20, 30],
  [25, 20],
]);
const maxNightsTable = weightTable([
  [30, 40],
  [60, 20],
  [90, 25],
  [365, 15],
]);

/**
 * Builds an account's listings: spread over the markets by their shares (interleaved, so a small demo
 * still has every market), each with its own size, prices, fees and rules, links to every channel, a
 * smart lock on most, and groups per market and per property owner.
 */
export function buildListings(
  span: DemoSpan,
  calendar: DemoCalendar,
  options: ListingBuildOptions,
): BuiltListings {
  const { account, ids } = options;
  const rng = createRandom([span.seed, 'listings', account.scope]);
  const built: BuiltListings = {
    plans: [],
    listings: [],
    links: [],
    groups: [],
    groupMembers: [],
    locks: [],
    lockListings: [],
  };
  const cityCounts = options.cityIndexes.map(() => 0);
  const shareTotal = options.cityIndexes.reduce((sum, index) => sum + (demoCities[index]?.share ?? 0), 0);
  const lastOnboardDay = span.startDay + Math.floor((span.todayDay - span.startDay) * 0.7);
  const firstOnboardDay = Math.floor(options.accountCreatedAt / msPerDay) + 1;

  for (let index = 0; index < options.count; index += 1) {
    // Largest deficit against the market's share picks the next listing's market.
    let chosen = 0;
    let bestDeficit = Number.NEGATIVE_INFINITY;
    options.cityIndexes.forEach((cityIndex, position) => {
      const share = (demoCities[cityIndex]?.share ?? 0) / shareTotal;
      const deficit = share * (index + 1) - (cityCounts[position] ?? 0);
      if (deficit > bestDeficit + 1e-9) {
        bestDeficit = deficit;
        chosen = position;
      }
    });
    cityCounts[chosen] = (cityCounts[chosen] ?? 0) + 1;
    const cityIndex = options.cityIndexes[chosen] ?? 0;
    const city = demoCities[cityIndex];
    if (!city) throw new RangeError(`No demo city ${cityIndex}`);
    const number = cityCounts[chosen] ?? 1;

    const bedrooms = rng.fromTable(weightTable(city.bedrooms));
    const propertyType = rng.fromTable(weightTable(city.propertyTypes));
    const maxGuests = Math.min(16, Math.max(2, bedrooms * 2 + rng.int(0, 2)));
    const priceJitter = 0.85 + rng.next() * 0.35;
    const baseMajor = Math.round((city.basePrice + city.perBedroom * Math.max(bedrooms, 1)) * priceJitter);
    const minNights = rng.fromTable(weightTable(city.minNights));
    const lateJoiner = options.count > 3 && index > 0 && rng.chance(0.15);
    const onboardDay = lateJoiner
      ? rng.int(span.startDay, Math.max(span.startDay, lastOnboardDay))
      : firstOnboardDay + rng.int(0, 20);
    const onboardAt = onboardDay * msPerDay + rng.int(14, 22) * msPerHour;
    const id = ids.next('listing');
    const nickname = `${city.code}-${String(number).padStart(3, '0')}`;
    const name = listingName(rng, city.nameFirst, city.nameKinds, city.nameFeatures, propertyType);
    const address = listingAddress(rng, city.style === 'city', city.streets, propertyType);

    const withoutPrices = {
      index,
      scope: options.scopeBase + index,
      codeScope: index + 1,
      id,
      accountId: account.accountId,
      cityIndex,
      city,
      name,
      nickname,
      address,
      maxGuests,
      guestsIncluded: Math.max(2, maxGuests - (rng.chance(0.5) ? 2 : 0)),
      basePriceMinor: baseMajor * 100,
      minPriceMinor: Math.round(baseMajor * 0.6) * 100,
      cleaningFeeMinor: Math.round(city.cleaningFee + city.cleaningPerBedroom * bedrooms) * 100,
      extraGuestFeeMinor: rng.chance(0.6) ? city.extraGuestFee * 100 : 0,
      taxRateBp: city.taxRateBp,
      minNights,
      maxNights: Math.max(minNights, rng.fromTable(maxNightsTable)),
      checkInTime: city.checkInTime + (rng.chance(0.2) ? -1 : 0),
      checkOutTime: city.checkOutTime + (rng.chance(0.2) ? 1 : 0),
      weeklyDiscountPct: rng.fromTable(weeklyDiscounts),
      monthlyDiscountPct: rng.fromTable(monthlyDiscounts),
      quality: 0.82 + rng.next() * 0.26,
      onboardDay,
      onboardAt,
      ownerStays: false,
      channels: options.channels,
      lock: null as DemoLock | null,
    };
    let lock: DemoLock | null = null;
    if (rng.chance(0.8)) {
      const provider = rng.pick(city.lockProviders);
      const traits = lockProviderTraits[provider] ?? { codeLength: 4, noZeros: false };
      lock = { id: ids.next('lock'), provider, codeLength: traits.codeLength, noZeros: traits.noZeros };
      built.locks.push({
        id: lock.id,
        account_id: account.accountId,
        provider,
        name: `${nickname} front door`,
        online: !rng.chance(0.04),
        battery_pct: rng.int(12, 100),
        code_length: lock.codeLength,
        created_at: isoOf(onboardAt + rng.int(1, 72) * msPerHour),
      });
      built.lockListings.push({ lock_id: lock.id, listing_id: id });
    }
    const plan: ListingPlan = {
      ...withoutPrices,
      lock,
      channelPrices: planChannelPrices(span, calendar, { ...withoutPrices, lock }),
    };
    built.plans.push(plan);
    built.listings.push({
      id,
      account_id: account.accountId,
      name,
      nickname,
      property_type: propertyType,
      address,
      city: city.city,
      region: city.region,
      country_code: city.countryCode,
      postal_code: rng.pick(city.postalCodes),
      latitude: (city.latitude + (rng.next() - 0.5) * 0.04).toFixed(6),
      longitude: (city.longitude + (rng.next() - 0.5) * 0.04).toFixed(6),
      time_zone: city.timeZone,
      currency: city.currency,
      bedrooms,
      bathrooms: Math.max(1, bedrooms - (rng.chance(0.4) ? 1 : 0)) + (rng.chance(0.3) ? 0.5 : 0),
      max_guests: maxGuests,
      base_price_minor: plan.basePriceMinor,
      min_price_minor: plan.minPriceMinor,
      cleaning_fee_minor: plan.cleaningFeeMinor,
      extra_guest_fee_minor: plan.extraGuestFeeMinor,
      guests_included: plan.guestsIncluded,
      tax_rate_bp: plan.taxRateBp,
      min_nights: plan.minNights,
      max_nights: plan.maxNights,
      check_in_time: plan.checkInTime,
      check_out_time: plan.checkOutTime,
      weekly_discount_pct: plan.weeklyDiscountPct,
      monthly_discount_pct: plan.monthlyDiscountPct,
      enabled: true,
      created_at: isoOf(onboardAt),
      updated_at: isoOf(Math.max(onboardAt, span.nowMs - rng.int(1, 90) * msPerDay)),
    });
    for (const channel of options.channels) {
      const channelAccountId = account.channelAccountIds[channel];
      if (channelAccountId === undefined) continue;
      const link = channelLink(rng, channel, nickname, city.countryCode);
      built.links.push({ listing_id: id, channel_account_id: channelAccountId, ...link });
    }
  }
  addGroups(span, rng, options, built);
  return built;
}

function listingName(
  rng: DemoRandom,
  firsts: readonly string[],
  kinds: Readonly<Record<string, readonly string[]>>,
  features: readonly string[],
  propertyType: string,
): string {
  const kind = rng.pick(kinds[propertyType] ?? ['Home']);
  const unit =
    propertyType === 'condo' ? ` ${rng.int(1, 9)}${rng.pick(['01', '02', '04', '05', '08', '12'])}` : '';
  return `${rng.pick(firsts)} ${kind}${unit} · ${rng.pick(features)}`;
}

function listingAddress(
  rng: DemoRandom,
  european: boolean,
  streets: readonly string[],
  propertyType: string,
): string {
  const street = rng.pick(streets);
  if (european)
    return `${street} ${rng.int(2, 140)}, ${rng.int(1, 5)}º ${rng.pick(['Esq.', 'Dto.', 'A', 'B'])}`;
  const unit =
    propertyType === 'condo' ? `, Unit ${rng.int(1, 12)}${String(rng.int(1, 20)).padStart(2, '0')}` : '';
  return `${rng.int(100, 29_999)} ${street}${unit}`;
}

function channelLink(
  rng: DemoRandom,
  channel: Channel,
  nickname: string,
  countryCode: string,
): Pick<Insertable<ListingChannelLinksTable>, 'external_listing_id' | 'url'> {
  switch (channel) {
    case 'airbnb': {
      const external = `${rng.int(10_000_000, 99_999_999)}${String(rng.int(0, 999_999)).padStart(6, '0')}`;
      return { external_listing_id: external, url: `https://www.airbnb.com/rooms/${external}` };
    }
    case 'vrbo': {
      const external = String(rng.int(1_000_000, 9_999_999));
      return { external_listing_id: external, url: `https://www.vrbo.com/${external}` };
    }
    case 'booking': {
      const external = String(rng.int(1_000_000, 12_999_999));
      const slug = `innkeep-${nickname.toLowerCase()}`;
      return {
        external_listing_id: external,
        url: `https://www.booking.com/hotel/${countryCode.toLowerCase()}/${slug}.html`,
      };
    }
    case 'direct':
      return {
        external_listing_id: nickname,
        url: `https://stay.example.com/${nickname.toLowerCase()}`,
      };
  }
}

/**
 * One group per market, and owner groups of two to four listings in one market for about a third of
 * the listings; owners use their listings some weeks a year, and most owner groups have an import link.
 */
function addGroups(
  span: DemoSpan,
  rng: DemoRandom,
  options: ListingBuildOptions,
  built: BuiltListings,
): void {
  const { account, ids } = options;
  const createdAt = isoOf(options.accountCreatedAt + 2 * msPerHour);
  for (const cityIndex of options.cityIndexes) {
    const members = built.plans.filter((plan) => plan.cityIndex === cityIndex);
    if (members.length === 0) continue;
    const groupId = ids.next('listingGroup');
    built.groups.push({
      id: groupId,
      account_id: account.accountId,
      name: `${demoCities[cityIndex]?.city ?? ''} portfolio`,
      owner_name: null,
      owner_email: null,
      owner_import_token: null,
      created_at: createdAt,
    });
    for (const plan of members) built.groupMembers.push({ group_id: groupId, listing_id: plan.id });

    let ownerNumber = 0;
    for (let start = 0; start < members.length; ) {
      const size = rng.int(2, 4);
      if (!rng.chance(0.3) || members.length < 2) {
        start += 1;
        continue;
      }
      const owned = members.slice(start, start + size);
      start += size;
      const owner =
        groupOwners[(ownerNumber + cityIndex * 5 + account.scope) % groupOwners.length] ?? 'Owner';
      ownerNumber += 1;
      const ownerGroupId = ids.next('listingGroup');
      const slug = owner
        .normalize('NFD')
        .replace(/[^A-Za-z ]/g, '')
        .trim()
        .toLowerCase()
        .replace(/\s+/g, '.');
      built.groups.push({
        id: ownerGroupId,
        account_id: account.accountId,
        name: `${owner} · ${demoCities[cityIndex]?.city ?? ''}`,
        owner_name: owner,
        owner_email: `${slug}${ownerNumber}@example.com`,
        owner_import_token: rng.chance(0.6)
          ? `oil_${Buffer.from(rng.bytes(32)).toString('base64url')}`
          : null,
        created_at: isoOf(
          Math.max(options.accountCreatedAt, span.startDay * msPerDay) + ownerNumber * msPerDay,
        ),
      });
      for (const plan of owned) {
        built.groupMembers.push({ group_id: ownerGroupId, listing_id: plan.id });
        const position = built.plans.indexOf(plan);
        built.plans[position] = { ...plan, ownerStays: true };
      }
    }
  }
}
