import type { ListingGroup } from '@innkeep/domain';
import { z } from 'zod';

/** A listing group as Host Tools clients read it (`ListingGroup` of the Host Tools API). */
export const hostToolsListingGroupSchema = z.object({
  _id: z.string().describe('Listing group id, e.g. grp_…'),
  name: z.string(),
  ownerImportLink: z
    .string()
    .nullable()
    .describe(
      'Path (/owner-import/<token>, on this server) of the link a property owner uses to import listings ' +
        'into the group; null when the link is off. Anyone holding it can use it.',
    ),
});
/** A listing group as Host Tools clients read it. */
export type HostToolsListingGroup = z.infer<typeof hostToolsListingGroupSchema>;

/** Innkeep's listing group as Host Tools clients read it. */
export function toHostToolsListingGroup(group: ListingGroup): HostToolsListingGroup {
  return { _id: group.id, name: group.name, ownerImportLink: group.ownerImportLink };
}
