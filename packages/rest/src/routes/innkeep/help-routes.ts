import { getHelpArticleOperation, listHelpArticlesOperation } from '@innkeep/operations';
import { defineRoute, type RestRoute } from '../../route-definition.ts';

/** Innkeep's help centre, the same for every account. */
export const helpRoutes: readonly RestRoute[] = [
  defineRoute({
    operation: listHelpArticlesOperation,
    method: 'GET',
    path: '/listHelpArticles',
    summary: 'Searches or lists the help centre’s articles, optionally of one collection.',
    description: 'A page of article summaries (no bodies) with nextCursor/hasMore.',
    tag: 'Help',
    paging: 'page',
  }),
  defineRoute({
    operation: getHelpArticleOperation,
    method: 'GET',
    path: '/getHelpArticle/:idOrSlug',
    summary: 'One help article, by id (hlp_…) or slug.',
    description: 'The article with its Markdown body.',
    tag: 'Help',
  }),
];
