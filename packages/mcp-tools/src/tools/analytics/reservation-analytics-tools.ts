import type { ToolDefinition } from '../../tool-definition.ts';

/** Reservation analytics tools: pace, booking patterns, cancellations, statuses, gaps, turnovers, arrivals and departures, upcoming stays. */
export const reservationAnalyticsTools: readonly ToolDefinition[] = [];
