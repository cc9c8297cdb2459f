import { helpArticleSummarySchema, listHelpArticlesInputSchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';
import { pageOutput } from '../page-output.ts';
import { fetchPageThatFits, modelLimit } from '../read-paging.ts';

/** list_help_articles: Innkeep's help centre, searched or listed. */
export const listHelpArticlesOperation = defineOperation({
  id: 'list_help_articles',
  scopes: ['help:read'],
  access: 'read',
  input: listHelpArticlesInputSchema.extend({ limit: modelLimit('articles') }),
  output: pageOutput(helpArticleSummarySchema),
  run: (input, { domain }) =>
    fetchPageThatFits(
      input.limit,
      (limit) => domain.help.list({ ...input, limit }),
      (page) => page,
    ),
});
