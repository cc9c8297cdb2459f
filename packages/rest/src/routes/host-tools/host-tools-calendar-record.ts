import type { CalendarDay, Channel } from '@innkeep/domain';
import { z } from 'zod';
import { type HostToolsCalendarKey, hostToolsCalendarKeys } from './host-tools-channel-names.ts';

const channelDaySchema = z.object({
  price: z.number().describe('The night’s price on this channel, in currency.'),
  minNights: z.number().describe('Minimum stay for arrivals on this date.'),
  blockCheckin: z.boolean().describe('True when guests cannot check in on this date.'),
  blockCheckout: z.boolean().describe('True when guests cannot check out on this date.'),
});

/** A listing's calendar as Host Tools clients read it: per date, per channel the listing is on. */
export const hostToolsCalendarSchema = z.object({
  userID: z.string().describe('The account the listing belongs to; the same in every answer.'),
  listingID: z.string(),
  currency: z.string().describe('ISO 4217 code of every price.'),
  prices: z
    .record(
      z.iso.date(),
      z
        .object({
          Airbnb: channelDaySchema.optional(),
          VRBO: channelDaySchema.optional(),
          Booking: channelDaySchema.optional(),
          other: channelDaySchema.optional().describe('Direct bookings.'),
        })
        .describe('The date’s terms on each channel the listing is on.'),
    )
    .describe('Every date of the range (YYYY-MM-DD, listing-local), in order.'),
});
/** A listing's calendar as Host Tools clients read it. */
export type HostToolsCalendar = z.infer<typeof hostToolsCalendarSchema>;

/** What a Host Tools calendar is made from. */
export interface ChannelCalendar {
  readonly listingId: string;
  readonly currency: string;
  /** The channels the listing is on. */
  readonly channels: readonly Channel[];
  readonly days: readonly CalendarDay[];
}

/**
 * A listing's calendar as Host Tools clients read it; `accountId` is their `userID`. A channel's price is
 * its own price for the night where the host set one (the calendar already holds it to the listing's
 * floor), else the night's effective price. Minimum stay and closed arrival and departure apply to every
 * channel alike. A listing on no channel still has its direct price, under `other`.
 */
export function toHostToolsCalendar(calendar: ChannelCalendar, accountId: string): HostToolsCalendar {
  const channels: readonly Channel[] = calendar.channels.length > 0 ? calendar.channels : ['direct'];
  const prices: HostToolsCalendar['prices'] = {};
  for (const day of calendar.days) {
    const terms: Partial<Record<HostToolsCalendarKey, z.infer<typeof channelDaySchema>>> = {};
    for (const channel of channels) {
      terms[hostToolsCalendarKeys[channel]] = {
        price: day.channelPrices[channel] ?? day.price,
        minNights: day.minNights,
        blockCheckin: day.closedToArrival,
        blockCheckout: day.closedToDeparture,
      };
    }
    prices[day.date] = terms;
  }
  return { userID: accountId, listingID: calendar.listingId, currency: calendar.currency, prices };
}
