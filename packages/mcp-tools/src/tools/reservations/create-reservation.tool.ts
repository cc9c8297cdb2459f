import { createReservationOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** create_reservation: books a direct reservation. */
export const createReservationTool = defineTool({
  operation: createReservationOperation,
  name: 'create_reservation',
  title: 'Create a direct reservation',
  description:
    'Books a direct reservation (channel bookings arrive by sync), checking in from the listing’s today ' +
    'on. Quote it first with get_quote; without guestPrice it is priced the same and stay rules apply, ' +
    'with it only capacity and free nights are checked. What changes: the nights close here and in calendar ' +
    'exports; the guest is told nothing; each call books another stay. Returns the reservation.',
  writeHints: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
});
