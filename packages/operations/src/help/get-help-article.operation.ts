import { getHelpArticleInputSchema, helpArticleSchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';

/** get_help_article: one help-centre article with its body. */
export const getHelpArticleOperation = defineOperation({
  id: 'get_help_article',
  scopes: ['help:read'],
  access: 'read',
  input: getHelpArticleInputSchema,
  output: helpArticleSchema,
  run: (input, { domain }) => domain.help.get(input),
});
