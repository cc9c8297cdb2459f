import { accessCodeSchema, listAccessCodesInputSchema } from '@innkeep/domain';
import { z } from 'zod';
import { defineOperation } from '../operation.ts';

/** list_access_codes: a stay's door codes, one per lock, by lock name. */
export const listAccessCodesOperation = defineOperation({
  id: 'list_access_codes',
  scopes: ['locks:read'],
  access: 'read',
  input: listAccessCodesInputSchema,
  output: z.object({
    // Whole, not paged: a stay has one code per lock of its listing.
    accessCodes: z.array(accessCodeSchema).describe('The stay’s codes, one per lock, by lock name.'),
  }),
  run: async (input, { actor, domain }) => ({
    accessCodes: await domain.locks.listAccessCodes(actor, input),
  }),
});
