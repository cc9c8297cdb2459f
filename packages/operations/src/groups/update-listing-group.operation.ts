import { listingGroupSchema, updateListingGroupInputSchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';

/** update_listing_group: renames a group, replaces its listings or changes its owner. */
export const updateListingGroupOperation = defineOperation({
  id: 'update_listing_group',
  scopes: ['listingGroups:write'],
  access: 'write',
  input: updateListingGroupInputSchema,
  output: listingGroupSchema,
  run: (input, { actor, domain }) => domain.listingGroups.update(actor, input),
});
