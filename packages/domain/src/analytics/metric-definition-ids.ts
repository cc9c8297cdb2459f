import { z } from 'zod';

/**
 * Ids of the rules analytics results cite in `meta.definitions`; get_metric_definitions explains each one
 * (formula, basis, statuses, null policy) in machine-readable form.
 */
export const metricDefinitionIds = [
  'local_dates',
  'stay_night_attribution',
  'live_statuses',
  'ratio_of_sums',
  'null_policy',
  'currency_policy',
  'comparison_periods',
  'available_nights',
  'occupancy_adjusted',
  'occupancy_gross',
  'revenue_bases',
  'adr',
  'revpar',
  'timeseries_buckets',
  'alos',
  'lead_time',
  'on_the_books',
  'pace',
  'pickup',
  'cancellation_rate',
  'status_breakdown',
  'channel_performance',
  'booking_patterns',
  'gap_analysis',
  'turnover',
  'check_ins_check_outs',
  'upcoming_reservations',
  'pricing_stats',
  'review_stats',
  'response_time',
] as const;

/** One of {@link metricDefinitionIds}. */
export type MetricDefinitionId = (typeof metricDefinitionIds)[number];

/** Validates a {@link MetricDefinitionId}. */
export const metricDefinitionIdSchema = z.enum(metricDefinitionIds);
