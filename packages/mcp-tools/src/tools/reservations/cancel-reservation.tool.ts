import { cancelReservationOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** cancel_reservation: cancels a direct reservation and frees its nights. */
export const cancelReservationTool = defineTool({
  operation: cancelReservationOperation,
  name: 'cancel_reservation',
  title: 'Cancel a direct reservation',
  description:
    'Cancels a direct reservation; Airbnb, Vrbo and Booking.com stays are refused (failed_precondition) ' +
    'and are cancelled on their channel. Confirm guest and dates with get_reservation first. What ' +
    'changes: ⚠️ for good; the nights are free at once here and in calendar exports; the guest is told nothing. ' +
    'Returns the cancelled reservation.',
  writeHints: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
});
