import type { RestRoute } from '../route-definition.ts';
import { accountRoutes } from './innkeep/account-routes.ts';
import { analyticsRoutes } from './innkeep/analytics-routes.ts';
import { calendarRoutes } from './innkeep/calendar-routes.ts';
import { groupsRoutes } from './innkeep/groups-routes.ts';
import { helpRoutes } from './innkeep/help-routes.ts';
import { listingsRoutes } from './innkeep/listings-routes.ts';
import { locksRoutes } from './innkeep/locks-routes.ts';
import { messageRulesRoutes } from './innkeep/message-rules-routes.ts';
import { messagesRoutes } from './innkeep/messages-routes.ts';
import { pricingRulesRoutes } from './innkeep/pricing-rules-routes.ts';
import { reservationsRoutes } from './innkeep/reservations-routes.ts';
import { reviewsRoutes } from './innkeep/reviews-routes.ts';
import { webhooksRoutes } from './innkeep/webhooks-routes.ts';

/** Innkeep's own operations, in the same `verbNoun` style, paged with `limit` and `cursor`. */
export const innkeepRoutes: readonly RestRoute[] = [
  ...listingsRoutes,
  ...calendarRoutes,
  ...reservationsRoutes,
  ...messagesRoutes,
  ...messageRulesRoutes,
  ...pricingRulesRoutes,
  ...reviewsRoutes,
  ...analyticsRoutes,
  ...groupsRoutes,
  ...locksRoutes,
  ...webhooksRoutes,
  ...accountRoutes,
  ...helpRoutes,
];
