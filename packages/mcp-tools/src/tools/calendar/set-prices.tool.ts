import { setPricesOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** set_prices: per-date nightly prices and stay restrictions of one listing. */
export const setPricesTool = defineTool({
  operation: setPricesOperation,
  name: 'set_prices',
  title: 'Set nightly prices and stay restrictions',
  description:
    'Sets per-date prices (all channels or one), minimum stay and closed check-in or check-out of one ' +
    'listing, from its today on; omitted fields stay, null removes an override. Read get_calendar first: ' +
    'the old values undo a change. What changes: those dates here, not on channels (pricing rules apply on top ' +
    'of an all-channel price, not of a one-channel price; minPrice is the floor of both); reservations keep ' +
    'their price. Returns the changed days.',
  writeHints: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
});
