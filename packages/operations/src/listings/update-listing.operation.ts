import { listingSchema, updateListingInputSchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';

/** update_listing: changes one listing's settings. */
export const updateListingOperation = defineOperation({
  id: 'update_listing',
  scopes: ['listings:write'],
  access: 'write',
  input: updateListingInputSchema,
  output: listingSchema,
  run: (input, { actor, domain }) => domain.listings.update(actor, input),
});
