import { getReservationsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_reservations: the account's reservations, filtered and paged. */
export const getReservationsTool = defineTool({
  operation: getReservationsOperation,
  name: 'get_reservations',
  title: 'List reservations',
  description:
    'Lists reservations from every channel in check-in order: guest and contact, guest counts, dates, ' +
    'status, channel, codes, notes, guest price, payout, stayPhase. Filter by dates (stays with a night ' +
    'in them), listing, status, channel or updatedSince. Money lines: get_reservation.',
});
