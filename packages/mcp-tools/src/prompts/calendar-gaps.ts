import type { CalendarDay } from '@innkeep/domain';

/** A run of open nights with a booked or blocked night right before and right after it. */
export interface CalendarGap {
  readonly firstNight: string;
  readonly lastNight: string;
  readonly nights: number;
  /** Minimum stay for an arrival on the first night. */
  readonly minNights: number;
  /**
   * True when no arrival in the gap allows a stay that fits as the calendar stands: each night is closed
   * to arrival or needs a longer minimum stay than the open nights left.
   */
  readonly unbookable: boolean;
  /** Nights of the gap closed to arrival. */
  readonly closedToArrival: number;
  /** Effective price of each night, in the calendar's currency. */
  readonly prices: readonly number[];
}

/**
 * The gaps of at most `maxNights` in `days` (consecutive dates, in order). A run of open nights touching
 * either end of `days` is not a gap: what lies beyond is unknown, so read one day more on each side than
 * the window of interest.
 */
export function findGaps(days: readonly CalendarDay[], maxNights: number): CalendarGap[] {
  const gaps: CalendarGap[] = [];
  let index = 0;
  while (index < days.length) {
    if (days[index]?.status !== 'available') {
      index += 1;
      continue;
    }
    const start = index;
    while (days[index]?.status === 'available') index += 1;
    const run = days.slice(start, index);
    const first = run[0];
    const last = run[run.length - 1];
    const closedIn = start > 0 && index < days.length;
    if (first === undefined || last === undefined || !closedIn || run.length > maxNights) continue;
    gaps.push({
      firstNight: first.date,
      lastNight: last.date,
      nights: run.length,
      minNights: first.minNights,
      closedToArrival: run.filter((day) => day.closedToArrival).length,
      unbookable: run.every((day, offset) => day.closedToArrival || day.minNights > run.length - offset),
      prices: run.map((day) => day.price),
    });
  }
  return gaps;
}

/** Why a gap cannot be booked, for prompts: its minimum stay, and closed arrivals when there are any. */
export function unbookableReason(gap: CalendarGap): string {
  const closed = gap.closedToArrival === 0 ? '' : `, ${gap.closedToArrival} closed to arrival`;
  return `minimum stay ${gap.minNights}${closed}`;
}
