import { getReservationsOperation, updateReservationOperation } from '@innkeep/operations';
import { defineRoute, type RestRoute } from '../../route-definition.ts';

/** Reservations across listings in Innkeep's own field names, for sync jobs and native integrations. */
export const reservationsRoutes: readonly RestRoute[] = [
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
];
