import { getReviewsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_reviews: guest reviews, newest first. */
export const getReviewsTool = defineTool({
  operation: getReviewsOperation,
  name: 'get_reviews',
  title: 'List guest reviews',
  description:
    'Lists guest reviews, newest first: overall and category ratings (1–5), public text, private ' +
    'feedback, the host’s response, channel, listing, stay and guest. Filter by listing, date, rating or ' +
    'unanswered.',
});
