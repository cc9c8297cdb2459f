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
    .where('channel_accounts.account_id', '=', actor.accountId);
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
    status: row.status as ChannelAccountStatus,
    lastSyncAt: row.last_sync_at?.toISOString() ?? null,
    lastError: row.last_error,
    listingCount: Number(row.listing_count ?? 0),
    createdAt: row.created_at.toISOString(),
  };
}
