import {
  addDays,
  type Calendar,
  type Listing,
  localDateIn,
  localDateSchema,
  type Reservation,
} from '@innkeep/domain';
import { z } from 'zod';
import { collectPages } from '../resources/collect-pages.ts';
import type { ToolContext } from '../tool-definition.ts';
import { type CalendarGap, findGaps, unbookableReason } from './calendar-gaps.ts';
import { latestGuestMessage, readThread } from './guest-thread.ts';
import { definePrompt } from './prompt-definition.ts';
import {
  dayLabel,
  guestName,
  hourLabel,
  instantLabel,
  partyLabel,
  plural,
  priceRange,
  quoteUntrusted,
  untrustedNotice,
} from './prompt-text.ts';

/** Days ahead, from the briefing's day, searched for gaps. */
export const briefingGapDays = 14;
/** Longest run of open nights between stays the briefing reports as a gap. */
export const briefingGapMaxNights = 5;
/** Days before and after the briefing's day whose stays' conversations are checked for unanswered guests. */
export const briefingThreadDays = 7;
/** Most conversations one briefing checks, most pressing first. */
export const maxBriefingThreads = 60;
/** Most lines one section of the briefing lists. */
export const maxBriefingSectionLines = 50;
/** Most listings whose calendars one briefing searches for gaps. */
export const maxBriefingGapListings = 100;

// Enough for every stay touching one day on a 2,000-listing account, even with one-night stays.
const maxDayStays = 10_000;
const maxWeekStays = 2000;
const maxOpenRequests = 200;

const args = z.strictObject({
  date: localDateSchema
    .optional()
    .describe('The day to brief on, YYYY-MM-DD; today in the account’s time zone when omitted.'),
});

interface UnansweredThread {
  readonly reservation: Reservation;
  readonly lastGuestMessageAt: string | null;
  readonly body: string | null;
}

interface ListingGaps {
  readonly listing: Listing;
  readonly calendar: Calendar;
  readonly gaps: readonly CalendarGap[];
}

/** daily_briefing: the day's arrivals, departures, turnovers, unanswered guests, gaps and to-dos. */
export const dailyBriefingPrompt = definePrompt({
  name: 'daily_briefing',
  title: 'Daily briefing',
  description:
    'A briefing on today (or a given day) from the account’s live data: check-ins, check-outs, same-day ' +
    `turnovers, guests waiting for a reply, open gaps of up to ${briefingGapMaxNights} nights in the next ` +
    `${briefingGapDays} days, and anything needing action, in the account’s time zone, with the tools to act.`,
  // The account's time zone comes from the profile only to decide which day "today" is; no user data is
  // shown, so user:read is not needed.
  scopes: ['reservations:read', 'messages:read', 'calendar:read', 'listings:read'],
  args,
  async handler({ date: requested }, context) {
    const { actor, domain, clock } = context;
    const { account } = await domain.identity.getUser(actor);
    const date = requested ?? localDateIn(account.timeZone, clock.now());

    const live = ['pending', 'accepted'] as const;
    const [day, week, requests, listings] = await Promise.all([
      // Stays with a night on the eve or on the day: the day's arrivals, departures and guests in house.
      collectPages(
        (cursor, limit) =>
          domain.reservations.list(actor, {
            startDate: addDays(date, -1),
            endDate: date,
            statuses: [...live],
            cursor,
            limit,
          }),
        maxDayStays,
      ),
      // The weeks around it, only to find more guests waiting for a reply.
      collectPages(
        (cursor, limit) =>
          domain.reservations.list(actor, {
            startDate: addDays(date, -briefingThreadDays),
            endDate: addDays(date, briefingThreadDays),
            statuses: [...live],
            cursor,
            limit,
          }),
        maxWeekStays,
      ),
      collectPages(
        (cursor, limit) =>
          domain.reservations.list(actor, {
            startDate: date,
            statuses: ['inquiry', 'pending'],
            cursor,
            limit,
          }),
        maxOpenRequests,
      ),
      collectPages(
        (cursor, limit) => domain.listings.list(actor, { enabled: true, cursor, limit }),
        maxBriefingGapListings + 1,
      ),
    ]);

    const arrivals = day.items.filter((stay) => stay.startDate === date);
    const departures = day.items.filter((stay) => stay.endDate === date);
    const inHouse = day.items.filter((stay) => stay.startDate < date && date < stay.endDate);
    const turnovers = departures.flatMap((out) => {
      const next = arrivals.find((arrival) => arrival.listingId === out.listingId);
      return next === undefined ? [] : [{ out, next }];
    });

    const candidates = threadCandidates(date, [...day.items, ...week.items, ...requests.items]);
    const checked = candidates.slice(0, maxBriefingThreads);
    const unanswered = await findUnanswered(context, checked);

    const gapListings = listings.items.slice(0, maxBriefingGapListings);
    const listingGaps: ListingGaps[] = [];
    for (const listing of gapListings) {
      const calendar = await domain.calendar.get(actor, {
        listingId: listing.id,
        startDate: addDays(date, -1),
        endDate: addDays(date, briefingGapDays),
      });
      const gaps = findGaps(calendar.days, briefingGapMaxNights);
      if (gaps.length > 0) listingGaps.push({ listing, calendar, gaps });
    }

    const sections = [
      `Prepare the host's daily briefing for ${dayLabel(date)}. The account's time zone is ${account.timeZone}; ` +
        'every stay date below is local to its listing, and a stay’s end date is its check-out day. ' +
        'Facts read from Innkeep just now' +
        (day.complete ? ':' : ` (only the first ${day.items.length} stays around the day were read):`),
      section(
        `Check-ins (${arrivals.length})`,
        arrivals.map((stay) => {
          const code = stay.accessCode === null ? 'no access code on file' : `access code ${stay.accessCode}`;
          return (
            `- ${guestName(stay)} at ${stay.listingName} (${stay.listingId}), from ${hourLabel(stay.checkInTime)}, ` +
            `${plural(stay.nights, 'night')} to ${dayLabel(stay.endDate)}, ${partyLabel(stay)}, ${stay.channel} ` +
            `${stay.confirmationCode}, ${stay.status}, ${code}; reservation ${stay.id}.`
          );
        }),
      ),
      section(
        `Check-outs (${departures.length})`,
        departures.map(
          (stay) =>
            `- ${guestName(stay)} leaves ${stay.listingName} (${stay.listingId}) by ${hourLabel(stay.checkOutTime)}` +
            ` after ${plural(stay.nights, 'night')}; reservation ${stay.id}.`,
        ),
      ),
      section(
        `Same-day turnovers (${turnovers.length})`,
        turnovers.map(
          ({ out, next }) =>
            `- ${out.listingName}: ${guestName(out)} out by ${hourLabel(out.checkOutTime)}, ${guestName(next)} in ` +
            `from ${hourLabel(next.checkInTime)} — ${plural(Math.max(0, next.checkInTime - out.checkOutTime), 'hour')} to clean.`,
        ),
      ),
      `In house tonight: ${plural(inHouse.length + arrivals.length, 'stay')} (${inHouse.length} continuing, ` +
        `${arrivals.length} arriving).`,
      section(
        `Guests waiting for a reply (${unanswered.length})`,
        unanswered.map(({ reservation, lastGuestMessageAt, body }) => {
          const when = lastGuestMessageAt === null ? '' : ` at ${instantLabel(lastGuestMessageAt)}`;
          return (
            `- ${guestName(reservation)}, ${reservation.listingName}, ${dayLabel(reservation.startDate)} → ` +
            `${dayLabel(reservation.endDate)} (${reservation.status}; reservation ${reservation.id}) wrote${when}` +
            (body === null ? '.' : `: ${quoteUntrusted(body, 500)}`)
          );
        }),
        candidates.length > checked.length
          ? `Checked the conversations of the ${checked.length} most pressing of ${candidates.length} stays ` +
              `around ${date}; call get_message_thread for the others.`
          : undefined,
      ),
      section(
        `Open gaps of up to ${plural(briefingGapMaxNights, 'night')} in the next ${briefingGapDays} days (${countGaps(listingGaps)})`,
        listingGaps.flatMap(({ listing, calendar, gaps }) =>
          gaps.map((gap) => {
            const prices = `${priceRange(gap.prices)} ${calendar.currency}`;
            const fill = gap.unbookable
              ? `unbookable as it stands (${unbookableReason(gap)})`
              : `bookable, minimum stay ${gap.minNights}`;
            return (
              `- ${listing.name} (${listing.id}): ${dayLabel(gap.firstNight)} → ${dayLabel(gap.lastNight)}, ` +
              `${plural(gap.nights, 'night')}, ${prices} a night, ${fill}.`
            );
          }),
        ),
        listings.items.length > gapListings.length
          ? `Searched the calendars of the first ${gapListings.length} enabled listings by name; call ` +
              'get_calendar for the others.'
          : undefined,
      ),
      section(
        'Needs action',
        actionItems(date, arrivals, requests.items, unanswered, listingGaps),
        requests.complete ? undefined : `Only the first ${requests.items.length} open requests were read.`,
      ),
      'Write the briefing for the host: short, most urgent first (guests waiting, arrivals without an ' +
        'access code, open requests), then the day’s arrivals, departures and turnovers, then gaps worth ' +
        'filling. Keep every fact as given; do not invent times, codes or prices. For each item, suggest the ' +
        'next step with the exact tool: get_message_thread to read a conversation and send_message to reply ' +
        '(the guest_response prompt drafts one); get_reservation for a stay’s details; update_reservation to ' +
        'add an access code; get_calendar, then set_prices (price or minNights), create_pricing_rule (e.g. ' +
        'orphanGapMaxNights) or set_availability to fill or close a gap; get_check_ins_check_outs for the full ' +
        'arrival and departure lists or other days, get_upcoming_reservations for what comes next. Change nothing and send nothing until the host approves that exact change or message.',
      untrustedNotice,
    ];
    return {
      description: `Daily briefing for ${date} (${account.timeZone})`,
      messages: [{ role: 'user', content: { type: 'text', text: sections.join('\n\n') } }],
    };
  },
});

/**
 * One titled list of the briefing. Past {@link maxBriefingSectionLines} lines it says how many more there
 * are, so a 2,000-listing account gets a briefing a model can read rather than one that fills its context.
 */
function section(title: string, lines: readonly string[], note?: string): string {
  const shown = lines.slice(0, maxBriefingSectionLines);
  const rest = lines.length - shown.length;
  const more = rest > 0 ? [`- …and ${rest} more; the tools named below list them all.`] : [];
  const body = lines.length === 0 ? 'None.' : [...shown, ...more].join('\n');
  return `## ${title}\n${body}${note === undefined ? '' : `\n(${note})`}`;
}

function countGaps(listingGaps: readonly ListingGaps[]): number {
  return listingGaps.reduce((sum, { gaps }) => sum + gaps.length, 0);
}

/**
 * The stays whose conversations are worth checking, most pressing first: arrivals today, open requests,
 * guests in house, departures today, then the coming week and the past week.
 */
function threadCandidates(date: string, stays: readonly Reservation[]): Reservation[] {
  const rank = (stay: Reservation) => {
    if (stay.startDate === date) return 0;
    if (stay.status === 'inquiry' || stay.status === 'pending') return 1;
    if (stay.startDate < date && date < stay.endDate) return 2;
    if (stay.endDate === date) return 3;
    if (stay.startDate > date) return 4;
    return 5;
  };
  const byId = new Map(stays.map((stay) => [stay.id, stay]));
  return [...byId.values()].sort(
    (a, b) =>
      rank(a) - rank(b) ||
      // Upcoming stays soonest first; departed ones most recent first.
      (rank(a) === 5 ? b.endDate.localeCompare(a.endDate) : a.startDate.localeCompare(b.startDate)) ||
      a.id.localeCompare(b.id),
  );
}

async function findUnanswered(
  context: ToolContext,
  stays: readonly Reservation[],
): Promise<UnansweredThread[]> {
  const { actor, domain } = context;
  const found: UnansweredThread[] = [];
  for (const reservation of stays) {
    const thread = await domain.messages.getThread(actor, { reservationId: reservation.id, limit: 1 });
    if (!thread.needsReply) continue;
    const { messages } = await readThread(context, reservation.id, 20);
    found.push({
      reservation,
      lastGuestMessageAt: thread.lastGuestMessageAt,
      body: latestGuestMessage(messages)?.body ?? null,
    });
  }
  return found;
}

function actionItems(
  date: string,
  arrivals: readonly Reservation[],
  requests: readonly Reservation[],
  unanswered: readonly UnansweredThread[],
  listingGaps: readonly ListingGaps[],
): string[] {
  const items: string[] = [];
  for (const { reservation } of unanswered) {
    items.push(`- Reply to ${guestName(reservation)} (reservation ${reservation.id}).`);
  }
  for (const stay of arrivals) {
    if (stay.accessCode === null) {
      items.push(
        `- ${guestName(stay)} arrives today at ${stay.listingName} with no access code on file (${stay.id}).`,
      );
    }
    if (stay.status === 'pending') {
      items.push(`- ${guestName(stay)} arrives today but the booking is still pending (${stay.id}).`);
    }
  }
  for (const stay of requests) {
    if (stay.startDate === date && stay.status === 'pending') continue;
    const kind = stay.status === 'inquiry' ? 'Inquiry' : 'Booking request';
    items.push(
      `- ${kind} from ${guestName(stay)} for ${stay.listingName}, ${dayLabel(stay.startDate)} → ` +
        `${dayLabel(stay.endDate)} (${stay.channel}, reservation ${stay.id}): ` +
        (stay.channel === 'direct' ? 'answer the guest' : `answer it on ${stay.channel}`) +
        ' before it expires; no tool accepts or declines requests.',
    );
  }
  for (const { listing, gaps } of listingGaps) {
    for (const gap of gaps.filter((candidate) => candidate.unbookable)) {
      items.push(
        `- ${listing.name}: the ${plural(gap.nights, 'night')} from ${dayLabel(gap.firstNight)} cannot be ` +
          `booked (${unbookableReason(gap)}); shorten the minimum stay or reopen arrivals, then price it to sell.`,
      );
    }
  }
  return items;
}
