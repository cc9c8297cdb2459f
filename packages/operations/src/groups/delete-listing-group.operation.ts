import { listingGroupRefInputSchema } from '@innkeep/domain';
import { z } from 'zod';
import { defineOperation } from '../operation.ts';

/** delete_listing_group: deletes a group; its listings stay as they are. */
export const deleteListingGroupOperation = defineOperation({
  id: 'delete_listing_group',
  scopes: ['listingGroups:write'],
  access: 'write',
  input: listingGroupRefInputSchema,
  output: z.object({
    id: z.string().describe('Id of the deleted listing group.'),
    deleted: z.literal(true),
  }),
  run: (input, { actor, domain }) => domain.listingGroups.delete(actor, input),
});
