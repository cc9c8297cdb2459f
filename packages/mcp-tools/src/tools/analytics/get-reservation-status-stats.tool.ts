import { getReservationStatusStatsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_reservation_status_stats: reservations per normalised status. */
export const getReservationStatusStatsTool = defineTool({
  operation: getReservationStatusStatsOperation,
  name: 'get_reservation_status_stats',
  title: 'Reservations by status',
  description:
    'Every reservation, booking request and inquiry due to check in during the period, counted per status ' +
    'with nights and rent per currency: inquiry, pending, upcoming, in_house, completed (accepted stays by ' +
    'each listing’s today), cancelled_by_guest, cancelled_by_host, cancelled_by_channel, declined, expired — ' +
    'each with the stored status it comes from. Use it for "how many requests are waiting?" or "how did ' +
    'March’s bookings end up?"; to list the reservations themselves use get_reservations.',
});
