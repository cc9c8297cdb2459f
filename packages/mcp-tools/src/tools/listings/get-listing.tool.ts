import { getListingOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_listing: one listing's full settings. */
export const getListingTool = defineTool({
  operation: getListingOperation,
  name: 'get_listing',
  title: 'Get a listing',
  description:
    'One listing’s full settings: address, time zone, currency, base and minimum price, fees, tax rate, ' +
    'discounts, minimum and maximum nights, capacity, check-in and check-out hours, enabled, groups and ' +
    'channel links.',
});
