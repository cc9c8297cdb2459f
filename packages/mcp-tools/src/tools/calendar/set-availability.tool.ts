import { setAvailabilityOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** set_availability: blocks or opens a range of nights of one listing. */
export const setAvailabilityTool = defineTool({
  operation: setAvailabilityOperation,
  name: 'set_availability',
  title: 'Block or open nights',
  description:
    'Blocks a listing’s nights (owner stay, maintenance, manual) or opens them again, from its today on. ' +
    'startDate and endDate are the first and last NIGHT: a stay checking out 2026-07-12 ends at ' +
    '2026-07-11. Read get_calendar first. What changes: blocked nights close here and in calendar ' +
    'exports; nights booked or held by a channel calendar stay. Returns what changed.',
  writeHints: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
});
