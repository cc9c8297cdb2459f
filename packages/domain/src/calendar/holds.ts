import { addDays, type LocalDate } from '../core/dates.ts';
import { DomainError } from '../core/errors.ts';

/** Why an owner or manager takes nights off the calendar. */
export const hostBlockReasons = ['owner', 'maintenance', 'manual'] as const;

/**
 * Why nights are blocked: one of {@link hostBlockReasons}, or `channel` for nights a channel's calendar holds
 * (imported from its iCal feed; whether booked or blocked there, the feed does not say).
 */
export const blockReasons = [...hostBlockReasons, 'channel'] as const;
/** One of {@link blockReasons}. */
export type BlockReason = (typeof blockReasons)[number];

/** What holds a listing's nights: a live reservation, or a block. */
export const holdKinds = ['reservation', 'block'] as const;
/** One of {@link holdKinds}. */
export type HoldKind = (typeof holdKinds)[number];

/** Nights a reservation or a block takes, `startDate` up to but not including `endDate`. */
export interface CalendarHold {
  readonly id: string;
  readonly startDate: LocalDate;
  /** The day after the last held night (a reservation's check-out date). */
  readonly endDate: LocalDate;
  readonly kind: HoldKind;
  readonly reservationId: string | null;
  readonly blockReason: BlockReason | null;
  readonly note: string | null;
  /** The guest's name for a reservation hold, so a clash can say whose stay is in the way. */
  readonly guestName: string | null;
}

/** One held range a request ran into, as it appears in a conflict's `details.clashes`. */
export interface HoldClash {
  readonly startDate: LocalDate;
  /** Exclusive: the day after the last held night. */
  readonly endDate: LocalDate;
  readonly kind: HoldKind;
  readonly reservationId: string | null;
  readonly blockReason: BlockReason | null;
}

/** Says in words what holds a range: whose reservation, or which kind of block, and which nights. */
export function describeHold(hold: CalendarHold): string {
  if (hold.kind === 'reservation') {
    const guest = hold.guestName === null ? '' : ` for ${hold.guestName}`;
    return `reservation ${hold.reservationId ?? ''}${guest}, check-in ${hold.startDate}, check-out ${hold.endDate}`;
  }
  const lastNight = addDays(hold.endDate, -1);
  const nights =
    lastNight === hold.startDate
      ? `the night of ${hold.startDate}`
      : `the nights ${hold.startDate} to ${lastNight}`;
  if (hold.blockReason === 'channel') return `${nights} held by a channel's calendar`;
  return `${hold.blockReason ?? 'manual'} block on ${nights}`;
}

/**
 * A `conflict` naming every held range that stands in the way, with the ranges in `details.clashes`.
 * @param lead - what was refused, e.g. "These dates are not available".
 * @param advice - what the caller can do instead.
 */
export function holdConflict(lead: string, holds: readonly CalendarHold[], advice: string): DomainError {
  const clashes: HoldClash[] = holds.map((hold) => ({
    startDate: hold.startDate,
    endDate: hold.endDate,
    kind: hold.kind,
    reservationId: hold.reservationId,
    blockReason: hold.blockReason,
  }));
  return new DomainError('conflict', `${lead}: ${holds.map(describeHold).join('; ')}. ${advice}`, {
    details: { clashes },
  });
}
