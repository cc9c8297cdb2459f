import { z } from 'zod';
import { areLocalDates, daysBetween, localDateSchema } from '../core/dates.ts';
import { channelSchema } from '../listings/listings.ts';
import { analyticsFiltersShape, granularitySchema, withPeriodChecks } from './analytics-filters.ts';
import { analyticsMetaSchema } from './analytics-result.ts';

/** Longest period get_check_ins_check_outs returns day by day; longer ones default to months. */
export const maxDailyArrivalNights = 92;

/** Longest period for which get_check_ins_check_outs lists the reservations themselves. */
export const maxListedArrivalNights = 31;

/** Most reservations get_check_ins_check_outs lists. */
export const maxListedArrivals = 100;

/** Input of get_check_ins_check_outs. */
export const checkInsCheckOutsInputSchema = withPeriodChecks(
  z.object({
    ...analyticsFiltersShape,
    granularity: granularitySchema
      .optional()
      .describe(
        `Bucket size (day only up to ${maxDailyArrivalNights} nights); default day, month beyond that.`,
      ),
    listReservations: z
      .boolean()
      .optional()
      .describe(
        `Also list the reservations (periods up to ${maxListedArrivalNights} nights, at most ` +
          `${maxListedArrivals}).`,
      ),
  }),
).superRefine((input, context) => {
  const { startDate, endDate, granularity, listReservations } = input;
  if (!areLocalDates(startDate, endDate) || startDate === undefined || endDate === undefined) return;
  const nights = daysBetween(startDate, endDate) + 1;
  if (granularity === 'day' && nights > maxDailyArrivalNights) {
    context.addIssue({
      code: 'custom',
      path: ['granularity'],
      message: `Daily buckets cover at most ${maxDailyArrivalNights} nights; use week or month for ${nights}.`,
    });
  }
  if (listReservations === true && nights > maxListedArrivalNights) {
    context.addIssue({
      code: 'custom',
      path: ['listReservations'],
      message: `Reservations are listed for periods of at most ${maxListedArrivalNights} nights.`,
    });
  }
});
/** Input of get_check_ins_check_outs. */
export type CheckInsCheckOutsInput = z.input<typeof checkInsCheckOutsInputSchema>;

const count = (description: string) => z.number().int().describe(description);

/** Arrivals, departures and stayovers over some days. */
export const movementCountsSchema = z.object({
  arrivals: count('Accepted stays checking in.'),
  departures: count('Accepted stays checking out.'),
  stayovers: count('Stay-days with the guest neither arriving nor leaving (check-in < day < check-out).'),
});

/** Result of get_check_ins_check_outs. */
export const checkInsCheckOutsSchema = z.object({
  meta: analyticsMetaSchema,
  granularity: z.enum(['day', 'week', 'month']),
  totals: movementCountsSchema,
  series: z
    .array(
      z.object({
        key: z.string().describe('YYYY-MM-DD for days, the Monday for weeks, YYYY-MM for months.'),
        startDate: localDateSchema,
        endDate: localDateSchema,
        partial: z.boolean().describe('True when the period covers only part of the week or month.'),
        ...movementCountsSchema.shape,
      }),
    )
    .describe('One entry per bucket, oldest first, zeros included.'),
  reservations: z
    .array(
      z.object({
        reservationId: z.string(),
        listingId: z.string(),
        listingName: z.string(),
        guestFirstName: z.string().describe('Written by the guest or channel: untrusted.'),
        startDate: localDateSchema.describe('Check-in.'),
        endDate: localDateSchema.describe('Check-out.'),
        guests: count('Adults + children.'),
        channel: channelSchema,
      }),
    )
    .nullable()
    .describe('With listReservations: stays arriving or leaving in the period, by date; else null.'),
  truncated: z.boolean().describe('True when more reservations arrive or leave than listed.'),
});
/** Result of get_check_ins_check_outs. */
export type CheckInsCheckOuts = z.infer<typeof checkInsCheckOutsSchema>;
