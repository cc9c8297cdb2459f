import { z } from 'zod';
import { channelSchema } from '../listings/listings.ts';
import { analyticsFiltersShape, withPeriodChecks } from './analytics-filters.ts';
import { analyticsMetaSchema, nullReasonSchema } from './analytics-result.ts';

/** Where a conversation stood when the guest wrote: before the booking was confirmed, or after. */
export const conversationStages = ['inquiry', 'booked'] as const;
/** One of {@link conversationStages}. */
export type ConversationStage = (typeof conversationStages)[number];

/** Most listings a response-time breakdown lists. */
export const maxResponseListings = 100;

/** The fields both response-time tools take besides the period and scope. */
const responseOptionsShape = {
  countAutomatedReplies: z
    .boolean()
    .default(false)
    .describe('Count message-rule messages as answers (default false).'),
};

/** Input of get_response_time_stats. */
export const responseTimeStatsInputSchema = withPeriodChecks(
  z.object({ ...analyticsFiltersShape, ...responseOptionsShape }),
);
/** Input of {@link responseTimeStatsInputSchema}. */
export type ResponseTimeStatsInput = z.input<typeof responseTimeStatsInputSchema>;

/** Input of get_response_time_breakdown. */
export const responseTimeBreakdownInputSchema = withPeriodChecks(
  z.object({
    ...analyticsFiltersShape,
    ...responseOptionsShape,
    listingLimit: z
      .number()
      .int()
      .min(1)
      .max(maxResponseListings)
      .default(20)
      .describe('Most listings in byListing (default 20).'),
  }),
);
/** Input of {@link responseTimeBreakdownInputSchema}. */
export type ResponseTimeBreakdownInput = z.input<typeof responseTimeBreakdownInputSchema>;

/** The response-time measures of a set of waits. */
export const responseMeasuresShape = {
  waits: z
    .number()
    .int()
    .describe(
      'Waits: a guest message (or run of them) after the host’s last message, or opening the thread.',
    ),
  answered: z.number().int().describe('Waits the host answered.'),
  unanswered: z.number().int().describe('Waits with no answer yet.'),
  medianMinutes: z
    .number()
    .nullable()
    .describe('Median response time in minutes over answered waits, 1 decimal.'),
  meanMinutes: z
    .number()
    .nullable()
    .describe('Mean response time in minutes over answered waits, 1 decimal.'),
  p90Minutes: z
    .number()
    .nullable()
    .describe('90th percentile response time in minutes over answered waits, 1 decimal.'),
  withinHourShare: z
    .number()
    .nullable()
    .describe('Share of waits answered within 1 hour; unanswered waits count as misses.'),
  withinDayShare: z
    .number()
    .nullable()
    .describe(
      'Share of waits answered within 24 hours (the response rate); unanswered waits count as misses.',
    ),
  nullReasons: z
    .record(z.string(), nullReasonSchema)
    .describe('Why each null field beside it is null, by field name; empty when none is.'),
};
/** {@link responseMeasuresShape} as an object schema. */
export const responseMeasuresSchema = z.object(responseMeasuresShape);
/** A {@link responseMeasuresSchema} value. */
export type ResponseMeasures = z.infer<typeof responseMeasuresSchema>;

/** Result of get_response_time_stats. */
export const responseTimeStatsSchema = z.object({
  meta: analyticsMetaSchema,
  ...responseMeasuresShape,
  automatedFirst: z
    .number()
    .int()
    .describe('Waits in which an automated message went out before any reply of the host.'),
});
/** A {@link responseTimeStatsSchema} value. */
export type ResponseTimeStats = z.infer<typeof responseTimeStatsSchema>;

/** Result of get_response_time_breakdown. */
export const responseTimeBreakdownSchema = z.object({
  meta: analyticsMetaSchema,
  overall: responseMeasuresSchema,
  byChannel: z
    .array(z.object({ channel: channelSchema, ...responseMeasuresShape }))
    .describe('Channels with waits in the period, by name.'),
  byStage: z
    .array(z.object({ stage: z.enum(conversationStages), ...responseMeasuresShape }))
    .describe(
      'inquiry: the guest wrote before the booking was confirmed; booked: after. Both always listed.',
    ),
  byHour: z
    .array(z.object({ hour: z.number().int().min(0).max(23), ...responseMeasuresShape }))
    .describe('By the listing-local hour the guest wrote, 0–23, all 24 listed.'),
  byWeekday: z
    .array(z.object({ weekday: z.string().describe('Monday … Sunday.'), ...responseMeasuresShape }))
    .describe('By the listing-local weekday the guest wrote, Monday first, all 7 listed.'),
  byListing: z
    .array(z.object({ listingId: z.string(), listingName: z.string(), ...responseMeasuresShape }))
    .describe(
      'Listings with waits, slowest median first (unanswered-only listings first), at most listingLimit.',
    ),
  listingsTruncated: z.boolean().describe('True when byListing leaves some listings out.'),
});
/** A {@link responseTimeBreakdownSchema} value. */
export type ResponseTimeBreakdown = z.infer<typeof responseTimeBreakdownSchema>;
