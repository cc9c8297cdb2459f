import type { Actor, Channel } from '@innkeep/domain';
import { notFound } from '@innkeep/domain';
import type {
  AnalyticsFilters,
  AnalyticsMeta,
  attributionBases,
  MetricDefinitionId,
} from '@innkeep/domain/analytics';
import { type AnalyticsPeriod, periodNights } from '@innkeep/domain/analytics';
import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../database.ts';

/** The listings and channel an analytics question covers, resolved against the account. */
export interface AnalyticsScope {
  readonly accountId: string;
  /** The listings in scope; null means every listing of the account (no filter needed in SQL). */
  readonly listingIds: readonly string[] | null;
  readonly listingGroupId: string | null;
  readonly channel: Channel | null;
  /** How many listings are in scope. */
  readonly listingCount: number;
}

/**
 * Resolves the listing, group and channel filters of an analytics input. Unknown listing or group ids are
 * `not_found` errors rather than silently empty results, so a model learns it used a wrong id.
 */
export async function resolveAnalyticsScope(
  db: Executor,
  actor: Actor,
  filters: Pick<AnalyticsFilters, 'listingIds' | 'listingGroupId' | 'channel'>,
): Promise<AnalyticsScope> {
  const accountId = actor.accountId;
  const channel = filters.channel ?? null;
  const listingGroupId = filters.listingGroupId ?? null;
  let listingIds: string[] | null = null;

  if (filters.listingIds !== undefined) {
    const wanted = [...new Set(filters.listingIds)];
    const found = await db
      .selectFrom('listings')
      .select('id')
      .where('account_id', '=', accountId)
      .where('id', 'in', wanted)
      .execute();
    const known = new Set(found.map((row) => row.id));
    const missing = wanted.find((id) => !known.has(id));
    if (missing !== undefined) throw notFound('listing', missing);
    listingIds = wanted;
  }
  if (listingGroupId !== null) {
    const group = await db
      .selectFrom('listing_groups')
      .select('id')
      .where('account_id', '=', accountId)
      .where('id', '=', listingGroupId)
      .executeTakeFirst();
    if (!group) throw notFound('listing group', listingGroupId);
    const members = await db
      .selectFrom('listing_group_members')
      .select('listing_id')
      .where('group_id', '=', listingGroupId)
      .execute();
    const inGroup = members.map((row) => row.listing_id);
    listingIds = listingIds === null ? inGroup : listingIds.filter((id) => inGroup.includes(id));
  }

  const listingCount =
    listingIds === null
      ? Number(
          (
            await db
              .selectFrom('listings')
              .select((eb) => eb.fn.countAll<string>().as('n'))
              .where('account_id', '=', accountId)
              .executeTakeFirstOrThrow()
          ).n,
        )
      : listingIds.length;
  return { accountId, listingIds, listingGroupId, channel, listingCount };
}

/** A SQL condition: `column` names a listing in scope. */
export function listingInScope(scope: AnalyticsScope, column: string): RawBuilder<boolean> {
  if (scope.listingIds === null) return sql<boolean>`true`;
  return sql<boolean>`${sql.ref(column)} = any(${[...scope.listingIds]}::text[])`;
}

/** A SQL condition: `column` holds the scope's channel (always true without a channel filter). */
export function channelInScope(scope: AnalyticsScope, column: string): RawBuilder<boolean> {
  if (scope.channel === null) return sql<boolean>`true`;
  return sql<boolean>`${sql.ref(column)} = ${scope.channel}`;
}

/** The `meta` block of an analytics result. */
export function analyticsMeta(
  scope: AnalyticsScope,
  period: AnalyticsPeriod,
  details: {
    basis: (typeof attributionBases)[number];
    definitions: readonly MetricDefinitionId[];
    currencies?: readonly string[];
    notes?: readonly string[];
  },
): AnalyticsMeta {
  return {
    period: { startDate: period.startDate, endDate: period.endDate, nights: periodNights(period) },
    basis: details.basis,
    listings: scope.listingCount,
    listingGroupId: scope.listingGroupId,
    channel: scope.channel,
    currencies: [...(details.currencies ?? [])].sort(),
    definitions: [...details.definitions],
    notes: [...(details.notes ?? [])],
  };
}
