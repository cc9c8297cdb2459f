// The public surface of @innkeep/calendar-feeds: the iCal renderer and its Fastify routes (calendars out), and
// the channels' feed fetcher, parser and poller tick (calendars in).

export type { CalendarFeedRoutesOptions } from './calendar-feed-routes.ts';
export { calendarFeedRoutes } from './calendar-feed-routes.ts';
export type { CalendarFeedFetchResult, FetchCalendarFeedOptions } from './fetch-calendar-feed.ts';
export {
  calendarFeedTimeoutMs,
  calendarFeedUserAgent,
  fetchCalendarFeed,
  maxCalendarFeedRedirects,
} from './fetch-calendar-feed.ts';
export type {
  CalendarFeedParseResult,
  ImportedStay,
  ParseCalendarFeedOptions,
  SkippedCalendarEvent,
} from './parse-calendar-feed.ts';
export { maxCalendarFeedBytes, maxCalendarFeedEvents, parseCalendarFeed } from './parse-calendar-feed.ts';
export { calendarFeedRefreshInterval, renderCalendarFeed } from './render-calendar-feed.ts';
export type { CalendarImportTick, RunCalendarImportsOptions } from './run-calendar-imports.ts';
export { runCalendarImports } from './run-calendar-imports.ts';
