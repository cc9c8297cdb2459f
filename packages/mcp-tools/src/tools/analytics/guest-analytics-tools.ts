import type { ToolDefinition } from '../../tool-definition.ts';
import { getMetricDefinitionsTool } from './get-metric-definitions.tool.ts';
import { getPricingStatsTool } from './get-pricing-stats.tool.ts';
import { getResponseTimeBreakdownTool } from './get-response-time-breakdown.tool.ts';
import { getResponseTimeStatsTool } from './get-response-time-stats.tool.ts';
import { getReviewAnalyticsTool } from './get-review-analytics.tool.ts';
import { getReviewStatsTool } from './get-review-stats.tool.ts';
import { listListingGroupsTool } from './list-listing-groups.tool.ts';

/** Guest and pricing analytics tools: listed prices, reviews, response times, listing groups, metric definitions. */
export const guestAnalyticsTools: readonly ToolDefinition[] = [
  getPricingStatsTool,
  getReviewStatsTool,
  getReviewAnalyticsTool,
  getResponseTimeStatsTool,
  getResponseTimeBreakdownTool,
  listListingGroupsTool,
  getMetricDefinitionsTool,
];
