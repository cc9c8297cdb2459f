import type { Channel, IdKind } from '@innkeep/domain';
import type { DemoCity } from './demo-catalog.ts';

/** The time frame of one generation run, everything derived from the caller's `today`. */
export interface DemoSpan {
  readonly seed: number;
  /** Epoch day of `today`. */
  readonly todayDay: number;
  /** "Now": 18:00 UTC on `today`, which is `today` in every demo time zone. Nothing happens after it. */
  readonly nowMs: number;
  /** First check-in date generated (today − historyYears). */
  readonly startDay: number;
  /** Check-ins stop before this day (today + forwardMonths). */
  readonly endDay: number;
  /** Makes ids from a scope and a serial; see `createIdMaker`. */
  readonly makeId: (kind: IdKind, scope: number, serial: number) => string;
}

/** A message rule as the generator uses it to write automated messages. */
export interface DemoMessageRule {
  readonly id: string;
  readonly body: string;
  readonly lastMinuteBody: string | null;
  /** Channels it sends on; null for all. */
  readonly channels: readonly Channel[] | null;
  /** Listings it covers; null for all. */
  readonly listingIds: ReadonlySet<string> | null;
}

/** The rules that write messages in the demo account, by purpose. */
export interface DemoMessageRules {
  readonly confirmation: DemoMessageRule;
  /** Arrival instructions with the door code, for listings with a smart lock. */
  readonly arrivalWithCode: DemoMessageRule;
  /** Arrival instructions with a key box, for the others. */
  readonly arrivalWithKeyBox: DemoMessageRule;
  readonly checkoutReminder: DemoMessageRule;
  readonly reviewRequest: DemoMessageRule;
  readonly cancellation: DemoMessageRule;
}

/** One account of the demo and who acts in it. */
export interface DemoAccountPlan {
  /** Id scope of the account-wide records. */
  readonly scope: number;
  readonly accountId: string;
  readonly ownerUserId: string;
  /** A team member who answers guests too; null when the account has none. */
  readonly managerUserId: string | null;
  readonly hostFirstName: string;
  readonly channelAccountIds: Readonly<Partial<Record<Channel, string>>>;
  readonly messageRules: DemoMessageRules | null;
}

/** A smart lock serving one listing. */
export interface DemoLock {
  readonly id: string;
  readonly provider: string;
  readonly codeLength: number;
  readonly noZeros: boolean;
}

/** Everything the generator decided about one listing; money in minor units. */
export interface ListingPlan {
  /** Position within its account. */
  readonly index: number;
  /** Id scope of the listing's own records (reservations, messages, …). */
  readonly scope: number;
  /** Distinct number per listing for confirmation codes. */
  readonly codeScope: number;
  readonly id: string;
  readonly accountId: string;
  readonly cityIndex: number;
  readonly city: DemoCity;
  readonly name: string;
  readonly nickname: string;
  readonly address: string;
  readonly maxGuests: number;
  readonly guestsIncluded: number;
  readonly basePriceMinor: number;
  readonly minPriceMinor: number;
  readonly cleaningFeeMinor: number;
  readonly extraGuestFeeMinor: number;
  readonly taxRateBp: number;
  readonly minNights: number;
  readonly maxNights: number;
  readonly checkInTime: number;
  readonly checkOutTime: number;
  readonly weeklyDiscountPct: number;
  readonly monthlyDiscountPct: number;
  /** Demand multiplier of this listing (reviews, photos, location), around 1. */
  readonly quality: number;
  /** Epoch day the listing joined Innkeep; no stay is booked before it. */
  readonly onboardDay: number;
  readonly onboardAt: number;
  /** True when its owner uses it some weeks a year. */
  readonly ownerStays: boolean;
  readonly channels: readonly Channel[];
  readonly lock: DemoLock | null;
  /** Per-channel prices by epoch day (`calendar_channel_prices`). */
  readonly channelPrices: ReadonlyMap<number, Readonly<Partial<Record<Channel, number>>>>;
}
