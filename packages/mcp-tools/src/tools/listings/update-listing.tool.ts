import { updateListingOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** update_listing: changes one listing's settings. */
export const updateListingTool = defineTool({
  operation: updateListingOperation,
  name: 'update_listing',
  title: 'Update listing settings',
  description:
    'Changes one listing’s settings: names, base and minimum price, fees, tax, capacity, stay limits, ' +
    'hours, discounts, enabled; only the fields given change. Read get_listing first: the old values undo ' +
    'a change. What changes: quotes and new bookings here follow at once (enabled false stops ' +
    'them; channels are not sent settings); reservations keep their terms. Returns the listing.',
  writeHints: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
});
