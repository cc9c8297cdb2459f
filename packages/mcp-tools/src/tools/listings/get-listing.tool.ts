import { getListingOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_listing: one listing's full settings. */
export const getListingTool = defineTool({
  operation: getListingOperation,
  name: 'get_listing',
  title: 'Get a listing',
  description:
    'Returns one listing’s full settings: address, time zone, currency, base and minimum price, cleaning and ' +
    'extra-guest fees, tax rate, weekly/monthly discounts, minimum and maximum nights, capacity, check-in/out ' +
    'hours, whether it takes bookings, its listing groups and channel links. Use list_listings to find the id.',
});
