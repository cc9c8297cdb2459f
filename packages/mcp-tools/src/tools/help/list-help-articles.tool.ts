import { helpArticleSummarySchema, listHelpArticlesInputSchema } from '@innkeep/domain';
import { pageOutput } from '../../page-output.ts';
import { defineTool, readOnly } from '../../tool-definition.ts';
import { fetchPageThatFits, modelLimit } from '../read-paging.ts';

/** list_help_articles: Innkeep's help centre, searched or listed. */
export const listHelpArticlesTool = defineTool({
  name: 'list_help_articles',
  title: 'Search the help centre',
  description:
    'Searches or lists Innkeep’s help-centre articles (id, slug, title, collection and a one-line summary, no ' +
    'body). Use it for "how do I…" questions about Innkeep itself: connecting an AI assistant, the API and ' +
    'webhooks, calendar and pricing, messaging, account and billing. Pass query with a few words; matches in the ' +
    'title come first. Then read one with get_help_article. Returns up to limit (default 20) and nextCursor when ' +
    'more exist.',
  scopes: ['help:read'],
  input: listHelpArticlesInputSchema.extend({ limit: modelLimit('articles') }),
  output: pageOutput(helpArticleSummarySchema),
  annotations: readOnly,
  handler: (input, { domain }) =>
    fetchPageThatFits(
      input.limit,
      (limit) => domain.help.list({ ...input, limit }),
      (page) => page,
    ),
});
