import { getReservationsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_reservations: the account's reservations, filtered and paged. */
export const getReservationsTool = defineTool({
  operation: getReservationsOperation,
  name: 'get_reservations',
  title: 'List reservations',
  description:
    'Lists reservations from every channel (Airbnb, Vrbo, Booking.com, direct) in check-in order. Filters: a ' +
    'date window (startDate/endDate: stays with at least one night in it, so a stay checking out on startDate ' +
    'is left out), listingId, statuses (accepted = booked, pending = request awaiting an answer, inquiry, ' +
    'declined, expired, cancelled; all when omitted), channel, and updatedSince (changes since an instant). Each ' +
    'reservation has the guest’s name and contact, guest counts, startDate (check-in) and endDate (check-out), ' +
    'nights, status, channel, confirmation code, guest price, host payout and accommodation revenue in the ' +
    'listing’s currency, access code, notes, and stayPhase (where the stay is on the listing’s today). Use ' +
    'get_reservation for the money lines of one stay, and collect_date_range to turn phrases like "next ' +
    'weekend" into dates. Returns up to limit (default 20) and nextCursor when more exist.',
});
