import type { ToolDefinition } from '../../tool-definition.ts';

/** Performance analytics tools: headline KPIs, occupancy, revenue, ADR, RevPAR, series, listing and channel breakdowns. */
export const performanceAnalyticsTools: readonly ToolDefinition[] = [];
