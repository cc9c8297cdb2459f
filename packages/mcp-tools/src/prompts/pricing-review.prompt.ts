import {
  addDays,
  areLocalDates,
  type Calendar,
  type CalendarDay,
  DomainError,
  dayOfWeek,
  daysBetween,
  type Listing,
  listingIdSchema,
  localDateIn,
  localDateSchema,
  maxDate,
  minDate,
  nightsOf,
  type PricingRule,
  type Reservation,
} from '@innkeep/domain';
import { getListingOperation } from '@innkeep/operations';
import { z } from 'zod';
import { collectPages } from '../resources/collect-pages.ts';
import { maxResourceCalendarDays } from '../resources/resource-definition.ts';
import { type CalendarGap, findGaps, unbookableReason } from './calendar-gaps.ts';
import { definePrompt } from './prompt-definition.ts';
import { dayLabel, plural, priceRange } from './prompt-text.ts';

/** Nights reviewed when no endDate is given. */
export const defaultReviewNights = 30;
/** Longest range one review covers, in nights (both ends included). */
export const maxReviewNights = maxResourceCalendarDays;
/** Most listings one portfolio review covers; past it, review listings one by one. */
export const maxReviewListings = 25;
/** Longest run of open nights between stays the review reports as a gap. */
export const reviewGapMaxNights = 7;
/** Days back that count as recent booking pickup. */
export const pickupDays = 7;

// Same weekday last year: stays are compared night for night with the dates 52 weeks earlier.
const lastYearShift = 364;
const maxStays = 5000;
const maxRules = 100;

// Refinements run even when a date failed its format check; only measure ranges of real dates.
const args = z
  .strictObject({
    listingId: listingIdSchema
      .optional()
      .describe(
        `The listing to review; the first ${maxReviewListings} enabled listings by name when omitted.`,
      ),
    startDate: localDateSchema
      .optional()
      .describe('First night to review, YYYY-MM-DD, not before today; today when omitted.'),
    endDate: localDateSchema
      .optional()
      .describe(
        `Last night to review (inclusive); ${defaultReviewNights} nights from startDate when omitted, at most ` +
          `${maxReviewNights} nights in all.`,
      ),
  })
  .superRefine((input, context) => {
    if (!areLocalDates(input.startDate, input.endDate)) return;
    checkRange(input.startDate ?? '', input.endDate ?? '', (message) =>
      context.addIssue({ code: 'custom', path: ['endDate'], message }),
    );
  });

/** pricing_review: prices against occupancy, pace and gaps, with concrete changes to approve. */
export const pricingReviewPrompt = definePrompt({
  name: 'pricing_review',
  title: 'Pricing review',
  description:
    'Reviews nightly prices against occupancy, booking pace (versus the same dates last year) and gaps for ' +
    `one listing or the portfolio, over a range (default the next ${defaultReviewNights} nights), and ` +
    'proposes concrete set_prices and create_pricing_rule calls for the host to approve.',
  scopes: ['listings:read', 'calendar:read', 'reservations:read', 'pricing:read'],
  args,
  async handler({ listingId, startDate: requestedStart, endDate: requestedEnd }, context) {
    const { actor, domain, clock } = context;
    const only = listingId === undefined ? undefined : await getListingOperation.run({ listingId }, context);
    const timeZone = only?.timeZone ?? (await domain.identity.getUser(actor)).account.timeZone;
    const today = localDateIn(timeZone, clock.now());
    const startDate = requestedStart ?? today;
    const endDate = requestedEnd ?? addDays(startDate, defaultReviewNights - 1);
    if (startDate < today) {
      throw new DomainError(
        'invalid_argument',
        `startDate ${startDate} is before today (${today} in ${timeZone}); prices can only change from today on.`,
        { details: { issues: [{ path: 'startDate', message: `Use ${today} or later.` }] } },
      );
    }
    checkRange(startDate, endDate, (message) => {
      throw new DomainError('invalid_argument', message, {
        details: { issues: [{ path: 'endDate', message }] },
      });
    });

    const portfolio =
      only === undefined
        ? await collectPages(
            (cursor, limit) => domain.listings.list(actor, { enabled: true, cursor, limit }),
            maxReviewListings + 1,
          )
        : { items: [only], complete: true };
    const reviewed = portfolio.items.slice(0, maxReviewListings);
    const range = { startDate, endDate };
    const [current, lastYear, rules] = await Promise.all([
      collectPages(
        (cursor, limit) =>
          domain.reservations.list(actor, {
            ...range,
            listingId,
            statuses: ['pending', 'accepted'],
            cursor,
            limit,
          }),
        maxStays,
      ),
      collectPages(
        (cursor, limit) =>
          domain.reservations.list(actor, {
            startDate: addDays(startDate, -lastYearShift),
            endDate: addDays(endDate, -lastYearShift),
            listingId,
            statuses: ['accepted', 'cancelled'],
            cursor,
            limit,
          }),
        maxStays,
      ),
      collectPages(
        (cursor, limit) => domain.pricing.listRules(actor, { listingId, cursor, limit }),
        maxRules,
      ),
    ]);

    const now = clock.now();
    const listingSections: string[] = [];
    for (const listing of reviewed) {
      // One night more on each side, so a gap at either end of the range is known to be closed in.
      const calendar = await domain.calendar.get(actor, {
        listingId: listing.id,
        startDate: addDays(startDate, -1),
        endDate: addDays(endDate, 1),
      });
      listingSections.push(
        listingSection(listing, calendar, range, {
          current: current.items.filter((stay) => stay.listingId === listing.id),
          lastYear: lastYear.items.filter((stay) => stay.listingId === listing.id),
          now,
          perNight: only !== undefined,
        }),
      );
    }

    const nights = daysBetween(startDate, endDate) + 1;
    const subject =
      only === undefined
        ? `${plural(reviewed.length, 'enabled listing')}` +
          (portfolio.items.length > reviewed.length
            ? ` (the first ${reviewed.length} by name; the account has more: review others with listingId)`
            : '')
        : `${only.name} (${only.id})`;
    const incomplete =
      current.complete && lastYear.complete ? '' : ' Some reservations were not read; pace is a lower bound.';
    const text = [
      `Review the nightly prices of ${subject} for ${dayLabel(startDate)} → ${dayLabel(endDate)} ` +
        `(${plural(nights, 'night')}) and propose concrete changes for the host to approve. Today is ${today} ` +
        `(${timeZone}). Facts read from Innkeep just now; prices are effective nightly prices after pricing ` +
        `rules, in each listing’s own currency (never add or compare amounts across currencies).${incomplete}`,
      ...listingSections,
      rulesSection(rules.items, rules.complete, range),
      '## What to do\n' +
        '1. For each listing, weigh occupancy and pace against last year: where nights close to today are ' +
        'still open or pace lags, propose lower prices or shorter minimum stays; where pace runs ahead or ' +
        'weekends fill early, propose higher prices; make gaps sellable (a shorter minimum stay, a lower ' +
        'price, or an orphan-gap rule).\n' +
        '2. Write each proposal as an exact tool call with its reason and expected effect:\n' +
        '   - set_prices {"listingId": "lst_…", "prices": [{"date": "YYYY-MM-DD", "price": 120}, {"date": ' +
        '"YYYY-MM-DD", "minNights": 1}]}: per-night overrides in the listing’s currency, only from today on. ' +
        'Pricing rules still apply on top of a price you set for every channel (not on top of one given ' +
        'with "channel"), and neither goes below the listing’s minimum price.\n' +
        '   - create_pricing_rule {"name": "…", "adjustment": {"kind": "percent", "amount": -10}, ' +
        '"listingIds": ["lst_…"], "daysOfWeek": [5, 6], "startDate": "YYYY-MM-DD", "endDate": "YYYY-MM-DD", ' +
        '"lastMinuteDays": 7, "orphanGapMaxNights": 3}: give only the conditions needed, and check the rules ' +
        'above so a new rule does not double one in force.\n' +
        '3. Present the proposals as a list and wait. Call set_prices or create_pricing_rule only for what ' +
        'the host approves, exactly as approved: new prices apply to bookings made here at once; channels ' +
        'are not sent prices. For more detail ' +
        'use get_pace_stats (on the books against the same lead time last year), get_gap_analysis (orphan ' +
        'nights and their value), get_pricing_stats (listed against booked prices), get_occupancy_stats, ' +
        'get_calendar, get_quote or get_pricing_rules.',
    ].join('\n\n');
    return {
      description: `Pricing review of ${only?.name ?? 'the portfolio'}, ${startDate} → ${endDate}`,
      messages: [{ role: 'user', content: { type: 'text', text } }],
    };
  },
});

function checkRange(startDate: string, endDate: string, fail: (message: string) => void): void {
  const nights = daysBetween(startDate, endDate) + 1;
  if (nights < 1) fail(`endDate ${endDate} is before startDate ${startDate}.`);
  else if (nights > maxReviewNights) {
    fail(`Review at most ${maxReviewNights} nights at a time; ${startDate} → ${endDate} has ${nights}.`);
  }
}

interface StayFacts {
  readonly current: readonly Reservation[];
  readonly lastYear: readonly Reservation[];
  readonly now: Date;
  /** List every night (single-listing review) rather than only the summary. */
  readonly perNight: boolean;
}

function listingSection(
  listing: Listing,
  calendar: Calendar,
  range: { startDate: string; endDate: string },
  facts: StayFacts,
): string {
  const days = calendar.days.filter((day) => day.date >= range.startDate && day.date <= range.endDate);
  const currency = calendar.currency;
  const booked = days.filter((day) => day.status === 'booked');
  const open = days.filter((day) => day.status === 'available');
  const blocked = days.filter((day) => day.status === 'blocked');
  // Occupancy as get_occupancy_stats and the analytics article define it: every block, whatever its
  // reason, leaves the denominator, so the review and the figures a host checks it against agree.
  const available = days.length - blocked.length;
  const occupancy =
    available === 0 ? 'no available nights' : `${Math.round((booked.length / available) * 100)}%`;

  const lastYearNow = new Date(facts.now.getTime() - lastYearShift * 86_400_000);
  const lastYearRange = {
    startDate: addDays(range.startDate, -lastYearShift),
    endDate: addDays(range.endDate, -lastYearShift),
  };
  const onBooksThen = sumNights(
    facts.lastYear.filter((stay) => wasOnTheBooks(stay, lastYearNow)),
    lastYearRange,
  );
  const finalLastYear = sumNights(
    facts.lastYear.filter((stay) => stay.status === 'accepted'),
    lastYearRange,
  );
  const pickupSince = new Date(facts.now.getTime() - pickupDays * 86_400_000);
  const pickedUp = sumNights(
    facts.current.filter((stay) => new Date(heldSince(stay) ?? stay.createdAt) >= pickupSince),
    range,
  );

  const weekend = open.filter((day) => isWeekendNight(day.date));
  const weekday = open.filter((day) => !isWeekendNight(day.date));
  const gaps = findGaps(calendar.days, reviewGapMaxNights);
  const lines = [
    `## ${listing.name} (${listing.id}), ${listing.city}, prices in ${currency}`,
    `Settings: base price ${listing.basePrice}, minimum price ${listing.minPrice ?? 'none'}, minimum stay ` +
      `${plural(listing.minNights, 'night')}, weekly discount ${listing.weeklyDiscount}%, monthly discount ` +
      `${listing.monthlyDiscount}%${listing.enabled ? '' : '; disabled (takes no bookings)'}.`,
    `Occupancy: ${booked.length} of ${days.length} nights booked (${occupancy} of ${available} available, ` +
      `blocked nights left out), ${open.length} open, ${blocked.length} blocked (${blockCounts(blocked)}).`,
    `Pace: ${sumNights(facts.current, range)} nights on the books now; at this point last year ${onBooksThen} ` +
      `for the same dates (−${lastYearShift} days), which finished at ${finalLastYear}; ` +
      `${plural(pickedUp, 'night')} booked in the last ${pickupDays} days.`,
    `Open nights’ prices: ${priceSpread(open)}; Fri/Sat nights ${priceSpread(weekend)}; other nights ` +
      `${priceSpread(weekday)}. Booked nights’ current prices: ${priceSpread(booked)}.`,
    `Gaps of up to ${plural(reviewGapMaxNights, 'night')}: ${gaps.length === 0 ? 'none' : gaps.map(gapLabel).join('; ')}.`,
  ];
  if (facts.perNight) {
    lines.push('Nights (date, status, effective price, minimum stay, notes):', ...days.map(nightLine));
  }
  return lines.join('\n');
}

/** Blocked nights by reason, e.g. "owner 3, manual 1". */
function blockCounts(blocked: readonly CalendarDay[]): string {
  if (blocked.length === 0) return 'none';
  const counts = new Map<string, number>();
  for (const day of blocked) {
    const reason = day.blockReason ?? 'manual';
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  return [...counts].map(([reason, count]) => `${reason} ${count}`).join(', ');
}

function gapLabel(gap: CalendarGap): string {
  return (
    `${dayLabel(gap.firstNight)} → ${dayLabel(gap.lastNight)} (${plural(gap.nights, 'night')}, minimum stay ` +
    `${gap.minNights}${gap.unbookable ? `; unbookable as it stands: ${unbookableReason(gap)}` : ''})`
  );
}

function nightLine(day: CalendarDay): string {
  const status =
    day.status === 'booked'
      ? `booked (${day.reservationId ?? 'reservation'})`
      : day.status === 'blocked'
        ? `blocked (${day.blockReason ?? 'manual'})`
        : 'open';
  const flags = [
    day.closedToArrival ? 'closed to arrival' : '',
    day.closedToDeparture ? 'closed to departure' : '',
    day.appliedRuleIds.length > 0 ? `rules ${day.appliedRuleIds.join(', ')}` : '',
  ].filter((flag) => flag !== '');
  return `- ${dayLabel(day.date)}: ${status}, ${day.price}, min ${day.minNights}${flags.length > 0 ? `, ${flags.join(', ')}` : ''}`;
}

function rulesSection(
  rules: readonly PricingRule[],
  complete: boolean,
  range: { startDate: string; endDate: string },
): string {
  // Rules dated wholly before or after the range change none of its nights; listing them only adds noise.
  const relevant = rules.filter(
    (rule) =>
      (rule.startDate === null || rule.startDate <= range.endDate) &&
      (rule.endDate === null || rule.endDate >= range.startDate),
  );
  const lines = relevant.map((rule) => {
    const amount = rule.adjustment.amount;
    const change =
      rule.adjustment.kind === 'percent'
        ? `${amount > 0 ? '+' : ''}${amount}%`
        : `${amount > 0 ? '+' : ''}${amount}`;
    const conditions = [
      rule.listingIds === null ? 'all listings' : plural(rule.listingIds.length, 'listing'),
      rule.daysOfWeek === null ? '' : `days ${rule.daysOfWeek.join(',')} (0 = Sunday)`,
      rule.startDate === null && rule.endDate === null
        ? ''
        : `${rule.startDate ?? '…'} → ${rule.endDate ?? '…'}`,
      rule.lastMinuteDays === null ? '' : `within ${rule.lastMinuteDays} days of arrival`,
      rule.orphanGapMaxNights === null ? '' : `gaps of up to ${rule.orphanGapMaxNights} nights`,
    ].filter((condition) => condition !== '');
    return `- ${rule.name} (${rule.id}): ${change}, ${conditions.join(', ')}${rule.enabled ? '' : ', disabled'}.`;
  });
  const notes = [
    relevant.length < rules.length
      ? `${plural(rules.length - relevant.length, 'rule')} dated outside these nights left out.`
      : '',
    complete ? '' : `Only the first ${rules.length} rules were read; call get_pricing_rules for all.`,
  ].filter((note) => note !== '');
  const more = notes.length === 0 ? '' : `\n(${notes.join(' ')})`;
  const body = lines.length === 0 ? 'None.' : lines.join('\n');
  return `## Pricing rules for these nights, in the order they apply\n${body}${more}`;
}

function priceSpread(days: readonly CalendarDay[]): string {
  if (days.length === 0) return 'none';
  const prices = days.map((day) => day.price);
  const average = prices.reduce((sum, price) => sum + price, 0) / prices.length;
  return `${priceRange(prices)}, average ${Math.round(average * 100) / 100}`;
}

// Friday and Saturday nights are the weekend nights of leisure rentals.
function isWeekendNight(date: string): boolean {
  const day = dayOfWeek(date);
  return day === 5 || day === 6;
}

/** When the stay first held its nights: requested (pending), else accepted; null when it never held them. */
function heldSince(stay: Reservation): string | null {
  return stay.pendingAt ?? stay.confirmedAt;
}

function wasOnTheBooks(stay: Reservation, instant: Date): boolean {
  const since = heldSince(stay);
  if (since === null || new Date(since) > instant) return false;
  return stay.cancelledAt === null || new Date(stay.cancelledAt) > instant;
}

function sumNights(stays: readonly Reservation[], range: { startDate: string; endDate: string }): number {
  return stays.reduce((sum, stay) => {
    const first = maxDate(stay.startDate, range.startDate);
    const end = minDate(stay.endDate, addDays(range.endDate, 1));
    return sum + (end > first ? nightsOf(first, end).length : 0);
  }, 0);
}
