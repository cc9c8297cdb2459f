import type { Actor } from '@innkeep/domain';
import { decodeCursor, type Page, toPage } from '@innkeep/domain';
import type { ListingGroupSummary } from '@innkeep/domain/analytics';
import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../database.ts';

interface GroupSummaryRow {
  id: string;
  name: string;
  owner_name: string | null;
  member_count: number;
  members: { id: string; name: string }[];
}

/**
 * A page of the account's listing groups by name, each with its size and its first `membersListed` listings
 * by name: what a model needs to pick a group to filter analytics by, without the owner's import link (a
 * credential) or thousands of member ids. Groups come in order from `listing_groups_account_name`, and each
 * group's first members from `listing_group_members_by_name`, which holds the members' names.
 */
export async function listingGroupSummaries(
  db: Executor,
  actor: Actor,
  page: { limit: number; cursor?: string | undefined; membersListed: number },
): Promise<Page<ListingGroupSummary>> {
  const { rows } = await sql<GroupSummaryRow>`
    select g.id, g.name, g.owner_name,
      (select count(*) from listing_group_members m where m.group_id = g.id)::bigint as member_count,
      (
        select coalesce(json_agg(json_build_object('id', first.listing_id, 'name', first.listing_name)
          order by first.listing_name, first.listing_id), '[]'::json)
        from (
          select m.listing_id, m.listing_name
          from listing_group_members m
          where m.group_id = g.id
          order by m.listing_name, m.listing_id
          limit ${page.membersListed}::integer
        ) first
      ) as members
    from listing_groups g
    where g.account_id = ${actor.accountId} and ${afterCursor(page.cursor)}
    order by g.name, g.id
    limit ${page.limit + 1}::integer`.execute(db);
  return toPage(
    rows,
    page.limit,
    (row) => ({
      id: row.id,
      name: row.name,
      ownerName: row.owner_name,
      memberCount: Number(row.member_count),
      members: row.members,
      membersTruncated: row.members.length < Number(row.member_count),
    }),
    (row) => [row.name, row.id],
  );
}

/** Groups after the cursor's (name, id) in list order; every group without a cursor. */
function afterCursor(cursor: string | undefined): RawBuilder<boolean> {
  if (cursor === undefined) return sql<boolean>`true`;
  const [name, id] = decodeCursor(cursor, 2).map(String);
  return sql<boolean>`(g.name, g.id) > (${name}, ${id})`;
}
