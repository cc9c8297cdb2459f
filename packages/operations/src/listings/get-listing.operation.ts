import { listingIdSchema, listingSchema } from '@innkeep/domain';
import { z } from 'zod';
import { defineOperation } from '../operation.ts';

/** get_listing: one listing's full settings. */
export const getListingOperation = defineOperation({
  id: 'get_listing',
  scopes: ['listings:read'],
  access: 'read',
  input: z.object({ listingId: listingIdSchema }),
  output: listingSchema,
  run: ({ listingId }, { actor, domain }) => domain.listings.get(actor, listingId),
});
