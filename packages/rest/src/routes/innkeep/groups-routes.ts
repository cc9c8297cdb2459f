import {
  createListingGroupOperation,
  deleteListingGroupOperation,
  listListingGroupsOperation,
  regenerateOwnerImportLinkOperation,
  updateListingGroupOperation,
} from '@innkeep/operations';
import { defineRoute, type RestRoute } from '../../route-definition.ts';
import { smallerPagesInput } from './smaller-pages.ts';

/**
 * Listing groups beyond the Host Tools `listingGroups` and `getListingGroup`: sizes and members, and the
 * writes.
 */
export const groupsRoutes: readonly RestRoute[] = [
  defineRoute({
    operation: listListingGroupsOperation,
    method: 'GET',
    path: '/listListingGroups',
    summary: 'Lists the listing groups with their sizes and first members, to filter analytics by.',
    description: 'A page of group summaries (memberCount, members; at most 100) with nextCursor/hasMore.',
    tag: 'Listing groups',
    paging: 'page',
    input: smallerPagesInput(listListingGroupsOperation),
  }),
  defineRoute({
    operation: createListingGroupOperation,
    method: 'POST',
    path: '/createListingGroup',
    summary: 'Names a set of the account’s listings, e.g. one property owner’s units.',
    description: 'The new listing group (without an owner import link).',
    tag: 'Listing groups',
    successStatus: 201,
  }),
  defineRoute({
    operation: updateListingGroupOperation,
    method: 'POST',
    path: '/updateListingGroup/:groupId',
    summary: 'Renames a group, replaces its listings or changes its owner.',
    description: 'The listing group as changed.',
    tag: 'Listing groups',
  }),
  defineRoute({
    operation: deleteListingGroupOperation,
    method: 'DELETE',
    path: '/deleteListingGroup/:groupId',
    summary: 'Deletes a listing group; its listings stay as they are.',
    description: 'The id of the deleted group and deleted: true.',
    tag: 'Listing groups',
  }),
  defineRoute({
    operation: regenerateOwnerImportLinkOperation,
    method: 'POST',
    path: '/regenerateOwnerImportLink/:groupId',
    summary: 'Issues a new owner import link for a group; the previous link stops working.',
    description: 'The listing group with its new ownerImportLink.',
    tag: 'Listing groups',
  }),
];
