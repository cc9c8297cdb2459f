import { addDays, localDate, type NightRange } from '../local-dates.ts';
import { fetchListings, fetchThreadReservations, fetchThreads, type MessageRow } from '../raw-rows.ts';
import type { BenchContext } from '../tool-case.ts';

/** One wait for a reply: a guest message (or run of them) after the host's last message. */
export interface GuestWait {
  readonly listingId: string;
  readonly channel: string;
  readonly stage: 'inquiry' | 'booked';
  readonly sentAt: Date;
  /** Listing-local hour (0–23) and ISO weekday (1 = Monday) of the guest's message. */
  readonly localHour: number;
  readonly localWeekday: number;
  /** Seconds to the host's next message, rounded; null while unanswered. */
  readonly responseSeconds: number | null;
}

/**
 * The waits that began in `range` (listing-local date of the guest's message), computed in JavaScript from the
 * whole threads of the reservations with messages around the period: the threads are sorted, guest and host
 * messages walked in order, automated and system messages skipped, and so are host messages that failed or
 * were not delivered (the guest never got them).
 */
export async function fetchGuestWaits(context: BenchContext, range: NightRange): Promise<GuestWait[]> {
  const from = new Date(`${addDays(range.startDate, -1)}T00:00:00Z`);
  const to = new Date(`${addDays(range.endDate, 2)}T00:00:00Z`);
  const [messages, reservations, listings] = await Promise.all([
    fetchThreads(context.db, context.accountId, from, to),
    fetchThreadReservations(context.db, context.accountId, from, to),
    fetchListings(context.db, context.accountId),
  ]);
  const zones = new Map(listings.map((listing) => [listing.id, listing.time_zone]));
  const threads = new Map<string, MessageRow[]>();
  for (const message of messages) {
    if (message.sender !== 'guest' && message.sender !== 'host') continue;
    if (message.delivery_status === 'failed' || message.delivery_status === 'not_delivered') continue;
    const thread = threads.get(message.reservation_id) ?? [];
    thread.push(message);
    threads.set(message.reservation_id, thread);
  }
  const waits: GuestWait[] = [];
  for (const reservation of reservations) {
    const thread = threads.get(reservation.id);
    if (thread === undefined) continue;
    thread.sort(
      (a, b) => a.sent_at.getTime() - b.sent_at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
    const zone = zones.get(reservation.listing_id) ?? 'UTC';
    let nextHostAt: Date | null = null;
    // Walk backwards so each guest message knows the host's next message after it.
    const answers = new Array<Date | null>(thread.length);
    for (let index = thread.length - 1; index >= 0; index -= 1) {
      answers[index] = nextHostAt;
      const message = thread[index];
      if (message?.sender === 'host') nextHostAt = message.sent_at;
    }
    thread.forEach((message, index) => {
      if (message.sender !== 'guest' || thread[index - 1]?.sender === 'guest') return;
      const date = localDate(message.sent_at, zone);
      if (date < range.startDate || date > range.endDate) return;
      const answeredAt = answers[index] ?? null;
      const { hour, weekday } = localHourAndWeekday(message.sent_at, zone);
      waits.push({
        listingId: reservation.listing_id,
        channel: reservation.channel,
        stage:
          reservation.confirmed_at !== null && message.sent_at >= reservation.confirmed_at
            ? 'booked'
            : 'inquiry',
        sentAt: message.sent_at,
        localHour: hour,
        localWeekday: weekday,
        responseSeconds:
          answeredAt === null ? null : Math.round((answeredAt.getTime() - message.sent_at.getTime()) / 1000),
      });
    });
  }
  return waits;
}

const hourFormatters = new Map<string, Intl.DateTimeFormat>();
const weekdayNumbers: Readonly<Record<string, number>> = {
  Mon: 1,
  Tue: 2,
  Wed: 3,
  Thu: 4,
  Fri: 5,
  Sat: 6,
  Sun: 7,
};

function localHourAndWeekday(instant: Date, timeZone: string): { hour: number; weekday: number } {
  let formatter = hourFormatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      hour: '2-digit',
      weekday: 'short',
    });
    hourFormatters.set(timeZone, formatter);
  }
  let hour = 0;
  let weekday = 0;
  for (const part of formatter.formatToParts(instant)) {
    if (part.type === 'hour') hour = Number(part.value);
    if (part.type === 'weekday') weekday = weekdayNumbers[part.value] ?? 0;
  }
  return { hour, weekday };
}

/** The response-time measures of a set of waits, rounded as the tools round them. */
export function responseMeasures(waits: readonly GuestWait[]): Record<string, number | null> {
  const seconds = waits
    .map((wait) => wait.responseSeconds)
    .filter((value): value is number => value !== null)
    .sort((a, b) => a - b);
  const minutes = (value: number | null) => (value === null ? null : Math.round(value / 6) / 10);
  const share = (limit: number) =>
    waits.length === 0
      ? null
      : Math.round((seconds.filter((value) => value <= limit).length / waits.length) * 10_000) / 10_000;
  return {
    waits: waits.length,
    answered: seconds.length,
    unanswered: waits.length - seconds.length,
    medianMinutes: minutes(interpolatedPercentile(seconds, 0.5)),
    meanMinutes: minutes(
      seconds.length === 0 ? null : seconds.reduce((sum, value) => sum + value, 0) / seconds.length,
    ),
    p90Minutes: minutes(interpolatedPercentile(seconds, 0.9)),
    withinHourShare: share(3_600),
    withinDayShare: share(86_400),
  };
}

/** A percentile between the two nearest values, like PostgreSQL's percentile_cont; null when empty. */
function interpolatedPercentile(sorted: readonly number[], fraction: number): number | null {
  if (sorted.length === 0) return null;
  const position = fraction * (sorted.length - 1);
  const below = sorted[Math.floor(position)] ?? 0;
  const above = sorted[Math.ceil(position)] ?? below;
  return below + (above - below) * (position - Math.floor(position));
}
