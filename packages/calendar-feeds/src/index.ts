// The public surface of @innkeep/calendar-feeds: the iCal renderer and the Fastify routes that serve it.

export type { CalendarFeedRoutesOptions } from './calendar-feed-routes.ts';
export { calendarFeedRoutes } from './calendar-feed-routes.ts';
export { calendarFeedRefreshInterval, renderCalendarFeed } from './render-calendar-feed.ts';
