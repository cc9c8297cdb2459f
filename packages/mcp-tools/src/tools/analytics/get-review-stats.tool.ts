import { getReviewStatsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_review_stats: review counts, ratings, review rate and reply rate of a period. */
export const getReviewStatsTool = defineTool({
  operation: getReviewStatsOperation,
  name: 'get_review_stats',
  title: 'Review figures',
  description:
    'How guests rated their stays in a date range, by the date each review was submitted (listing-local). ' +
    'Returns the number of reviews, mean overall rating (5-point), the 1–5 star distribution, the 5-star share, ' +
    'the mean of each category (cleanliness, accuracy, check-in, communication, location, value), the review ' +
    'rate (stays that checked out in the range, up to today, that got a review), the reply rate and mean ' +
    'hours to a host response, and the same headline figures per channel. Use get_review_analytics for the ' +
    'trend, best and worst listings and recent low ratings, get_reviews to read the reviews themselves.',
});
