import { listListingsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** list_listings: the account's listings, paged. */
export const listListingsTool = defineTool({
  operation: listListingsOperation,
  name: 'list_listings',
  title: 'List listings',
  description:
    'Lists the host’s listings: id, name, address, time zone, currency, base price, fees, stay limits, ' +
    'capacity, enabled, groups and channel links. Start here to find listing ids. Filter by enabled, ' +
    'group or text in the name, nickname or city.',
});
