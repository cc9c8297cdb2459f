import { createReservationOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** create_reservation: books a direct reservation. */
export const createReservationTool = defineTool({
  operation: createReservationOperation,
  name: 'create_reservation',
  title: 'Create a direct reservation',
  description:
    'Books a direct reservation: the host’s own booking of a guest at one listing (Airbnb, Vrbo and Booking.com ' +
    'bookings arrive by sync and are not created here). Call get_quote first with the same listing, dates and ' +
    'guests: it shows the price and says whether the stay is allowed and the nights are free. startDate is the ' +
    'check-in date and endDate the check-out date (the last night is the day before). Without guestPrice the ' +
    'stay is priced from the calendar exactly like get_quote, and the listing’s stay rules apply (minimum and ' +
    'maximum nights, closed arrival and departure days); with guestPrice the total the host agreed with the ' +
    'guest is used and only capacity and free nights are checked. status accepted (default) books the nights, ' +
    'pending holds them awaiting an answer, inquiry holds nothing. What changes: the nights become booked and ' +
    'show as unavailable on every channel the listing is connected to; this tool sends the guest nothing ' +
    '(use send_message). Undo with cancel_reservation. Each call books another reservation, so do not repeat ' +
    'a call that succeeded. Refused with conflict when nights are taken (the error names the dates and what ' +
    'holds them) and failed_precondition when the listing is disabled, the party is too large or a stay rule ' +
    'is broken. Returns the reservation with its price breakdown and nightly rates.',
  writeHints: { destructiveHint: false, idempotentHint: false },
});
