// The public surface of @innkeep/calendar-feeds: the iCal renderer, its Fastify routes, and the channels' feed parser.

export type { CalendarFeedRoutesOptions } from './calendar-feed-routes.ts';
export { calendarFeedRoutes } from './calendar-feed-routes.ts';
export type {
  CalendarFeedParseResult,
  ImportedStay,
  ParseCalendarFeedOptions,
  SkippedCalendarEvent,
} from './parse-calendar-feed.ts';
export { maxCalendarFeedBytes, maxCalendarFeedEvents, parseCalendarFeed } from './parse-calendar-feed.ts';
export { calendarFeedRefreshInterval, renderCalendarFeed } from './render-calendar-feed.ts';
