import { listListingGroupsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** list_listing_groups: the account's listing groups with their sizes, to filter analytics by. */
export const listListingGroupsTool = defineTool({
  operation: listListingGroupsOperation,
  name: 'list_listing_groups',
  title: 'List listing groups',
  description:
    'Lists listing groups (e.g. one owner’s units, one building): id, owner, number of listings and the ' +
    'first membersListed of them. Pass a group’s id as listingGroupId to any analytics tool.',
});
