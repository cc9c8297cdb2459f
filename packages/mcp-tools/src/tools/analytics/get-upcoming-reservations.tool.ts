import { getUpcomingReservationsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_upcoming_reservations: guests in house and the next arrivals. */
export const getUpcomingReservationsTool = defineTool({
  operation: getUpcomingReservationsOperation,
  name: 'get_upcoming_reservations',
  title: 'Upcoming reservations',
  description:
    'Guests in house now and accepted stays arriving from each listing’s today up to withinDays ahead, ' +
    'soonest first: guest first name, dates, guests, channel, money, days until arrival. For “who is ' +
    'arriving this week?”; to search all: get_reservations.',
});
