import type { CancelledBy, Channel, ReservationStatus } from '@innkeep/domain';
import {
  allocateByLargestRemainder,
  monthlyDiscountNights,
  percentOf,
  weeklyDiscountNights,
} from '@innkeep/domain';
import { guestFirstNames, guestLastNames, maintenanceNotes, reservationNotes } from './demo-catalog.ts';
import { type ActivityContext, addConversation, addReview, type StayFacts } from './demo-conversations.ts';
import type { DemoAccountPlan, DemoSpan, ListingPlan } from './demo-model.ts';
import {
  channelPriceMinor,
  type DemoCalendar,
  lastMinuteDays,
  nightPriceMinor,
  orphanGapNights,
} from './demo-pricing.ts';
import { createIdSource, createRandom, type DemoRandom, permuteBits, weightTable } from './demo-random.ts';
import { dateOfDay, isoOf, monthOf, msPerHour, msPerMinute, weekdayOf, type ZoneTime } from './demo-time.ts';
import type { DemoRows } from './demo-writer.ts';

// One listing's history and future, planned on a timeline of nights so that live stays and blocks never
// overlap (the exclusion constraint would refuse them), with every reservation's timestamps in the order
// they happened and nothing after "now". Booking pace can be replayed from reservation_changes.

/** Share of bookings by channel, before a listing's own channel links narrow the choice. */
const channelMix: readonly (readonly [Channel, number])[] = [
  ['airbnb', 55],
  ['booking', 20],
  ['vrbo', 15],
  ['direct', 10],
];
/** How a booking starts, per channel: instantly, as a request to book, or with an inquiry. */
const flowsByChannel: Readonly<Record<Channel, readonly (readonly [StayFacts['flow'], number])[]>> = {
  airbnb: [
    ['instant', 75],
    ['request', 15],
    ['inquiry', 10],
  ],
  vrbo: [
    ['instant', 60],
    ['request', 30],
    ['inquiry', 10],
  ],
  booking: [['instant', 1]],
  direct: [
    ['instant', 50],
    ['inquiry', 50],
  ],
};
const cancellationRates: Readonly<Record<Channel, number>> = {
  airbnb: 0.09,
  booking: 0.16,
  vrbo: 0.08,
  direct: 0.05,
};
const leadFactors: Readonly<Record<Channel, number>> = { airbnb: 1, booking: 0.6, vrbo: 1.4, direct: 1.2 };
/** Host-paid channel commission in percent of accommodation plus fees. Direct bookings pay none. */
const hostServiceFeePercent: Readonly<Record<Channel, number>> = {
  airbnb: 15.5,
  vrbo: 8,
  booking: 15,
  direct: 0,
};
const channelNames: Readonly<Record<Channel, string>> = {
  airbnb: 'Airbnb',
  vrbo: 'Vrbo',
  booking: 'Booking.com',
  direct: 'Direct',
};
/** Relative chance of a stay starting on each weekday, Sunday first; Fridays are the busiest. */
const arrivalWeights = [0.75, 0.8, 0.75, 0.85, 1.1, 1.6, 1.15];
const usAreaCodes = ['205', '251', '312', '404', '512', '615', '720', '303', '214', '713', '917', '617'];

/** A reservation as planned on the timeline, before its money and rows. */
interface StayPlan extends StayFacts {
  readonly createdDay: number;
  readonly inquiryAt: number | null;
  readonly pendingAt: number | null;
  readonly cancelledBy: CancelledBy | null;
  /** Status changes after creation, oldest first, all at or before "now". */
  readonly transitions: readonly {
    at: number;
    from: ReservationStatus;
    to: ReservationStatus;
    actor: string | null;
  }[];
  readonly initialStatus: ReservationStatus;
  readonly guestLastName: string;
  readonly email: string;
  readonly phone: string;
  readonly adults: number;
  readonly children: number;
  readonly infants: number;
  readonly ownCheckInTime: number | null;
  readonly ownCheckOutTime: number | null;
  readonly notes: string | null;
}

/**
 * Generates everything that happens at one listing: blocks, reservations with nightly rates, line items,
 * change history and calendar holds, message threads, reviews and access codes.
 */
export function addListingActivity(
  span: DemoSpan,
  calendar: DemoCalendar,
  account: DemoAccountPlan,
  listing: ListingPlan,
  zone: ZoneTime,
  rows: DemoRows,
): void {
  const rng = createRandom([span.seed, 'activity', listing.scope]);
  const ids = createIdSource(span.makeId, listing.scope);
  const context: ActivityContext = { span, account, listing, zone, rng, ids, rows };
  const timeline = createTimeline(span);
  addBlocks(context, calendar, timeline);
  const stays = planStays(context, calendar, timeline);
  const serials = new Map<Channel, number>();
  for (const stay of stays) writeStay(context, calendar, timeline, serials, stay);
}

/** Which nights are taken, and since when; and when cancelled stays gave nights back. */
interface Timeline {
  readonly firstDay: number;
  /** Instant each night became held by a live stay or a block; 0 while free. */
  readonly heldSince: Float64Array;
  /** Latest cancellation that released each night; 0 if none. */
  readonly releasedAt: Float64Array;
  isFree(day: number): boolean;
}

function createTimeline(span: DemoSpan): Timeline {
  const firstDay = span.startDay - 1;
  const size = span.endDay - firstDay + 160;
  const heldSince = new Float64Array(size);
  const releasedAt = new Float64Array(size);
  return {
    firstDay,
    heldSince,
    releasedAt,
    isFree: (day) => {
      const index = day - firstDay;
      return index >= 0 && index < size && heldSince[index] === 0;
    },
  };
}

function hold(timeline: Timeline, startDay: number, endDay: number, since: number): void {
  for (let day = startDay; day < endDay; day += 1) timeline.heldSince[day - timeline.firstDay] = since;
}

function heldBefore(timeline: Timeline, day: number, instant: number): boolean {
  const since = timeline.heldSince[day - timeline.firstDay] ?? 0;
  return since > 0 && since < instant;
}

function demandOn(span: DemoSpan, listing: ListingPlan, day: number): number {
  const growth = 1 + (0.05 * (day - span.startDay)) / 365;
  const base = (listing.city.demand[monthOf(day)] ?? 0.5) * listing.quality * growth;
  return Math.min(0.92, Math.max(0.05, base));
}

/** Maintenance a couple of times a year, in quiet weeks; owner stays for listings whose owners use them. */
function addBlocks(context: ActivityContext, calendar: DemoCalendar, timeline: Timeline): void {
  const { span, listing, rng, zone, account } = context;
  const firstDay = Math.max(span.startDay, listing.onboardDay + 14);
  const years = Math.max(0, span.endDay - firstDay) / 365;
  const plans: { reason: 'maintenance' | 'owner'; nights: () => number }[] = [];
  for (let count = Math.round(years * 2); count > 0; count -= 1) {
    plans.push({ reason: 'maintenance', nights: () => rng.int(1, 3) });
  }
  if (listing.ownerStays) {
    for (let count = Math.round(years * 1.5); count > 0; count -= 1) {
      plans.push({ reason: 'owner', nights: () => rng.int(4, 9) });
    }
  }
  for (const plan of plans) {
    if (span.endDay - 10 <= firstDay) break;
    let startDay = rng.int(firstDay, span.endDay - 10);
    // Hosts schedule blocks in quiet weeks: retry a few times while the date falls in a busy month.
    for (let attempt = 0; attempt < 6 && rng.next() < demandOn(span, listing, startDay) * 0.9; attempt += 1) {
      startDay = rng.int(firstDay, span.endDay - 10);
    }
    const endDay = startDay + plan.nights();
    let free = true;
    for (let day = startDay; day < endDay; day += 1) free &&= timeline.isFree(day);
    if (!free || calendar.closed(startDay)) continue;
    const planned = zone.instant(startDay - rng.int(5, 75), rng.int(9 * 60, 20 * 60));
    const createdAt = Math.min(span.nowMs - msPerHour, Math.max(planned, listing.onboardAt + msPerHour));
    hold(timeline, startDay, endDay, createdAt);
    context.rows.calendar_holds.push({
      id: context.ids.next('block'),
      account_id: account.accountId,
      listing_id: listing.id,
      nights: `[${dateOfDay(startDay)},${dateOfDay(endDay)})`,
      kind: 'block',
      reservation_id: null,
      block_reason: plan.reason,
      note: plan.reason === 'owner' ? 'Owner stay' : rng.pick(maintenanceNotes),
      created_by:
        plan.reason === 'maintenance' && account.managerUserId !== null
          ? account.managerUserId
          : account.ownerUserId,
      created_at: isoOf(createdAt),
    });
  }
}

/** Lays stays on the timeline night by night, in check-in order, then adds unconverted inquiries. */
function planStays(context: ActivityContext, calendar: DemoCalendar, timeline: Timeline): StayPlan[] {
  const { span, listing, rng } = context;
  const channels = weightTable(channelMix.filter(([channel]) => listing.channels.includes(channel)));
  const stayLengths = weightTable(listing.city.stayLengths);
  const meanLength =
    listing.city.stayLengths.reduce((sum, [nights, weight]) => sum + nights * weight, 0) / stayLengths.total;
  const stays: StayPlan[] = [];
  let day = Math.max(span.startDay, listing.onboardDay + 3);
  while (day < span.endDay) {
    if (!timeline.isFree(day)) {
      day += 1;
      continue;
    }
    const occupancy = demandOn(span, listing, day);
    const startChance = ((arrivalWeights[weekdayOf(day)] ?? 1) * occupancy) / (meanLength * (1 - occupancy));
    if (!rng.chance(Math.min(0.9, startChance)) || calendar.closed(day)) {
      day += 1;
      continue;
    }
    const minNights = Math.max(listing.minNights, calendar.event(listing.cityIndex, day)?.minNights ?? 0);
    let freeRun = 0;
    while (freeRun < 60 && timeline.isFree(day + freeRun)) freeRun += 1;
    let nights = rng.fromTable(stayLengths);
    const weekday = weekdayOf(day);
    if ((weekday === 5 || weekday === 6) && rng.chance(0.45)) nights = 2;
    nights = Math.min(listing.maxNights, Math.max(nights, minNights));
    if (nights > freeRun) nights = freeRun;
    if (nights >= minNights && calendar.closed(day + nights)) nights -= 1;
    if (nights < minNights) {
      day += 1;
      continue;
    }
    const stay = planBooking(context, rng.fromTable(channels), day, nights, timeline);
    if (stay === null) {
      day += 1;
      continue;
    }
    stays.push(stay);
    if (stay.status === 'cancelled') {
      // The nights are free again from the cancellation on; a later booking may take them.
      for (let night = day; night < day + nights; night += 1) {
        const index = night - timeline.firstDay;
        timeline.releasedAt[index] = Math.max(timeline.releasedAt[index] ?? 0, stay.cancelledAt ?? 0);
      }
      continue;
    }
    hold(timeline, day, day + nights, stay.pendingAt ?? stay.confirmedAt ?? stay.createdAt);
    day += nights;
  }
  stays.push(...planUnconverted(context, stays.length));
  const pending = planOpenRequest(context, calendar, timeline);
  if (pending) stays.push(pending);
  return stays;
}

interface GuestDetails {
  readonly first: string;
  readonly last: string;
  readonly email: string;
  readonly phone: string;
  readonly adults: number;
  readonly children: number;
  readonly infants: number;
}

function drawGuest(rng: DemoRandom, listing: ListingPlan): GuestDetails {
  const first = rng.pick(guestFirstNames);
  const last = rng.pick(guestLastNames);
  const ascii = (text: string) =>
    text
      .normalize('NFD')
      .replace(/[^A-Za-z]/g, '')
      .toLowerCase();
  const email = `${ascii(first)}.${ascii(last)}${rng.int(1, 99)}@example.com`;
  const international = listing.city.countryCode !== 'US' ? rng.next() : 1;
  const phone =
    international < 0.4
      ? `+44 7700 900${String(rng.int(0, 999)).padStart(3, '0')}`
      : international < 0.7
        ? `+351 91${rng.int(0, 9)} ${String(rng.int(0, 999)).padStart(3, '0')} ${String(rng.int(0, 999)).padStart(3, '0')}`
        : `+1 ${rng.pick(usAreaCodes)} 555 01${String(rng.int(0, 99)).padStart(2, '0')}`;
  const party = Math.min(
    listing.maxGuests,
    Math.max(1, Math.round(rng.logNormal(listing.maxGuests * 0.55, 0.4))),
  );
  const children =
    listing.city.style !== 'city' && party >= 3 && rng.chance(0.45) ? rng.int(1, Math.min(3, party - 1)) : 0;
  return {
    first,
    last,
    email,
    phone,
    adults: party - children,
    children,
    infants: rng.chance(0.06) ? 1 : 0,
  };
}

function hostActor(context: ActivityContext): string {
  const { account, rng } = context;
  return account.managerUserId !== null && rng.chance(0.4) ? account.managerUserId : account.ownerUserId;
}

function drawLead(context: ActivityContext, channel: Channel): number {
  const { rng, listing } = context;
  if (rng.chance(0.08)) return rng.int(0, lastMinuteDays);
  return Math.min(330, Math.round(rng.logNormal(listing.city.leadMedianDays * leadFactors[channel], 0.85)));
}

/** When a stay booked `lead` days ahead was made, or null when that is still in the future. */
function bookingInstant(context: ActivityContext, startDay: number, lead: number): number | null {
  const { rng, zone, listing, span } = context;
  const latestMinute = lead === 0 ? 14 * 60 : 23 * 60;
  let createdAt = zone.instant(startDay - lead, rng.int(7 * 60, latestMinute));
  if (createdAt < listing.onboardAt + msPerHour) createdAt = listing.onboardAt + rng.int(1, 48) * msPerHour;
  if (createdAt >= zone.instant(startDay, listing.checkInTime * 60) - msPerHour) return null;
  return createdAt > span.nowMs ? null : createdAt;
}

function stayBase(context: ActivityContext, channel: Channel, startDay: number, nights: number) {
  const { rng, listing, ids } = context;
  const guest = drawGuest(rng, listing);
  const ownCheckInTime = rng.chance(0.06) ? Math.max(10, listing.checkInTime - 2) : null;
  const ownCheckOutTime = rng.chance(0.05) ? Math.min(14, listing.checkOutTime + 1) : null;
  return {
    id: ids.next('reservation'),
    channel,
    startDay,
    endDay: startDay + nights,
    guestFirstName: guest.first,
    guestLastName: guest.last,
    email: guest.email,
    phone: guest.phone,
    adults: guest.adults,
    children: guest.children,
    infants: guest.infants,
    party: guest.adults + guest.children,
    ownCheckInTime,
    ownCheckOutTime,
    checkInTime: ownCheckInTime ?? listing.checkInTime,
    checkOutTime: ownCheckOutTime ?? listing.checkOutTime,
    notes: rng.chance(0.08) ? rng.pick(reservationNotes) : null,
    accessCode: null,
  };
}

/**
 * A booking for the given nights, or null when it would not have been made by "now" or would overlap a
 * cancelled stay that still held the nights when it was made. Cancellations happen between confirmation
 * and check-in, about a third of them within two days of booking.
 */
function planBooking(
  context: ActivityContext,
  channel: Channel,
  startDay: number,
  nights: number,
  timeline: Timeline,
): StayPlan | null {
  const { rng, zone, listing, span } = context;
  const createdAt = bookingInstant(context, startDay, drawLead(context, channel));
  if (createdAt === null) return null;
  for (let night = startDay; night < startDay + nights; night += 1) {
    if ((timeline.releasedAt[night - timeline.firstDay] ?? 0) >= createdAt) return null;
  }
  const checkIn = zone.instant(startDay, listing.checkInTime * 60);
  const flow = rng.fromTable(weightTable(flowsByChannel[channel]));
  const latestAnswer = createdAt + (checkIn - createdAt) / 2;
  const answeredAt = (medianMinutes: number, capHours: number) =>
    Math.min(
      latestAnswer,
      createdAt + Math.round(Math.min(capHours * 60, rng.logNormal(medianMinutes, 1.1)) * msPerMinute),
    );
  const confirmedAt =
    flow === 'instant' ? createdAt : flow === 'request' ? answeredAt(90, 23) : answeredAt(6 * 60, 5 * 24);
  const initialStatus: ReservationStatus =
    flow === 'instant' ? 'accepted' : flow === 'request' ? 'pending' : 'inquiry';
  const transitions: { at: number; from: ReservationStatus; to: ReservationStatus; actor: string | null }[] =
    [];
  let status: ReservationStatus = initialStatus;
  if (confirmedAt > createdAt && confirmedAt <= span.nowMs) {
    transitions.push({
      at: confirmedAt,
      from: initialStatus,
      to: 'accepted',
      actor: flow === 'request' ? hostActor(context) : null,
    });
    status = 'accepted';
  }
  let cancelledAt: number | null = null;
  let cancelledBy: CancelledBy | null = null;
  if (status === 'accepted' && rng.chance(cancellationRates[channel])) {
    const room = checkIn - confirmedAt - msPerHour;
    const early = rng.chance(0.35);
    const at =
      confirmedAt +
      10 * msPerMinute +
      Math.round(rng.next() * (early ? Math.min(48 * msPerHour, room) : room));
    if (room > 10 * msPerMinute && at <= span.nowMs) {
      const roll = rng.next();
      cancelledBy = roll < 0.85 ? 'guest' : channel === 'direct' || roll < 0.9 ? 'host' : 'channel';
      transitions.push({
        at,
        from: 'accepted',
        to: 'cancelled',
        actor: cancelledBy === 'host' ? hostActor(context) : null,
      });
      cancelledAt = at;
      status = 'cancelled';
    }
  }
  return {
    ...stayBase(context, channel, startDay, nights),
    status,
    flow,
    createdAt,
    createdDay: zone.localDay(createdAt),
    inquiryAt: flow === 'inquiry' ? createdAt : null,
    pendingAt: flow === 'request' ? createdAt : null,
    confirmedAt: status === 'accepted' || status === 'cancelled' ? confirmedAt : null,
    declinedAt: null,
    expiredAt: null,
    cancelledAt,
    cancelledBy,
    transitions,
    initialStatus,
  };
}

/**
 * Inquiries and requests that never became bookings: declined by the host, expired after a day, or
 * recent inquiries still open. They hold no nights, so their dates may overlap anything.
 */
function planUnconverted(context: ActivityContext, bookings: number): StayPlan[] {
  const { rng, span, listing, zone } = context;
  const channels = weightTable(
    (
      [
        ['airbnb', 60],
        ['vrbo', 25],
        ['direct', 15],
      ] as const
    ).filter(([channel]) => listing.channels.includes(channel)),
  );
  const stays: StayPlan[] = [];
  if (channels.values.length === 0) return stays;
  const stayLengths = weightTable(listing.city.stayLengths);
  const firstDay = Math.max(span.startDay, listing.onboardDay + 3);
  if (firstDay >= span.endDay) return stays;
  for (let count = Math.round(bookings * 0.07); count > 0; count -= 1) {
    const channel = rng.fromTable(channels);
    const startDay = rng.int(firstDay, span.endDay - 1);
    const nights = Math.min(listing.maxNights, Math.max(listing.minNights, rng.fromTable(stayLengths)));
    const createdAt = bookingInstant(context, startDay, drawLead(context, channel));
    if (createdAt === null) continue;
    const flow: StayFacts['flow'] = channel === 'direct' || rng.chance(0.7) ? 'inquiry' : 'request';
    const initialStatus: ReservationStatus = flow === 'inquiry' ? 'inquiry' : 'pending';
    const declines = rng.chance(0.35);
    const resolvedAt = declines
      ? createdAt + Math.round(Math.min(20, rng.logNormal(3, 0.8)) * msPerHour)
      : createdAt + 24 * msPerHour;
    const resolved = resolvedAt <= span.nowMs;
    // A request is live and would take nights; one still unanswered is left out here.
    if (!resolved && flow === 'request') continue;
    const to: ReservationStatus = declines ? 'declined' : 'expired';
    const transitions = resolved
      ? [{ at: resolvedAt, from: initialStatus, to, actor: declines ? hostActor(context) : null }]
      : [];
    stays.push({
      ...stayBase(context, channel, startDay, nights),
      status: resolved ? to : initialStatus,
      flow,
      createdAt,
      createdDay: zone.localDay(createdAt),
      inquiryAt: flow === 'inquiry' ? createdAt : null,
      pendingAt: flow === 'request' ? createdAt : null,
      confirmedAt: null,
      declinedAt: resolved && declines ? resolvedAt : null,
      expiredAt: resolved && !declines ? resolvedAt : null,
      cancelledAt: null,
      cancelledBy: null,
      transitions,
      initialStatus,
    });
  }
  return stays;
}

/** A request to book made in the last hours and not answered yet, for about a third of the listings. */
function planOpenRequest(
  context: ActivityContext,
  calendar: DemoCalendar,
  timeline: Timeline,
): StayPlan | null {
  const { rng, span, listing, zone } = context;
  if (!(listing.index === 0 || rng.chance(0.3)) || !listing.channels.includes('airbnb')) return null;
  const nights = listing.minNights + rng.int(0, 3);
  const earliest = Math.max(span.todayDay + 5, listing.onboardDay + 3);
  for (
    let startDay = earliest + rng.int(0, 40);
    startDay < Math.min(span.endDay, earliest + 120);
    startDay += 1
  ) {
    let free = !calendar.closed(startDay) && !calendar.closed(startDay + nights);
    for (let night = startDay; night < startDay + nights && free; night += 1) free = timeline.isFree(night);
    if (!free || nights < (calendar.event(listing.cityIndex, startDay)?.minNights ?? 0)) continue;
    const createdAt = Math.max(
      listing.onboardAt + msPerHour,
      span.nowMs - rng.int(30, 18 * 60) * msPerMinute,
    );
    hold(timeline, startDay, startDay + nights, createdAt);
    return {
      ...stayBase(context, 'airbnb', startDay, nights),
      status: 'pending',
      flow: 'request',
      createdAt,
      createdDay: zone.localDay(createdAt),
      inquiryAt: null,
      pendingAt: createdAt,
      confirmedAt: null,
      declinedAt: null,
      expiredAt: null,
      cancelledAt: null,
      cancelledBy: null,
      transitions: [],
      initialStatus: 'pending',
    };
  }
  return null;
}

/** Money of a stay, in minor units, following the quote's arithmetic plus the channel's commission. */
interface StayMoney {
  readonly nightly: number[];
  readonly accommodationGross: number;
  readonly discount: number;
  readonly discountPct: number;
  readonly cleaning: number;
  readonly extraGuests: number;
  readonly extraGuestFee: number;
  readonly tax: number;
  readonly hostFee: number;
  readonly accommodation: number;
  readonly guestPrice: number;
  readonly hostPayout: number;
}

function priceStay(
  calendar: DemoCalendar,
  timeline: Timeline,
  listing: ListingPlan,
  stay: StayPlan,
): StayMoney {
  const nights = stay.endDay - stay.startDay;
  const orphan =
    nights <= orphanGapNights &&
    heldBefore(timeline, stay.startDay - 1, stay.createdAt) &&
    heldBefore(timeline, stay.endDay, stay.createdAt);
  const listed: number[] = [];
  for (let day = stay.startDay; day < stay.endDay; day += 1) {
    const ahead = day - stay.createdDay;
    const price = nightPriceMinor(calendar, listing, day, {
      lastMinute: ahead >= 0 && ahead <= lastMinuteDays,
      orphan,
    });
    listed.push(channelPriceMinor(listing, day, stay.channel, price));
  }
  const accommodationGross = listed.reduce((sum, price) => sum + price, 0);
  const discountPct =
    nights >= monthlyDiscountNights
      ? listing.monthlyDiscountPct
      : nights >= weeklyDiscountNights
        ? listing.weeklyDiscountPct
        : 0;
  const discount = percentOf(accommodationGross, discountPct);
  // Nightly rates are after the discount, spread by each night's price, so they add up to accommodation.
  const shares = allocateByLargestRemainder(discount, listed);
  const nightly = listed.map((price, index) => price - (shares[index] ?? 0));
  const extraGuests = Math.max(0, stay.party - listing.guestsIncluded);
  const extraGuestFee = listing.extraGuestFeeMinor * extraGuests * nights;
  const accommodation = accommodationGross - discount;
  const taxable = accommodation + listing.cleaningFeeMinor + extraGuestFee;
  const tax = percentOf(taxable, listing.taxRateBp / 100);
  const hostFee = percentOf(taxable, hostServiceFeePercent[stay.channel]);
  const guestPrice = taxable + tax;
  // Airbnb collects and remits the taxes itself; the other channels pay them out with the booking.
  const hostPayout = taxable + (stay.channel === 'airbnb' ? 0 : tax) - hostFee;
  return {
    nightly,
    accommodationGross,
    discount,
    discountPct,
    cleaning: listing.cleaningFeeMinor,
    extraGuests,
    extraGuestFee,
    tax,
    hostFee,
    accommodation,
    guestPrice,
    hostPayout,
  };
}

/** A short reference in each channel's style, unique per account and channel (a keyed permutation). */
function confirmationCode(span: DemoSpan, listing: ListingPlan, channel: Channel, serial: number): string {
  if (serial >= 4096) throw new RangeError('More than 4096 reservations on one channel of one listing');
  const value = listing.codeScope * 4096 + serial;
  const letters = 'ABCDEFGHJKMNPQRSTVWXYZ0123456789';
  const encode = (number: number, length: number) => {
    let out = '';
    let rest = number;
    for (let index = 0; index < length; index += 1) {
      out = (letters[rest % 32] ?? 'A') + out;
      rest = Math.floor(rest / 32);
    }
    return out;
  };
  switch (channel) {
    case 'airbnb':
      return `HM${encode(permuteBits(value, 40, span.seed ^ 0xa1), 8)}`;
    case 'vrbo':
      return `HA-${encode(permuteBits(value, 34, span.seed ^ 0xb2), 7)}`;
    case 'booking':
      return String(2_000_000_000 + permuteBits(value, 30, span.seed ^ 0xc3));
    case 'direct':
      return `DIR-${encode(permuteBits(value, 40, span.seed ^ 0xd4), 8)}`;
  }
}

function accessCodeFor(
  rng: DemoRandom,
  listing: ListingPlan,
  stay: StayPlan,
): { lockId: string; code: string; source: string } | null {
  const lock = listing.lock;
  if (lock === null) return null;
  const digits = stay.phone.replace(/\D/g, '').slice(-lock.codeLength);
  const usable = (code: string) => !lock.noZeros || (!code.includes('0') && !code.startsWith('12'));
  if (stay.channel === 'airbnb' && digits.length === lock.codeLength && usable(digits)) {
    return { lockId: lock.id, code: digits, source: 'guest_phone' };
  }
  let code = '';
  for (let index = 0; index < lock.codeLength; index += 1)
    code += String(lock.noZeros ? rng.int(1, 9) : rng.int(0, 9));
  if (!usable(code)) code = `${rng.int(3, 9)}${code.slice(1)}`;
  return { lockId: lock.id, code, source: 'random' };
}

function writeStay(
  context: ActivityContext,
  calendar: DemoCalendar,
  timeline: Timeline,
  serials: Map<Channel, number>,
  plan: StayPlan,
): void {
  const { span, listing, account, rows, rng, zone, ids } = context;
  const serial = serials.get(plan.channel) ?? 0;
  serials.set(plan.channel, serial + 1);
  const money = priceStay(calendar, timeline, listing, plan);
  const live = plan.status === 'accepted' || plan.status === 'pending';

  // Door codes: known for past stays, set on upcoming ones within a month, with an access-code row for the lock.
  let stay: StayPlan = plan;
  const access =
    plan.status === 'accepted' && plan.startDay <= span.todayDay + 30
      ? accessCodeFor(rng, listing, plan)
      : null;
  if (access) stay = { ...plan, accessCode: access.code };

  const lastChange = plan.transitions.at(-1)?.at ?? plan.createdAt;
  const currency = listing.city.currency;
  rows.reservations.push({
    id: stay.id,
    account_id: account.accountId,
    listing_id: listing.id,
    channel: stay.channel,
    channel_account_id: account.channelAccountIds[stay.channel] ?? null,
    confirmation_code: confirmationCode(span, listing, stay.channel, serial),
    status: stay.status,
    cancelled_by: stay.cancelledBy,
    guest_first_name: stay.guestFirstName,
    guest_last_name: stay.guestLastName,
    guest_email: stay.email,
    guest_phone: stay.phone,
    adults: stay.adults,
    children: stay.children,
    infants: stay.infants,
    pets: 0,
    start_date: dateOfDay(stay.startDay),
    end_date: dateOfDay(stay.endDay),
    currency,
    accommodation_minor: money.accommodation,
    guest_price_minor: money.guestPrice,
    host_payout_minor: money.hostPayout,
    check_in_time: stay.ownCheckInTime,
    check_out_time: stay.ownCheckOutTime,
    access_code: stay.accessCode,
    notes: stay.notes,
    inquiry_at: stay.inquiryAt === null ? null : new Date(stay.inquiryAt),
    pending_at: stay.pendingAt === null ? null : new Date(stay.pendingAt),
    confirmed_at: stay.confirmedAt === null ? null : new Date(stay.confirmedAt),
    cancelled_at: stay.cancelledAt === null ? null : new Date(stay.cancelledAt),
    declined_at: stay.declinedAt === null ? null : new Date(stay.declinedAt),
    expired_at: stay.expiredAt === null ? null : new Date(stay.expiredAt),
    created_at: isoOf(stay.createdAt),
    updated_at: isoOf(lastChange),
  });

  if (live) {
    rows.calendar_holds.push({
      id: ids.next('block'),
      account_id: account.accountId,
      listing_id: listing.id,
      nights: `[${dateOfDay(stay.startDay)},${dateOfDay(stay.endDay)})`,
      kind: 'reservation',
      reservation_id: stay.id,
      block_reason: null,
      note: null,
      created_by: null,
      created_at: isoOf(stay.pendingAt ?? stay.confirmedAt ?? stay.createdAt),
    });
  }

  money.nightly.forEach((amount, index) => {
    rows.reservation_nights.push({
      reservation_id: stay.id,
      night: dateOfDay(stay.startDay + index),
      accommodation_minor: amount,
    });
  });

  const nights = stay.endDay - stay.startDay;
  const items: { type: string; name: string; amount: number; paidBy: 'guest' | 'host'; toHost: boolean }[] = [
    {
      type: 'accommodation',
      name: `${nights} ${nights === 1 ? 'night' : 'nights'}`,
      amount: money.accommodationGross,
      paidBy: 'guest',
      toHost: true,
    },
  ];
  if (money.discount !== 0) {
    const kind = nights >= monthlyDiscountNights ? 'Monthly' : 'Weekly';
    items.push({
      type: 'discount',
      name: `${kind} discount (${money.discountPct}%)`,
      amount: -money.discount,
      paidBy: 'guest',
      toHost: true,
    });
  }
  if (money.cleaning !== 0) {
    items.push({
      type: 'cleaning_fee',
      name: 'Cleaning fee',
      amount: money.cleaning,
      paidBy: 'guest',
      toHost: true,
    });
  }
  if (money.extraGuestFee !== 0) {
    items.push({
      type: 'extra_guest_fee',
      name: `Extra guest fee (${money.extraGuests} × ${nights} ${nights === 1 ? 'night' : 'nights'})`,
      amount: money.extraGuestFee,
      paidBy: 'guest',
      toHost: true,
    });
  }
  if (money.tax !== 0) {
    items.push({
      type: 'tax',
      name: `Tax (${listing.taxRateBp / 100}%)${stay.channel === 'airbnb' ? ', remitted by Airbnb' : ''}`,
      amount: money.tax,
      paidBy: 'guest',
      toHost: stay.channel !== 'airbnb',
    });
  }
  if (money.hostFee !== 0) {
    items.push({
      type: 'host_service_fee',
      name: `${channelNames[stay.channel]} host service fee (${hostServiceFeePercent[stay.channel]}%)`,
      amount: -money.hostFee,
      paidBy: 'host',
      toHost: false,
    });
  }
  items.forEach((item, index) => {
    rows.reservation_line_items.push({
      id: ids.next('lineItem'),
      reservation_id: stay.id,
      position: index + 1,
      type: item.type,
      name: item.name,
      amount_minor: item.amount,
      paid_by: item.paidBy,
      paid_to_host: item.toHost,
    });
  });

  const snapshot = {
    reservation_id: stay.id,
    account_id: account.accountId,
    start_date: dateOfDay(stay.startDay),
    end_date: dateOfDay(stay.endDay),
    guests: stay.party,
    accommodation_minor: money.accommodation,
    guest_price_minor: money.guestPrice,
    host_payout_minor: money.hostPayout,
    currency,
    client_id: null,
  };
  rows.reservation_changes.push({
    ...snapshot,
    changed_at: isoOf(stay.createdAt),
    change: 'created',
    status: stay.initialStatus,
    diff: '{}',
    actor_user_id: stay.channel === 'direct' && stay.flow === 'instant' ? account.ownerUserId : null,
  });
  for (const transition of stay.transitions) {
    rows.reservation_changes.push({
      ...snapshot,
      changed_at: isoOf(transition.at),
      change: 'status',
      status: transition.to,
      diff: JSON.stringify({ status: { from: transition.from, to: transition.to } }),
      actor_user_id: transition.actor,
    });
  }

  if (access && stay.endDay >= span.todayDay) {
    const validFrom = zone.instant(stay.startDay, stay.checkInTime * 60);
    const validTo = zone.instant(stay.endDay, stay.checkOutTime * 60);
    rows.access_codes.push({
      id: ids.next('accessCode'),
      account_id: account.accountId,
      reservation_id: stay.id,
      lock_id: access.lockId,
      code: access.code,
      source: access.source,
      valid_from: isoOf(validFrom),
      valid_to: isoOf(validTo),
      status: span.nowMs < validFrom ? 'scheduled' : span.nowMs < validTo ? 'active' : 'expired',
    });
  }

  addConversation(context, stay);
  addReview(context, stay);
}
