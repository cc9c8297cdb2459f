import { listReviewsInputSchema, reviewSchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';
import { pageOutput } from '../page-output.ts';
import { fetchPageThatFits, modelLimit } from '../read-paging.ts';

/** get_reviews: guest reviews, newest first. */
export const getReviewsOperation = defineOperation({
  id: 'get_reviews',
  scopes: ['reviews:read'],
  access: 'read',
  input: listReviewsInputSchema.safeExtend({ limit: modelLimit('reviews') }),
  output: pageOutput(reviewSchema),
  run: async (input, { actor, domain }) => {
    // A filter naming another account's listing would list nothing; say it does not exist instead.
    if (input.listingId !== undefined) await domain.listings.get(actor, input.listingId);
    return fetchPageThatFits(
      input.limit,
      (limit) => domain.reviews.list(actor, { ...input, limit }),
      (page) => page,
    );
  },
});
