import {
  addDays,
  areLocalDates,
  type CalendarDay,
  calendarDaySchema,
  channels,
  daysBetween,
  listingIdSchema,
  localDateSchema,
  maxCalendarDays,
  minDate,
} from '@innkeep/domain';
import { z } from 'zod';
import { defineOperation } from '../operation.ts';

/** Most days one call returns: two years, the longest calendar a channel publishes. */
export const maxChannelCalendarDays = 731;

const channelCalendarInput = z
  .object({
    listingId: listingIdSchema,
    startDate: localDateSchema.describe('First date to return (inclusive), YYYY-MM-DD, listing-local.'),
    endDate: localDateSchema.describe(
      `Last date to return (inclusive); at most ${maxChannelCalendarDays} days in all.`,
    ),
  })
  .superRefine((input, context) => {
    if (!areLocalDates(input.startDate, input.endDate)) return;
    const days = daysBetween(input.startDate, input.endDate) + 1;
    if (days < 1) {
      context.addIssue({
        code: 'custom',
        path: ['endDate'],
        message: 'endDate must not be before startDate.',
      });
    } else if (days > maxChannelCalendarDays) {
      context.addIssue({
        code: 'custom',
        path: ['endDate'],
        message: `Read at most ${maxChannelCalendarDays} days at a time; this range has ${days}.`,
      });
    }
  });

/**
 * get_channel_calendar: a listing's calendar for up to two years, with the channels the listing is on, so
 * that each channel's nightly price can be told (its own price where set, else the effective price).
 */
export const getChannelCalendarOperation = defineOperation({
  id: 'get_channel_calendar',
  scopes: ['calendar:read'],
  access: 'read',
  input: channelCalendarInput,
  output: z.object({
    listingId: z.string(),
    currency: z.string().describe('ISO 4217 code of every price.'),
    timeZone: z.string().describe('The listing’s IANA time zone; every date is local to it.'),
    channels: z.array(z.enum(channels)).describe('The channels the listing is on, each once.'),
    days: z.array(calendarDaySchema),
  }),
  run: async ({ listingId, startDate, endDate }, { actor, domain }) => {
    const listing = await domain.listings.get(actor, listingId);
    const days: CalendarDay[] = [];
    // The domain reads at most maxCalendarDays at a time; a channel's longer range is read in parts.
    for (let from = startDate; from <= endDate; from = addDays(from, maxCalendarDays)) {
      const to = minDate(addDays(from, maxCalendarDays - 1), endDate);
      days.push(...(await domain.calendar.get(actor, { listingId, startDate: from, endDate: to })).days);
    }
    return {
      listingId: listing.id,
      currency: listing.currency,
      timeZone: listing.timeZone,
      channels: [...new Set(listing.channels.map((link) => link.channel))],
      days,
    };
  },
});
