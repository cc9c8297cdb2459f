import { getUpcomingReservationsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_upcoming_reservations: guests in house and the next arrivals. */
export const getUpcomingReservationsTool = defineTool({
  operation: getUpcomingReservationsOperation,
  name: 'get_upcoming_reservations',
  title: 'Upcoming reservations',
  description:
    'Guests in house now and accepted stays arriving from today (each listing’s own) up to withinDays ahead ' +
    '(default 30), soonest first, a page at a time (limit, cursor): reservation id, listing, guest first ' +
    'name, dates, nights, guests, channel, rent, guest total and payout in the stay’s currency, days until ' +
    'arrival and an in-house flag; plus how many are in house and arriving in all. Use it for "who is ' +
    'arriving this week?"; to search all reservations use get_reservations.',
});
