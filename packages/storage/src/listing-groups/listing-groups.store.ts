import {
  type Actor,
  assertCanWrite,
  createListingGroupInputSchema,
  decodeCursor,
  generateSecretToken,
  type ListingGroup,
  type ListingGroupUseCases,
  listingGroupRefInputSchema,
  listListingGroupsInputSchema,
  newId,
  notFound,
  ownerImportPathPrefix,
  parseInput,
  toPage,
  updateListingGroupInputSchema,
} from '@innkeep/domain';
import type { Selectable } from 'kysely';
import type { Executor, ListingGroupsTable } from '../database.ts';
import { assertListingsInAccount } from '../listings/listings.store.ts';
import type { StoreDeps } from '../store-deps.ts';
import { inTransaction, recordAudit } from '../transaction.ts';

type ListingGroupRow = Selectable<ListingGroupsTable>;

/** Prefix of owner import tokens, so a leaked one is recognisable in logs and secret scanners. */
const ownerImportTokenPrefix = 'oil_';

/** Listing-group use cases over PostgreSQL. */
export function createListingGroupUseCases({ db }: StoreDeps): ListingGroupUseCases {
  return {
    async list(actor, rawInput) {
      const input = parseInput(listListingGroupsInputSchema, rawInput);
      let query = db.selectFrom('listing_groups').selectAll().where('account_id', '=', actor.accountId);
      if (input.cursor !== undefined) {
        const [name, id] = decodeCursor(input.cursor, 2);
        query = query.where((eb) => eb(eb.refTuple('name', 'id'), '>', eb.tuple(String(name), String(id))));
      }
      const rows = await query
        .orderBy('name')
        .orderBy('id')
        .limit(input.limit + 1)
        .execute();
      const members = await loadMembers(
        db,
        rows.slice(0, input.limit).map((row) => row.id),
      );
      return toPage(
        rows,
        input.limit,
        (row) => toListingGroup(row, members.get(row.id) ?? []),
        (row) => [row.name, row.id],
      );
    },

    async get(actor, groupId) {
      return findGroupOrThrow(db, actor, groupId);
    },

    async create(actor, rawInput) {
      assertCanWrite(actor);
      const input = parseInput(createListingGroupInputSchema, rawInput);
      return inTransaction(db, async (trx) => {
        await assertListingsInAccount(trx, actor.accountId, input.listingIds);
        const id = newId('listingGroup');
        await trx
          .insertInto('listing_groups')
          .values({
            id,
            account_id: actor.accountId,
            name: input.name,
            owner_name: input.ownerName ?? null,
            owner_email: input.ownerEmail ?? null,
            owner_import_token: null,
          })
          .execute();
        await replaceMembers(trx, id, input.listingIds);
        await recordAudit(trx, actor, {
          action: 'listing_group.create',
          targetType: 'listing_group',
          targetId: id,
          details: { name: input.name, listingIds: input.listingIds },
        });
        return findGroupOrThrow(trx, actor, id);
      });
    },

    async update(actor, rawInput) {
      assertCanWrite(actor);
      const input = parseInput(updateListingGroupInputSchema, rawInput);
      return inTransaction(db, async (trx) => {
        await lockGroupOrThrow(trx, actor, input.groupId);
        if (input.listingIds !== undefined) {
          await assertListingsInAccount(trx, actor.accountId, input.listingIds);
          await replaceMembers(trx, input.groupId, input.listingIds);
        }
        const changes = { name: input.name, owner_name: input.ownerName, owner_email: input.ownerEmail };
        if (Object.values(changes).some((value) => value !== undefined)) {
          await trx.updateTable('listing_groups').set(changes).where('id', '=', input.groupId).execute();
        }
        const { groupId, ...changed } = input;
        await recordAudit(trx, actor, {
          action: 'listing_group.update',
          targetType: 'listing_group',
          targetId: groupId,
          details: { changed },
        });
        return findGroupOrThrow(trx, actor, groupId);
      });
    },

    async delete(actor, rawInput) {
      assertCanWrite(actor);
      const { groupId } = parseInput(listingGroupRefInputSchema, rawInput);
      return inTransaction(db, async (trx) => {
        const group = await lockGroupOrThrow(trx, actor, groupId);
        // Members go with the group (on delete cascade); the listings stay.
        await trx.deleteFrom('listing_groups').where('id', '=', groupId).execute();
        await recordAudit(trx, actor, {
          action: 'listing_group.delete',
          targetType: 'listing_group',
          targetId: groupId,
          details: { name: group.name },
        });
        return { id: groupId, deleted: true } as const;
      });
    },

    async regenerateOwnerImportLink(actor, rawInput) {
      assertCanWrite(actor);
      const { groupId } = parseInput(listingGroupRefInputSchema, rawInput);
      return inTransaction(db, async (trx) => {
        const group = await lockGroupOrThrow(trx, actor, groupId);
        await trx
          .updateTable('listing_groups')
          .set({ owner_import_token: generateSecretToken(ownerImportTokenPrefix) })
          .where('id', '=', groupId)
          .execute();
        // The token itself is a credential: the audit log records only that it changed.
        await recordAudit(trx, actor, {
          action: 'listing_group.owner_import_link.regenerate',
          targetType: 'listing_group',
          targetId: groupId,
          details: { replacedPrevious: group.owner_import_token !== null },
        });
        return findGroupOrThrow(trx, actor, groupId);
      });
    },

    async disableOwnerImportLink(actor, rawInput) {
      assertCanWrite(actor);
      const { groupId } = parseInput(listingGroupRefInputSchema, rawInput);
      return inTransaction(db, async (trx) => {
        const group = await lockGroupOrThrow(trx, actor, groupId);
        if (group.owner_import_token !== null) {
          await trx
            .updateTable('listing_groups')
            .set({ owner_import_token: null })
            .where('id', '=', groupId)
            .execute();
          await recordAudit(trx, actor, {
            action: 'listing_group.owner_import_link.disable',
            targetType: 'listing_group',
            targetId: groupId,
          });
        }
        return findGroupOrThrow(trx, actor, groupId);
      });
    },
  };
}

async function lockGroupOrThrow(trx: Executor, actor: Actor, groupId: string): Promise<ListingGroupRow> {
  const row = await trx
    .selectFrom('listing_groups')
    .selectAll()
    .where('id', '=', groupId)
    .where('account_id', '=', actor.accountId)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw notFound('listing group', groupId);
  return row;
}

async function findGroupOrThrow(db: Executor, actor: Actor, groupId: string): Promise<ListingGroup> {
  const row = await db
    .selectFrom('listing_groups')
    .selectAll()
    .where('id', '=', groupId)
    .where('account_id', '=', actor.accountId)
    .executeTakeFirst();
  if (!row) throw notFound('listing group', groupId);
  const members = await loadMembers(db, [row.id]);
  return toListingGroup(row, members.get(row.id) ?? []);
}

async function replaceMembers(trx: Executor, groupId: string, listingIds: readonly string[]): Promise<void> {
  await trx.deleteFrom('listing_group_members').where('group_id', '=', groupId).execute();
  if (listingIds.length === 0) return;
  await trx
    .insertInto('listing_group_members')
    .values(listingIds.map((listingId) => ({ group_id: groupId, listing_id: listingId })))
    .execute();
}

async function loadMembers(db: Executor, groupIds: readonly string[]): Promise<Map<string, string[]>> {
  const members = new Map<string, string[]>();
  if (groupIds.length === 0) return members;
  const rows = await db
    .selectFrom('listing_group_members')
    .select(['group_id', 'listing_id'])
    .where('group_id', 'in', groupIds)
    .orderBy('listing_id')
    .execute();
  for (const { group_id, listing_id } of rows) {
    const list = members.get(group_id);
    if (list) list.push(listing_id);
    else members.set(group_id, [listing_id]);
  }
  return members;
}

function toListingGroup(row: ListingGroupRow, listingIds: string[]): ListingGroup {
  return {
    id: row.id,
    name: row.name,
    listingIds,
    ownerName: row.owner_name,
    ownerEmail: row.owner_email,
    ownerImportLink:
      row.owner_import_token === null ? null : `${ownerImportPathPrefix}${row.owner_import_token}`,
    createdAt: row.created_at.toISOString(),
  };
}
