import type { ToolDefinition } from '../tool-definition.ts';
import { getAccountTool } from './accounts/get-account.tool.ts';
import { listAccountsTool } from './accounts/list-accounts.tool.ts';
import { getCalendarTool } from './calendar/get-calendar.tool.ts';
import { getQuoteTool } from './calendar/get-quote.tool.ts';
import { collectDateRangeTool } from './dates/collect-date-range.tool.ts';
import { getHelpArticleTool } from './help/get-help-article.tool.ts';
import { listHelpArticlesTool } from './help/list-help-articles.tool.ts';
import { getListingTool } from './listings/get-listing.tool.ts';
import { listListingsTool } from './listings/list-listings.tool.ts';
import { getMessageThreadTool } from './messages/get-message-thread.tool.ts';
import { getReservationTool } from './reservations/get-reservation.tool.ts';
import { getReservationsTool } from './reservations/get-reservations.tool.ts';
import { getReviewsTool } from './reviews/get-reviews.tool.ts';
import { getMessageRulesTool } from './rules/get-message-rules.tool.ts';
import { getPricingRulesTool } from './rules/get-pricing-rules.tool.ts';
import { getUserTool } from './user/get-user.tool.ts';

/** The read tools, in the order tools/list shows them. */
export const readTools: readonly ToolDefinition[] = [
  listListingsTool,
  getListingTool,
  getCalendarTool,
  getReservationsTool,
  getReservationTool,
  getQuoteTool,
  getMessageThreadTool,
  getMessageRulesTool,
  getPricingRulesTool,
  getReviewsTool,
  listAccountsTool,
  getAccountTool,
  getUserTool,
  listHelpArticlesTool,
  getHelpArticleTool,
  collectDateRangeTool,
];
