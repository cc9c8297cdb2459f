import { getReservationStatusStatsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_reservation_status_stats: reservations per normalised status. */
export const getReservationStatusStatsTool = defineTool({
  operation: getReservationStatusStatsOperation,
  name: 'get_reservation_status_stats',
  title: 'Reservations by status',
  description:
    'Reservations, requests and inquiries checking in during the period, per status (inquiry, pending, ' +
    'upcoming, in_house, completed, cancelled_by_guest/host/channel, declined, expired) with nights and ' +
    'rent. To list them: get_reservations.',
});
