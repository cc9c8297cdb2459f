import { listListingGroupsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** list_listing_groups: the account's listing groups with their sizes, to filter analytics by. */
export const listListingGroupsTool = defineTool({
  operation: listListingGroupsOperation,
  name: 'list_listing_groups',
  title: 'List listing groups',
  description:
    'Lists the host’s listing groups (e.g. one property owner’s units, one building) by name, with each ' +
    'group’s id, owner name, number of listings and the first membersListed listings (id and name). Pass a ' +
    'group’s id as listingGroupId to any analytics tool to see figures for just that group. Returns up to ' +
    '`limit` groups (default 20) and a nextCursor when more exist.',
});
