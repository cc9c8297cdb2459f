import { addDays, type LocalDate } from '@innkeep/domain';

/**
 * The earliest and latest local date any listing can have at `now`. Time zones lie within a day of UTC
 * (UTC−12 to UTC+14), so every listing's today is the UTC date or a day either side. A stay or event wholly
 * before `earliest` or after `latest` is past or ahead for every listing, so a query needs each listing's own
 * today (a time-zone conversion and a join) only for the few rows between the two.
 */
export function listingTodayRange(now: Date): { earliest: LocalDate; latest: LocalDate } {
  const utcToday = now.toISOString().slice(0, 10);
  return { earliest: addDays(utcToday, -1), latest: addDays(utcToday, 1) };
}
