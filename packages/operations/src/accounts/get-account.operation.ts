import { channelAccountIdSchema, channelAccountSchema } from '@innkeep/domain';
import { z } from 'zod';
import { defineOperation } from '../operation.ts';

/** get_account: one connected channel account. */
export const getAccountOperation = defineOperation({
  id: 'get_account',
  scopes: ['accounts:read'],
  access: 'read',
  input: z.object({ channelAccountId: channelAccountIdSchema }),
  output: channelAccountSchema,
  run: ({ channelAccountId }, { actor, domain }) => domain.channelAccounts.get(actor, channelAccountId),
});
