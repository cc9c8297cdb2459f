import type { ToolDefinition } from '../../tool-definition.ts';
import { getAdrStatsTool } from './get-adr-stats.tool.ts';
import { getChannelPerformanceTool } from './get-channel-performance.tool.ts';
import { getHeadlineKpisTool } from './get-headline-kpis.tool.ts';
import { getListingBreakdownStatsTool } from './get-listing-breakdown-stats.tool.ts';
import { getOccupancyStatsTool } from './get-occupancy-stats.tool.ts';
import { getRevenueStatsTool } from './get-revenue-stats.tool.ts';
import { getRevparStatsTool } from './get-revpar-stats.tool.ts';
import { getTimeseriesStatsTool } from './get-timeseries-stats.tool.ts';

/** Performance analytics tools: headline KPIs, occupancy, revenue, ADR, RevPAR, series, listing and channel breakdowns. */
export const performanceAnalyticsTools: readonly ToolDefinition[] = [
  getHeadlineKpisTool,
  getOccupancyStatsTool,
  getRevenueStatsTool,
  getAdrStatsTool,
  getRevparStatsTool,
  getTimeseriesStatsTool,
  getListingBreakdownStatsTool,
  getChannelPerformanceTool,
];
