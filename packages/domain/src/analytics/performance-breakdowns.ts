import { z } from 'zod';
import { channelSchema } from '../listings/listings.ts';
import { analyticsFiltersSchema, analyticsFiltersShape, withPeriodChecks } from './analytics-filters.ts';
import { analyticsMetaSchema } from './analytics-result.ts';
import { blockedNightsSchema, nullReasonsSchema } from './performance-figures.ts';

// Inputs and results of the two breakdowns: per listing (or listing group) and per channel.

/** Most rows get_listing_breakdown_stats returns at once. */
const maxBreakdownRows = 100;

/** What a listing breakdown can be sorted by. */
export const breakdownSortKeys = [
  'occupancy',
  'bookedNights',
  'availableNights',
  'accommodationRevenue',
  'adr',
  'revpar',
  'name',
] as const;
/** One of {@link breakdownSortKeys}. */
export type BreakdownSortKey = (typeof breakdownSortKeys)[number];

/** Input of get_listing_breakdown_stats. */
export const listingBreakdownInputSchema = withPeriodChecks(
  z.object({
    ...analyticsFiltersShape,
    by: z.enum(['listing', 'group']).optional().describe('Rows per listing (default) or per listing group.'),
    sortBy: z
      .enum(breakdownSortKeys)
      .optional()
      .describe('Row order (default occupancy); money keys sort within each currency.'),
    order: z
      .enum(['desc', 'asc'])
      .optional()
      .describe('desc (default, best first) or asc; name sorts A–Z unless desc.'),
    limit: z.number().int().min(1).max(maxBreakdownRows).optional().describe('Rows to return (default 25).'),
  }),
);
/** Input of get_listing_breakdown_stats. */
export type ListingBreakdownInput = z.input<typeof listingBreakdownInputSchema>;

const ratio = (description: string) => z.number().nullable().describe(`${description} 0–1, 4 decimals.`);
const money = (description: string) => z.number().nullable().describe(`${description} In major units.`);

/** Money of one row (or of the totals) in one currency. */
const breakdownMoneySchema = z.object({
  currency: z.string(),
  availableNights: z.number().int().describe('Available nights of the listings priced in this currency.'),
  bookedNights: z.number().int().describe('Booked nights of stays in this currency.'),
  accommodationRevenue: z.number().describe('Rent after discounts. In major units.'),
  totalRevenue: z.number().describe('Rent plus host fees. In major units.'),
  adr: money('Accommodation revenue / booked nights.'),
  revpar: money('Accommodation revenue / available nights.'),
  nullReasons: nullReasonsSchema,
});

const breakdownFiguresShape = {
  listings: z
    .number()
    .int()
    .describe('Listings counted (each once, even when in several of the scope’s groups).'),
  calendarNights: z.number().int().describe('Nights of the period since each listing became active.'),
  availableNights: z.number().int().describe('Calendar nights minus blocked nights.'),
  bookedNights: z.number().int().describe('Nights of accepted stays in the period.'),
  occupancy: ratio('Booked / available nights.'),
  grossOccupancy: ratio('Booked / calendar nights.'),
  currencies: z.array(breakdownMoneySchema).describe('Money per currency, sorted by currency.'),
  nullReasons: nullReasonsSchema,
};

/** Result of get_listing_breakdown_stats. */
export const listingBreakdownSchema = z.object({
  meta: analyticsMetaSchema,
  by: z.enum(['listing', 'group']),
  sortBy: z.enum(breakdownSortKeys),
  order: z.enum(['desc', 'asc']),
  totals: z
    .object({ ...breakdownFiguresShape, blockedNights: blockedNightsSchema })
    .describe('The whole scope, each listing once: by listing, the rows add up to these when not truncated.'),
  rows: z.array(
    z.object({
      id: z.string().describe('The listing id (by listing) or the listing group id (by group).'),
      name: z.string(),
      ...breakdownFiguresShape,
      blockedNights: z
        .number()
        .int()
        .describe('Nights blocked by the owner, for maintenance, by hand or by a channel’s calendar.'),
    }),
  ),
  totalRows: z
    .number()
    .int()
    .describe('Listings (or groups) in scope; rows holds the first `limit` of them.'),
  truncated: z
    .boolean()
    .describe('True when more rows exist than returned: raise limit or narrow the scope.'),
});
/** Result of get_listing_breakdown_stats. */
export type ListingBreakdown = z.infer<typeof listingBreakdownSchema>;

/** Input of get_channel_performance: a period and a scope. */
export const channelPerformanceInputSchema = analyticsFiltersSchema;
/** Input of get_channel_performance. */
export type ChannelPerformanceInput = z.input<typeof channelPerformanceInputSchema>;

/** Result of get_channel_performance. */
export const channelPerformanceSchema = z.object({
  meta: analyticsMetaSchema,
  totals: z
    .object({
      reservations: z.number().int().describe('Accepted stays checking in during the period, all channels.'),
      bookedNights: z.number().int().describe('Booked nights in the period, all channels.'),
      currencies: z.array(
        z.object({
          currency: z.string(),
          totalRevenue: z.number().describe('Rent plus host fees, all channels. In major units.'),
        }),
      ),
    })
    .describe('All channels together: the denominators of the shares.'),
  channels: z
    .array(
      z.object({
        channel: channelSchema,
        reservations: z.number().int().describe('Accepted stays checking in during the period.'),
        bookedNights: z.number().int().describe('Nights of accepted stays in the period (by stay night).'),
        nightShare: ratio('This channel’s share of all booked nights.'),
        averageLengthOfStay: z
          .number()
          .nullable()
          .describe('Mean nights of the stays checking in during the period.'),
        averageLeadTimeDays: z
          .number()
          .nullable()
          .describe('Mean days from booking to check-in, same stays.'),
        medianLeadTimeDays: z.number().nullable().describe('Median days from booking to check-in.'),
        cancelledReservations: z.number().int().describe('Cancelled stays that were due to check in.'),
        cancellationRate: ratio('Cancelled / (cancelled + accepted) stays due to check in.'),
        currencies: z.array(
          z.object({
            currency: z.string(),
            bookedNights: z.number().int(),
            accommodationRevenue: z.number().describe('Rent after discounts. In major units.'),
            totalRevenue: z.number().describe('Rent plus host fees. In major units.'),
            channelFees: z
              .number()
              .describe('Commission and processing fees the channel kept. In major units.'),
            netRevenue: z.number().describe('Total revenue − channel fees. In major units.'),
            revenueShare: ratio('This channel’s share of the currency’s total revenue.'),
            adr: money('Accommodation revenue / booked nights (gross of commission).'),
            netAdr: money(
              'ADR after the channel’s commission at its effective rate: ADR × (1 − effectiveCommission), ' +
                'i.e. rent minus the share of channel fees that falls on rent, per booked night.',
            ),
            effectiveCommission: ratio('Channel fees / total revenue.'),
            nullReasons: nullReasonsSchema,
          }),
        ),
        nullReasons: nullReasonsSchema,
      }),
    )
    .describe('Channels with sold nights or stays due to check in, most booked nights first.'),
});
/** Result of get_channel_performance. */
export type ChannelPerformance = z.infer<typeof channelPerformanceSchema>;
