import { localDate, type NightRange, nightsIn } from '../local-dates.ts';
import type { ListingRow } from '../raw-rows.ts';

/** The first night a listing counts as supply: its creation date in its own time zone, as the tools count. */
export function activeSince(listing: ListingRow): string {
  return localDate(listing.created_at, listing.time_zone);
}

/**
 * The part of `range` a listing was active in: its start moved to {@link activeSince} when that is later
 * (the part is empty, end before start, for a listing created after the range).
 */
export function activePart(listing: ListingRow, range: NightRange): NightRange {
  const since = activeSince(listing);
  return since > range.startDate ? { startDate: since, endDate: range.endDate } : range;
}

/** The nights of `range` a listing counts as supply. */
export function activeNightsIn(listing: ListingRow, range: NightRange): number {
  return Math.max(0, nightsIn(activePart(listing, range)));
}
