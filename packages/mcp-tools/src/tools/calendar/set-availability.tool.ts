import { setAvailabilityOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** set_availability: blocks or opens a range of nights of one listing. */
export const setAvailabilityTool = defineTool({
  operation: setAvailabilityOperation,
  name: 'set_availability',
  title: 'Block or open nights',
  description:
    'Blocks a range of nights of one listing (an owner stay, maintenance, or anything else) or opens blocked ' +
    'nights again. Call get_calendar for the range first to see what is booked or blocked. startDate and endDate ' +
    'are the first and last NIGHTS, both included: to block a stay checking in 2026-07-10 and out 2026-07-12, ' +
    'send 2026-07-10 to 2026-07-11. available false blocks (reason owner, maintenance or manual, and an optional ' +
    'note); available true removes blocks. What changes: blocked nights show as unavailable on every channel the ' +
    'listing is connected to and cannot be quoted or booked; opened nights become bookable everywhere again. ' +
    'Blocking replaces any block already inside the range (its reason and note). Reservations are never touched: ' +
    'blocking over a booked night is refused with a conflict naming the reservation and its dates, and nothing ' +
    'changes; opening leaves booked nights booked and lists them in stillBookedNights. Nights before the listing’s ' +
    'today cannot be changed. Returns the range, how many nights changed, and the nights still booked.',
  writeHints: { destructiveHint: true, idempotentHint: true },
});
