import { getReservationOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_reservation: one reservation with its money lines and nightly rates. */
export const getReservationTool = defineTool({
  operation: getReservationOperation,
  name: 'get_reservation',
  title: 'Get a reservation',
  description:
    'One reservation in full: what get_reservations shows plus each money line (fees, taxes, discounts, ' +
    'channel fees; who pays and whether it reaches the host) and each night’s price. Use it to explain a ' +
    'payout, or before changing or cancelling a stay.',
});
