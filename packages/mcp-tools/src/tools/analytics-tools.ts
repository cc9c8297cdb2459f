import type { ToolDefinition } from '../tool-definition.ts';
import { guestAnalyticsTools } from './analytics/guest-analytics-tools.ts';
import { performanceAnalyticsTools } from './analytics/performance-analytics-tools.ts';
import { reservationAnalyticsTools } from './analytics/reservation-analytics-tools.ts';

/** The 23 analytics tools, in the order tools/list shows them. */
export const analyticsTools: readonly ToolDefinition[] = [
  ...performanceAnalyticsTools,
  ...reservationAnalyticsTools,
  ...guestAnalyticsTools,
];
