import { listHelpArticlesOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** list_help_articles: Innkeep's help centre, searched or listed. */
export const listHelpArticlesTool = defineTool({
  operation: listHelpArticlesOperation,
  name: 'list_help_articles',
  title: 'Search the help centre',
  description:
    'Searches or lists Innkeep’s help-centre articles (id, slug, title, collection and a one-line summary, no ' +
    'body). Use it for "how do I…" questions about Innkeep itself: connecting an AI assistant, the API and ' +
    'webhooks, calendar and pricing, messaging, account and billing. Pass query with a few words; matches in the ' +
    'title come first. Then read one with get_help_article. Returns up to limit (default 20) and nextCursor when ' +
    'more exist.',
});
