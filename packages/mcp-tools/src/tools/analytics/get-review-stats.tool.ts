import { getReviewStatsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_review_stats: review counts, ratings, review rate and reply rate of a period. */
export const getReviewStatsTool = defineTool({
  operation: getReviewStatsOperation,
  name: 'get_review_stats',
  title: 'Review figures',
  description:
    'How guests rated stays (by submission date): count, mean (1–5), star distribution, category means, ' +
    'review rate, reply rate and hours to reply, also per channel. Trends, best and worst listings: ' +
    'get_review_analytics; texts: get_reviews.',
});
