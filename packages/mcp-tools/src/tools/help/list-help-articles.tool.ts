import { listHelpArticlesOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** list_help_articles: Innkeep's help centre, searched or listed. */
export const listHelpArticlesTool = defineTool({
  operation: listHelpArticlesOperation,
  name: 'list_help_articles',
  title: 'Search the help centre',
  description:
    'Searches Innkeep’s help centre (id, slug, title, summary) for “how do I…” questions about Innkeep ' +
    'itself: assistants, the API and webhooks, calendar, messaging, billing. Read one with ' +
    'get_help_article.',
});
