import { type ListingGroup, listingGroupSchema, pageLimits } from '@innkeep/domain';
import { z } from 'zod';
import { defineOperation } from '../operation.ts';

/**
 * list_all_listing_groups: every listing group of the account, by name, in one answer, for integrations
 * that read the groups as one list without paging (Host Tools' `listingGroups`). An account has a group
 * per market or owner, a few hundred at most.
 */
export const listAllListingGroupsOperation = defineOperation({
  id: 'list_all_listing_groups',
  scopes: ['listingGroups:read'],
  access: 'read',
  input: z.object({}),
  output: z.object({ listingGroups: z.array(listingGroupSchema).describe('Every listing group, by name.') }),
  run: async (_input, { actor, domain }) => {
    const listingGroups: ListingGroup[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await domain.listingGroups.list(actor, { limit: pageLimits.max, cursor });
      listingGroups.push(...page.items);
      if (!page.hasMore || page.nextCursor === null) return { listingGroups };
      cursor = page.nextCursor;
    }
  },
});
