import { z } from 'zod';
import type { Actor } from '../core/actor.ts';
import { type Page, pageInputShape } from '../core/paging.ts';
import { listingIdSchema } from '../listings/listings.ts';

/** The most listings one group may hold: the largest portfolio Innkeep is built for. */
export const maxListingsPerGroup = 2000;

/** Path prefix of owner import links; the server serves the page and prepends its base URL. */
export const ownerImportPathPrefix = '/owner-import/';

/** Validates a listing group id. */
export const listingGroupIdSchema = z.string().min(1).max(64).describe('Listing group id, e.g. grp_…');

const groupNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .describe('Name of the group, e.g. "Downtown lofts".');
const listingIdsSchema = z
  .array(listingIdSchema)
  .max(maxListingsPerGroup)
  .refine((ids) => new Set(ids).size === ids.length, 'Each listing id may appear only once.')
  .describe(`The listings in the group (at most ${maxListingsPerGroup}); they must belong to this account.`);
const ownerNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .describe('Name of the property owner the group is managed for.');
const ownerEmailSchema = z.email().max(254).describe('Email of the property owner.');

/** A named set of listings, e.g. one property owner's units, with the owner's optional import link. */
export const listingGroupSchema = z.object({
  id: z.string(),
  name: z.string(),
  listingIds: z.array(z.string()).describe('Listings in the group, by id.'),
  ownerName: z.string().nullable(),
  ownerEmail: z.string().nullable(),
  ownerImportLink: z
    .string()
    .nullable()
    .describe(
      'Relative path (/owner-import/<token>) of the link a property owner uses to import listings into this ' +
        'group; null when the link is disabled. Anyone holding it can use it: share it only with the owner.',
    ),
  createdAt: z.string(),
});
/** A listing group. */
export type ListingGroup = z.infer<typeof listingGroupSchema>;

/** Paging for {@link ListingGroupUseCases.list}. */
export const listListingGroupsInputSchema = z.object({ ...pageInputShape });
/** Input of {@link ListingGroupUseCases.list}. */
export type ListListingGroupsInput = z.input<typeof listListingGroupsInputSchema>;

/** A new listing group. */
export const createListingGroupInputSchema = z.object({
  name: groupNameSchema,
  listingIds: listingIdsSchema,
  ownerName: ownerNameSchema.optional(),
  ownerEmail: ownerEmailSchema.optional(),
});
/** Input of {@link ListingGroupUseCases.create}. */
export type CreateListingGroupInput = z.input<typeof createListingGroupInputSchema>;

/** Changes to a listing group. Omitted fields stay as they are; `listingIds` replaces the whole set. */
export const updateListingGroupInputSchema = z
  .object({
    groupId: listingGroupIdSchema,
    name: groupNameSchema.optional(),
    listingIds: listingIdsSchema.optional(),
    ownerName: ownerNameSchema.nullable().optional().describe('Owner name; null removes it.'),
    ownerEmail: ownerEmailSchema.nullable().optional().describe('Owner email; null removes it.'),
  })
  .refine(
    (input) => Object.entries(input).some(([key, value]) => key !== 'groupId' && value !== undefined),
    'Name at least one of name, listingIds, ownerName or ownerEmail to change.',
  );
/** Input of {@link ListingGroupUseCases.update}. */
export type UpdateListingGroupInput = z.input<typeof updateListingGroupInputSchema>;

/** Names one listing group, for delete and the owner-import-link operations. */
export const listingGroupRefInputSchema = z.object({ groupId: listingGroupIdSchema });
/** Input of {@link ListingGroupUseCases.delete} and the owner-import-link operations. */
export type ListingGroupRefInput = z.input<typeof listingGroupRefInputSchema>;

/** What {@link ListingGroupUseCases.delete} reports. The listings themselves are untouched. */
export interface DeletedListingGroup {
  readonly id: string;
  readonly deleted: true;
}

/** Reads and manages listing groups and their owner import links. */
export interface ListingGroupUseCases {
  /** Lists the account's listing groups by name. */
  list(actor: Actor, input: ListListingGroupsInput): Promise<Page<ListingGroup>>;
  /** One listing group; `not_found` for ids outside the account. */
  get(actor: Actor, groupId: string): Promise<ListingGroup>;
  /** Creates a group (without an owner import link); `not_found` names listing ids outside the account. Audited. */
  create(actor: Actor, input: CreateListingGroupInput): Promise<ListingGroup>;
  /** Renames a group, replaces its listings or changes its owner; audited. */
  update(actor: Actor, input: UpdateListingGroupInput): Promise<ListingGroup>;
  /** Deletes a group (not its listings); audited. */
  delete(actor: Actor, input: ListingGroupRefInput): Promise<DeletedListingGroup>;
  /** Issues a new owner import link, which stops the previous one from working; audited. */
  regenerateOwnerImportLink(actor: Actor, input: ListingGroupRefInput): Promise<ListingGroup>;
  /** Turns the owner import link off; audited. Doing it twice is harmless. */
  disableOwnerImportLink(actor: Actor, input: ListingGroupRefInput): Promise<ListingGroup>;
}
