import { z } from 'zod';
import { comparisonKinds } from './analytics-filters.ts';
import { nullReasonSchema, periodSchema } from './analytics-result.ts';

// The building blocks the performance results share: supply and occupancy, revenue per currency, and the
// change against a comparison period. Field names are the same in every tool, so a model that learned one
// result reads the others.

/** The money ADR and RevPAR can divide: rent (the default), rent plus fees, after channel fees, or payout. */
export const revenueBases = ['accommodation', 'total', 'net', 'payout'] as const;
/** One of {@link revenueBases}. */
export type RevenueBasis = (typeof revenueBases)[number];

/** The optional `revenueBasis` field of the ADR, RevPAR and series tools. */
export const revenueBasisShape = {
  revenueBasis: z
    .enum(revenueBases)
    .optional()
    .describe(
      'Money divided: accommodation (default), total (plus fees), net (less channel fees) or payout.',
    ),
};

/** Why each null field of the object is null, keyed by the field's name; empty when nothing is null. */
export const nullReasonsSchema = z
  .record(z.string(), nullReasonSchema)
  .describe('Why each null field beside it is null, keyed by field name; empty when none is.');

const count = (description: string) => z.number().int().describe(description);
const ratio = (description: string) => z.number().nullable().describe(`${description} 0–1, 4 decimals.`);
const amount = (description: string) => z.number().describe(`${description} In major units of currency.`);

/** Blocked nights of the period by reason. */
export const blockedNightsSchema = z
  .object({
    owner: count('Nights the owner blocked for their own use.'),
    maintenance: count('Nights blocked for maintenance.'),
    manual: count('Nights blocked by hand for any other reason.'),
    channel: count('Nights a channel’s imported calendar holds.'),
    total: count('All blocked nights.'),
  })
  .describe('Nights taken off sale by calendar blocks, clipped to the period.');
/** Blocked nights by reason. */
export type BlockedNights = z.infer<typeof blockedNightsSchema>;

/** Supply and occupancy of a period: calendar, blocked, available and booked nights and the two occupancies. */
export const occupancyFiguresSchema = z.object({
  listings: count('Listings in scope.'),
  calendarNights: count(
    'Each listing’s nights of the period from the day it became active (its local creation date).',
  ),
  blockedNights: blockedNightsSchema,
  availableNights: count('Calendar nights minus blocked nights: what could be sold.'),
  bookedNights: count(
    'Nights of accepted stays in the period (stays crossing its edges count only their nights inside it). ' +
      'With a channel filter, only that channel’s.',
  ),
  occupancy: ratio('Adjusted occupancy, the default: booked / available nights.'),
  grossOccupancy: ratio('Gross occupancy: booked / calendar nights; lower than occupancy by the blocks.'),
  nullReasons: nullReasonsSchema,
});
/** Supply and occupancy of a period. */
export type OccupancyFigures = z.infer<typeof occupancyFiguresSchema>;

/** The revenue family of one currency over a period, on the stay-night basis. */
export const revenueAmountsSchema = z.object({
  currency: z.string().describe('ISO 4217 code of every amount in this entry.'),
  bookedNights: count('Booked nights of stays priced in this currency.'),
  accommodationRevenue: amount('Rent after discounts.'),
  fees: amount('Cleaning, extra-guest, pet and other host fees (no taxes, no guest service fees).'),
  totalRevenue: amount('Accommodation + fees.'),
  channelFees: amount('Channel commission and processing fees.'),
  netRevenue: amount('Total revenue − channel fees.'),
  payout: amount('What the channels pay the host.'),
});
/** Revenue of one currency. */
export type RevenueAmounts = z.infer<typeof revenueAmountsSchema>;

/** How a figure moved from a comparison period to the asked one. */
export const changeSchema = z.object({
  absolute: z
    .number()
    .nullable()
    .describe('Asked − comparison, in the figure’s unit (ratios as fractions: 0.05 = 5 points).'),
  relative: z.number().nullable().describe('(asked − comparison) / comparison, 4 decimals: 0.1 = +10 %.'),
  nullReasons: nullReasonsSchema,
});
/** A change between two periods. */
export type Change = z.infer<typeof changeSchema>;

/** The fields naming a comparison period. */
export const comparisonPeriodShape = {
  kind: z.enum(comparisonKinds).describe('Which comparison period this is.'),
  period: periodSchema,
};
