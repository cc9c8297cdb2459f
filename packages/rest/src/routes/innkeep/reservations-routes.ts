import {
  cancelReservationOperation,
  createReservationOperation,
  getReservationOperation,
  getReservationsOperation,
  updateReservationOperation,
} from '@innkeep/operations';
import { defineRoute, type RestRoute } from '../../route-definition.ts';

/**
 * Reservations across listings in Innkeep's own field names, for sync jobs and native integrations: read,
 * book, change and cancel.
 */
export const reservationsRoutes: readonly RestRoute[] = [
  defineRoute({
    operation: getReservationOperation,
    method: 'GET',
    path: '/getReservationDetails/:reservationId',
    summary: 'Reads one reservation with its money lines, nightly rates and every status Innkeep keeps.',
    description:
      'The reservation in Innkeep’s own fields (declined and expired kept apart from cancelled, unlike ' +
      'Host Tools’ getReservation).',
    tag: 'Reservations',
  }),
  defineRoute({
    operation: getReservationsOperation,
    method: 'GET',
    path: '/listReservations',
    summary:
      'Lists reservations across listings by stay dates, listing, statuses, channel or updatedSince (for syncing).',
    description:
      'A page of reservations with nextCursor/hasMore; statuses are comma-separated or repeated. A page ' +
      'may hold fewer than limit when its reservations carry long notes.',
    tag: 'Reservations',
    paging: 'page',
  }),
  defineRoute({
    operation: updateReservationOperation,
    method: 'POST',
    path: '/updateReservation/:reservationId',
    summary: 'Changes a reservation’s guest, counts, times, access code, notes, dates or price.',
    description: 'The reservation as changed, with its money lines and nightly rates.',
    tag: 'Reservations',
  }),
  defineRoute({
    operation: createReservationOperation,
    method: 'POST',
    path: '/createBooking',
    summary:
      'Books a direct reservation: listing, dates, guest and party; priced from the calendar if no price.',
    description:
      'The new reservation whole, with its money lines and nightly rates. Nights already held are refused ' +
      'with 409 and details.clashes naming what is in the way; nothing is booked then.',
    tag: 'Reservations',
    successStatus: 201,
  }),
  defineRoute({
    operation: cancelReservationOperation,
    method: 'POST',
    path: '/cancelBooking/:reservationId',
    summary: 'Cancels a direct reservation, by the host (default) or the guest, and frees its nights.',
    description:
      'The reservation as cancelled. Channel reservations are cancelled on the channel, and stays already ' +
      'cancelled, declined or expired stay as they are (failed_precondition).',
    tag: 'Reservations',
  }),
];
