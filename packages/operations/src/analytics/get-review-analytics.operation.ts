import { reviewAnalyticsInputSchema, reviewAnalyticsSchema } from '@innkeep/domain/analytics';
import { defineOperation } from '../operation.ts';

/** get_review_analytics: rating trend, best and worst listings, weakest category, recent low ratings. */
export const getReviewAnalyticsOperation = defineOperation({
  id: 'get_review_analytics',
  scopes: ['reviews:read'],
  access: 'read',
  input: reviewAnalyticsInputSchema,
  output: reviewAnalyticsSchema,
  run: (input, { actor, domain }) => domain.analytics.getReviewAnalytics(actor, input),
});
