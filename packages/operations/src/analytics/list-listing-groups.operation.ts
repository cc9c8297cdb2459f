import { listingGroupSummarySchema, listListingGroupSummariesInputSchema } from '@innkeep/domain/analytics';
import { defineOperation } from '../operation.ts';
import { pageOutput } from '../page-output.ts';

/** list_listing_groups: the account's listing groups with their sizes, to filter analytics by. */
export const listListingGroupsOperation = defineOperation({
  id: 'list_listing_groups',
  scopes: ['listingGroups:read'],
  access: 'read',
  input: listListingGroupSummariesInputSchema,
  output: pageOutput(listingGroupSummarySchema),
  run: (input, { actor, domain }) => domain.analytics.listListingGroups(actor, input),
});
