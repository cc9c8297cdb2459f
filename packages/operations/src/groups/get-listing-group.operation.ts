import { listingGroupIdSchema, listingGroupSchema } from '@innkeep/domain';
import { z } from 'zod';
import { defineOperation } from '../operation.ts';

/** get_listing_group: one listing group with its listings, owner and owner import link. */
export const getListingGroupOperation = defineOperation({
  id: 'get_listing_group',
  scopes: ['listingGroups:read'],
  access: 'read',
  input: z.object({ groupId: listingGroupIdSchema }),
  output: listingGroupSchema,
  run: ({ groupId }, { actor, domain }) => domain.listingGroups.get(actor, groupId),
});
