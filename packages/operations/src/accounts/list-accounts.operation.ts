import { channelAccountSchema, listChannelAccountsInputSchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';
import { pageOutput } from '../page-output.ts';
import { fetchPageThatFits, modelLimit } from '../read-paging.ts';

/** list_accounts: the host's connected channel accounts. */
export const listAccountsOperation = defineOperation({
  id: 'list_accounts',
  scopes: ['accounts:read'],
  access: 'read',
  input: listChannelAccountsInputSchema.extend({ limit: modelLimit('channel accounts') }),
  output: pageOutput(channelAccountSchema),
  run: (input, { actor, domain }) =>
    fetchPageThatFits(
      input.limit,
      (limit) => domain.channelAccounts.list(actor, { ...input, limit }),
      (page) => page,
    ),
});
