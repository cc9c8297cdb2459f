import { listingSchema, listListingsInputSchema } from '@innkeep/domain';
import { z } from 'zod';
import { defineOperation } from '../operation.ts';
import { pageOutput } from '../page-output.ts';

/** list_listings: the account's listings, paged. */
export const listListingsOperation = defineOperation({
  id: 'list_listings',
  scopes: ['listings:read'],
  access: 'read',
  input: listListingsInputSchema.extend({
    limit: z.number().int().min(1).max(100).default(20).describe('Most listings per page.'),
  }),
  output: pageOutput(listingSchema),
  run: (input, { actor, domain }) => domain.listings.list(actor, input),
});
