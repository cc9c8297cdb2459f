import type { ToolDefinition } from '../../tool-definition.ts';
import { getBookingPatternStatsTool } from './get-booking-pattern-stats.tool.ts';
import { getCancellationStatsTool } from './get-cancellation-stats.tool.ts';
import { getCheckInsCheckOutsTool } from './get-check-ins-check-outs.tool.ts';
import { getGapAnalysisTool } from './get-gap-analysis.tool.ts';
import { getPaceStatsTool } from './get-pace-stats.tool.ts';
import { getReservationStatusStatsTool } from './get-reservation-status-stats.tool.ts';
import { getTurnoverStatsTool } from './get-turnover-stats.tool.ts';
import { getUpcomingReservationsTool } from './get-upcoming-reservations.tool.ts';

/** Reservation analytics tools: pace, booking patterns, cancellations, statuses, gaps, turnovers, arrivals and departures, upcoming stays. */
export const reservationAnalyticsTools: readonly ToolDefinition[] = [
  getUpcomingReservationsTool,
  getCheckInsCheckOutsTool,
  getPaceStatsTool,
  getBookingPatternStatsTool,
  getCancellationStatsTool,
  getReservationStatusStatsTool,
  getGapAnalysisTool,
  getTurnoverStatsTool,
];
