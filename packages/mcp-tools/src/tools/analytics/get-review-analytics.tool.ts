import { getReviewAnalyticsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_review_analytics: rating trend, best and worst listings, weakest category, recent low ratings. */
export const getReviewAnalyticsTool = defineTool({
  operation: getReviewAnalyticsOperation,
  name: 'get_review_analytics',
  title: 'Review trends and problem spots',
  description:
    'Where reviews are going (by submission date): rating trend, weakest category, best and worst ' +
    'listings (at least minReviews), newest ratings of 3 or less and whether answered, unanswered count. ' +
    'Counts and reply rates: get_review_stats; texts: get_reviews.',
});
