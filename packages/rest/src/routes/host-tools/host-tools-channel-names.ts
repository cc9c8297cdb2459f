import type { Channel } from '@innkeep/domain';

/** The names Host Tools gives the channel a reservation or review came from. */
export const hostToolsSources = ['Airbnb', 'VRBO', 'Booking.com', 'internal'] as const;

/**
 * How Host Tools names each of Innkeep's channels as a source. Direct bookings are `internal` there: the
 * host's own, made in the tool itself or through its API.
 */
export const hostToolsSourceNames = {
  airbnb: 'Airbnb',
  vrbo: 'VRBO',
  booking: 'Booking.com',
  direct: 'internal',
} as const satisfies Record<Channel, (typeof hostToolsSources)[number]>;

/** The key of a channel in a Host Tools calendar day; direct prices are `other` there. */
export const hostToolsCalendarKeys = {
  airbnb: 'Airbnb',
  vrbo: 'VRBO',
  booking: 'Booking',
  direct: 'other',
} as const satisfies Record<Channel, string>;

/** A key of a Host Tools calendar day. */
export type HostToolsCalendarKey = (typeof hostToolsCalendarKeys)[Channel];
