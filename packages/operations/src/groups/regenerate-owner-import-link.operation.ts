import { listingGroupRefInputSchema, listingGroupSchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';

/** regenerate_owner_import_link: issues a group's new owner import link; the previous one stops working. */
export const regenerateOwnerImportLinkOperation = defineOperation({
  id: 'regenerate_owner_import_link',
  scopes: ['listingGroups:write'],
  access: 'write',
  input: listingGroupRefInputSchema,
  output: listingGroupSchema,
  run: (input, { actor, domain }) => domain.listingGroups.regenerateOwnerImportLink(actor, input),
});
