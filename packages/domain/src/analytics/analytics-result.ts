import { z } from 'zod';
import { localDateSchema } from '../core/dates.ts';
import { toMajorUnits } from '../core/money.ts';
import { channelSchema } from '../listings/listings.ts';
import { metricDefinitionIdSchema } from './metric-definition-ids.ts';

/**
 * Why a figure is `null` instead of a number. Ratios with a zero denominator are undefined, not zero: an
 * empty month has no occupancy, it does not have 0 %.
 */
export const nullReasons = [
  'no_calendar_nights',
  'no_available_nights',
  'no_booked_nights',
  'no_reservations',
  'no_baseline',
  'no_reviews',
  'no_completed_stays',
  'no_responses',
  'no_open_nights',
  'no_guest_messages',
] as const;
/** One of {@link nullReasons}. */
export type NullReason = (typeof nullReasons)[number];
/** Validates a {@link NullReason}. */
export const nullReasonSchema = z.enum(nullReasons);

/** How a result attributes events to the period. */
export const attributionBases = [
  'stay_night',
  'check_in',
  'check_out',
  'booking_date',
  'as_of_date',
  'review_date',
  'message_time',
  'calendar_date',
  'none',
] as const;

/** The period a result covers. */
export const periodSchema = z.object({
  startDate: localDateSchema.describe('First night, inclusive.'),
  endDate: localDateSchema.describe('Last night, inclusive.'),
  nights: z.number().int().describe('Nights in the period.'),
});

/**
 * What every analytics result states about itself: the period, how events were attributed to it, which
 * listings and channel it covers, the currencies its money is in, and the definitions it used (ids from
 * get_metric_definitions).
 */
export const analyticsMetaSchema = z.object({
  period: periodSchema,
  basis: z.enum(attributionBases).describe('How events are attributed to the period.'),
  listings: z.number().int().describe('Listings covered.'),
  listingGroupId: z.string().nullable(),
  channel: channelSchema.nullable().describe('The channel filter; null for all channels.'),
  currencies: z
    .array(z.string())
    .describe('Currencies of the money in this result; amounts are never added across currencies.'),
  definitions: z.array(metricDefinitionIdSchema).describe('Definitions used; see get_metric_definitions.'),
  notes: z.array(z.string()).describe('Caveats about this result, e.g. partial buckets or truncated lists.'),
});
/** The self-description of an analytics result. */
export type AnalyticsMeta = z.infer<typeof analyticsMetaSchema>;

/** A ratio rounded to 4 decimals, or null with {@link NullReason} when the denominator is zero. */
export function ratioOf(numerator: number, denominator: number): number | null {
  if (denominator === 0) return null;
  return Math.round((numerator / denominator) * 10_000) / 10_000;
}

/** An amount per unit in major units, rounded to the currency's minor unit; null for a zero denominator. */
export function moneyPer(minor: number, denominator: number, currency: string): number | null {
  if (denominator === 0) return null;
  return toMajorUnits(Math.round(minor / denominator), currency);
}

/** The relative change from `baseline` to `current` (0.1 = +10 %); null when the baseline is 0 or null. */
export function relativeChange(current: number | null, baseline: number | null): number | null {
  if (current === null || baseline === null || baseline === 0) return null;
  return Math.round(((current - baseline) / Math.abs(baseline)) * 10_000) / 10_000;
}
