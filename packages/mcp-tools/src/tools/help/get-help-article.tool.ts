import { getHelpArticleOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_help_article: one help-centre article with its body. */
export const getHelpArticleTool = defineTool({
  operation: getHelpArticleOperation,
  name: 'get_help_article',
  title: 'Read a help article',
  description:
    'Returns one Innkeep help-centre article in Markdown, by the id or slug that list_help_articles gave. Use ' +
    'its steps to answer the host, and mention the article’s title so they can find it themselves.',
});
