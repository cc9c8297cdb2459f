import { getHelpArticleOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_help_article: one help-centre article with its body. */
export const getHelpArticleTool = defineTool({
  operation: getHelpArticleOperation,
  name: 'get_help_article',
  title: 'Read a help article',
  description:
    'Returns one help-centre article in Markdown, by the id or slug from list_help_articles. Answer the ' +
    'host with its steps and name its title so they can find it themselves.',
});
