import { listListingsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** list_listings: the account's listings, paged. */
export const listListingsTool = defineTool({
  operation: listListingsOperation,
  name: 'list_listings',
  title: 'List listings',
  description:
    'Lists the host’s rental listings by name, with each one’s id, address, time zone, currency, base price, ' +
    'fees, minimum stay, capacity, check-in/out hours, enabled flag, groups and channel links. Use it first to ' +
    'find listing ids for every other tool. Filter by enabled, listing group or a text found in name/nickname/city. ' +
    'Returns up to `limit` listings (default 20) and a nextCursor when more exist.',
});
