import { lockIdSchema, lockSchema } from '@innkeep/domain';
import { z } from 'zod';
import { defineOperation } from '../operation.ts';

/** get_lock: one smart lock and the listings it serves. */
export const getLockOperation = defineOperation({
  id: 'get_lock',
  scopes: ['locks:read'],
  access: 'read',
  input: z.object({ lockId: lockIdSchema }),
  output: lockSchema,
  run: ({ lockId }, { actor, domain }) => domain.locks.get(actor, lockId),
});
