import { userProfileSchema } from '@innkeep/domain';
import { z } from 'zod';
import { defineOperation } from '../operation.ts';

/** get_user: the signed-in host, their account and subscription. */
export const getUserOperation = defineOperation({
  id: 'get_user',
  scopes: ['user:read'],
  access: 'read',
  input: z.object({}),
  output: userProfileSchema,
  run: (_input, { actor, domain }) => domain.identity.getUser(actor),
});
