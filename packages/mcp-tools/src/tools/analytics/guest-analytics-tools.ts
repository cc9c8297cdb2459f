import type { ToolDefinition } from '../../tool-definition.ts';

/** Guest and pricing analytics tools: listed prices, reviews, response times, listing groups, metric definitions. */
export const guestAnalyticsTools: readonly ToolDefinition[] = [];
