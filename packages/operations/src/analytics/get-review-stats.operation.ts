import { reviewStatsInputSchema, reviewStatsSchema } from '@innkeep/domain/analytics';
import { defineOperation } from '../operation.ts';

/** get_review_stats: review counts, ratings, review rate and reply rate of a period. */
export const getReviewStatsOperation = defineOperation({
  id: 'get_review_stats',
  scopes: ['reviews:read'],
  access: 'read',
  input: reviewStatsInputSchema,
  output: reviewStatsSchema,
  run: (input, { actor, domain }) => domain.analytics.getReviewStats(actor, input),
});
