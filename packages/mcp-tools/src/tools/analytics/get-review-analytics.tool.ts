import { getReviewAnalyticsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_review_analytics: rating trend, best and worst listings, weakest category, recent low ratings. */
export const getReviewAnalyticsTool = defineTool({
  operation: getReviewAnalyticsOperation,
  name: 'get_review_analytics',
  title: 'Review trends and problem spots',
  description:
    'Where reviews are going and what to fix, over a date range by submission date. Returns the rating trend ' +
    'by day, ISO week or month (granularity, default month; buckets cut by the range are flagged partial), ' +
    'the weakest category of the portfolio, the best and the worst listings by mean rating among those with ' +
    'at least minReviews reviews (each with its weakest category), the newest low ratings (3 stars or fewer) ' +
    'with their review ids and whether they were answered, and how many reviews still have no host response. ' +
    'Read a review’s text with get_reviews. For counts, distribution and reply rates use get_review_stats.',
});
