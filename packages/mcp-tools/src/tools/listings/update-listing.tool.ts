import { updateListingOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** update_listing: changes one listing's settings. */
export const updateListingTool = defineTool({
  operation: updateListingOperation,
  name: 'update_listing',
  title: 'Update listing settings',
  description:
    'Changes one listing’s settings: name and nickname, base price, minimum price (the floor), cleaning fee, ' +
    'extra-guest fee and guests included, tax rate, maximum guests, minimum and maximum nights, check-in and ' +
    'check-out hours, weekly and monthly discounts, and whether it takes bookings (enabled). Only the fields ' +
    'given change; nickname and minPrice take null to remove them. Call get_listing first and tell the host the ' +
    'current values, which are what they need to undo a change. Money is in the listing’s currency in major ' +
    'units; percents as numbers such as 12.5. What changes: the old values are overwritten, and from now on ' +
    'quotes, new bookings and the prices shown on every connected channel follow the new settings (the base ' +
    'price sets every night without a per-date price; enabled false stops new bookings and quotes). Existing ' +
    'reservations keep their price and terms. Repeating the same call changes nothing more. Returns the listing ' +
    'as it now is.',
  writeHints: { destructiveHint: true, idempotentHint: true },
});
