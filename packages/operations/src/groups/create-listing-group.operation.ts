import { createListingGroupInputSchema, listingGroupSchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';

/** create_listing_group: names a set of the account's listings, e.g. one property owner's units. */
export const createListingGroupOperation = defineOperation({
  id: 'create_listing_group',
  scopes: ['listingGroups:write'],
  access: 'write',
  input: createListingGroupInputSchema,
  output: listingGroupSchema,
  run: (input, { actor, domain }) => domain.listingGroups.create(actor, input),
});
