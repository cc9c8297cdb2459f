import { getReviewsOperation } from '@innkeep/operations';
import { defineRoute, type RestRoute } from '../../route-definition.ts';

/** Guest reviews across listings, filtered. */
export const reviewsRoutes: readonly RestRoute[] = [
  defineRoute({
    operation: getReviewsOperation,
    method: 'GET',
    path: '/listReviews',
    summary: 'Lists guest reviews across listings, newest first, by listing, date, rating or reply.',
    description: 'A page of reviews with nextCursor/hasMore.',
    tag: 'Reviews',
    paging: 'page',
  }),
];
