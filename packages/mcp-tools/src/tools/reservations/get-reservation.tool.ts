import { getReservationOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_reservation: one reservation with its money lines and nightly rates. */
export const getReservationTool = defineTool({
  operation: getReservationOperation,
  name: 'get_reservation',
  title: 'Get a reservation',
  description:
    'Returns one reservation in full: everything get_reservations shows (guest, contact, guest counts, dates ' +
    'with endDate as check-out, status and its timestamps, channel, confirmation code, access code, notes, guest ' +
    'price, host payout) plus each money line (accommodation, cleaning and other fees, taxes, discounts, channel ' +
    'service fees; who pays it and whether it reaches the host) and the accommodation price of each night. Use ' +
    'it to explain a payout, to answer a guest about their stay, or before changing or cancelling it. Find ids ' +
    'with get_reservations.',
});
