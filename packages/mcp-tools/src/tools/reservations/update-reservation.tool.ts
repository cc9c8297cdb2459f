import { updateReservationOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** update_reservation: changes guest details, counts, times, access code, notes, dates or price. */
export const updateReservationTool = defineTool({
  operation: updateReservationOperation,
  name: 'update_reservation',
  title: 'Update a reservation',
  description:
    'Changes a reservation’s guest details and counts, hours, door code, notes, dates or price; only the ' +
    'fields given change, null clears one. Read get_reservation first. New dates must be free; a moved ' +
    'direct booking is re-priced unless guestPrice is given. What changes: the old values, and moved ' +
    'nights here and in calendar exports; a channel’s own booking changes only there. Returns the reservation.',
  writeHints: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
});
