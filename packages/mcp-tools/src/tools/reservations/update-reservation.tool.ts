import { updateReservationOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** update_reservation: changes guest details, counts, times, access code, notes, dates or price. */
export const updateReservationTool = defineTool({
  operation: updateReservationOperation,
  name: 'update_reservation',
  title: 'Update a reservation',
  description:
    'Changes a reservation: guest name and contact, guest counts, arrival and departure hours, the door code, ' +
    'private notes, the dates, or the price. Only the fields given change; null clears a field. Call ' +
    'get_reservation first for the current values, and before moving dates check the new ones with ' +
    'get_calendar or get_quote. startDate is the new check-in and endDate the new check-out date. What changes: ' +
    'the old values are overwritten. Moving dates moves the stay on the calendar: the new nights show as ' +
    'unavailable on every channel and the old ones become bookable; if a new night is taken the call is refused ' +
    'with a conflict naming the dates and what holds them, and nothing changes. A moved direct booking is ' +
    're-priced from the calendar unless guestPrice is given. Airbnb, Vrbo and Booking.com bookings keep the ' +
    'channel’s money, and this changes only Innkeep’s record of them: the booking on the channel itself is ' +
    'changed on that channel. Guest counts never re-price on their own. This tool sends the guest nothing (use send_message). Declined, expired and ' +
    'cancelled reservations cannot be changed (failed_precondition). Repeating the same call changes nothing ' +
    'more. Returns the reservation as it now is, with its price breakdown.',
  writeHints: { destructiveHint: true, idempotentHint: true },
});
