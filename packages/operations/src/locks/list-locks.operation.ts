import { listLocksInputSchema, lockSchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';
import { pageOutput } from '../page-output.ts';

/** list_locks: the account's smart locks by name, paged. */
export const listLocksOperation = defineOperation({
  id: 'list_locks',
  scopes: ['locks:read'],
  access: 'read',
  input: listLocksInputSchema,
  output: pageOutput(lockSchema),
  run: (input, { actor, domain }) => domain.locks.list(actor, input),
});
