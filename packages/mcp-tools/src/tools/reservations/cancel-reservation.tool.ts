import { cancelReservationOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** cancel_reservation: cancels a direct reservation and frees its nights. */
export const cancelReservationTool = defineTool({
  operation: cancelReservationOperation,
  name: 'cancel_reservation',
  title: 'Cancel a direct reservation',
  description:
    'Cancels a direct reservation (channel direct) when the host or the guest called the stay off. Call ' +
    'get_reservation first to confirm the guest, dates and channel with the host. What changes: ⚠️ this cannot ' +
    'be undone. The status becomes cancelled for good, and the nights are freed at once, so they show as ' +
    'available on every channel and anyone may book them; rebooking the guest means a new create_reservation, ' +
    'if the dates are still free. Only direct bookings: Airbnb, Vrbo and Booking.com reservations are refused ' +
    'with failed_precondition and must be cancelled on that channel (Innkeep records the cancellation with the ' +
    'next sync). Reservations already cancelled, declined or expired are refused too. This tool sends the ' +
    'guest nothing (use send_message to tell them). cancelledBy says who asked (host by default, or guest); ' +
    'reason is kept in the reservation’s change log. Returns the cancelled reservation.',
  writeHints: { destructiveHint: true, idempotentHint: true },
});
