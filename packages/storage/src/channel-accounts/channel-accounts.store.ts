import type { Actor, Channel } from '@innkeep/domain';
import {
  type ChannelAccount,
  type ChannelAccountStatus,
  type ChannelAccountUseCases,
  type ConnectionType,
  decodeCursor,
  listChannelAccountsInputSchema,
  notFound,
  parseInput,
  toPage,
} from '@innkeep/domain';
import { sql } from 'kysely';
import type { Executor } from '../database.ts';
import type { StoreDeps } from '../store-deps.ts';

/** Channel-account use cases over PostgreSQL. */
export function createChannelAccountUseCases({ db }: StoreDeps): ChannelAccountUseCases {
  return {
    async list(actor, rawInput) {
      const input = parseInput(listChannelAccountsInputSchema, rawInput);
      let query = selectChannelAccounts(db, actor);
      if (input.cursor !== undefined) {
        const [displayName, id] = decodeCursor(input.cursor, 2);
        query = query.where((eb) =>
          eb.or([
            eb('channel_accounts.display_name', '>', String(displayName)),
            eb.and([
              eb('channel_accounts.display_name', '=', String(displayName)),
              eb('channel_accounts.id', '>', String(id)),
            ]),
          ]),
        );
      }
      const rows = await query
        .orderBy('channel_accounts.display_name')
        .orderBy('channel_accounts.id')
        .limit(input.limit + 1)
        .execute();
      return toPage(rows, input.limit, toChannelAccount, (row) => [row.display_name, row.id]);
    },

    async get(actor, channelAccountId) {
      const row = await selectChannelAccounts(db, actor)
        .where('channel_accounts.id', '=', channelAccountId)
        .executeTakeFirst();
      if (!row) throw notFound('channel account', channelAccountId);
      return toChannelAccount(row);
    },
  };
}

function selectChannelAccounts(db: Executor, actor: Actor) {
  return db
    .selectFrom('channel_accounts')
    .selectAll('channel_accounts')
    .select((eb) =>
      eb
        .selectFrom('listing_channel_links')
        .whereRef('listing_channel_links.channel_account_id', '=', 'channel_accounts.id')
        .select((count) => count.fn.countAll<number>().as('n'))
        .as('listing_count'),
    )
    .select(importHealth)
    .where('channel_accounts.account_id', '=', actor.accountId);
}

/**
 * The health of the account's calendar imports, from its links that have an import URL: how many there are,
 * the latest success, and the latest error of a link in error (named by its listing; a link in error always
 * has one, so it is null exactly when none is). An account without import URLs has `import_links` 0 and
 * reports its stored columns.
 */
function importHealth() {
  return [
    sql<number>`(select count(*) from listing_channel_links as link
      where link.channel_account_id = channel_accounts.id and link.calendar_import_url is not null)`.as(
      'import_links',
    ),
    sql<Date | null>`(select max(link.import_last_success_at) from listing_channel_links as link
      where link.channel_account_id = channel_accounts.id and link.calendar_import_url is not null)`.as(
      'import_last_success_at',
    ),
    sql<string | null>`(select link.listing_id || ': ' || link.import_last_error
      from listing_channel_links as link
      where link.channel_account_id = channel_accounts.id and link.import_status = 'error'
      order by link.import_last_error_at desc nulls last, link.listing_id
      limit 1)`.as('import_last_error'),
  ] as const;
}

type ChannelAccountQueryRow = Awaited<
  ReturnType<ReturnType<typeof selectChannelAccounts>['executeTakeFirstOrThrow']>
>;

function toChannelAccount(row: ChannelAccountQueryRow): ChannelAccount {
  return {
    id: row.id,
    channel: row.channel as Channel,
    displayName: row.display_name,
    externalAccountId: row.external_account_id,
    email: row.email,
    connectionType: row.connection_type as ConnectionType,
    ...health(row),
    listingCount: Number(row.listing_count ?? 0),
    createdAt: row.created_at.toISOString(),
  };
}

/**
 * Status, last sync and last error: from the calendar imports when the account has any (error when one is,
 * else connected), else as stored.
 */
function health(row: ChannelAccountQueryRow): Pick<ChannelAccount, 'status' | 'lastSyncAt' | 'lastError'> {
  if (Number(row.import_links) === 0) {
    return {
      status: row.status as ChannelAccountStatus,
      lastSyncAt: row.last_sync_at?.toISOString() ?? null,
      lastError: row.last_error,
    };
  }
  return {
    status: row.import_last_error === null ? 'connected' : 'error',
    lastSyncAt:
      row.import_last_success_at === null ? null : new Date(row.import_last_success_at).toISOString(),
    lastError: row.import_last_error,
  };
}
