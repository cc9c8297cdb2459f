import {
  type Actor,
  assertCanWrite,
  type Channel,
  calendarExportUrl,
  DomainError,
  decodeCursor,
  type Listing,
  type ListingChannelLink,
  type ListingUseCases,
  listAvailableListingsInputSchema,
  listListingsInputSchema,
  localDateIn,
  notFound,
  type Page,
  parseInput,
  reissueCalendarExportUrlInputSchema,
  setCalendarImportUrlInputSchema,
  toMajorUnits,
  toMinorUnits,
  toPage,
  updateListingInputSchema,
} from '@innkeep/domain';
import { CompiledQuery, type ExpressionBuilder, sql } from 'kysely';
import { createBatchedLookup } from '../batched-lookup.ts';
import { releaseCalendarImport } from '../calendar-imports/apply-calendar-feed.ts';
import type { Database, Executor, ListingRow } from '../database.ts';
import type { StoreDeps } from '../store-deps.ts';
import { inTransaction, recordAudit } from '../transaction.ts';
import { recordEvent } from '../webhooks/record-event.ts';

/** What listing use cases need besides the database. */
export interface ListingStoreDeps extends StoreDeps {
  /**
   * The public address (BASE_URL) without a trailing slash, which calendar export URLs start with; without
   * it they are paths (`/ical/<token>.ics`) for the caller to complete.
   */
  readonly publicBaseUrl?: string | undefined;
}

/** Listing use cases over PostgreSQL. */
export function createListingUseCases({ db, clock, publicBaseUrl }: ListingStoreDeps): ListingUseCases {
  const toListing = (row: ListingWithDetails) => listingOfRow(row, publicBaseUrl);
  // get_listing is the hottest read of /mcp: concurrent requests share one query per turn of the event loop.
  const lookUpListing = createBatchedLookup<ListingKey, ListingWithDetails>({
    fetch: (keys) =>
      selectListings(
        db,
        keys.map((key) => key.listingId),
        keys.map((key) => key.accountId),
        clock.now(),
      ),
    keyId: (key) => `${key.accountId}/${key.listingId}`,
    rowKeyId: (row) => `${row.account_id}/${row.id}`,
    maxBatch: 100,
  });
  return {
    async list(actor, rawInput) {
      const input = parseInput(listListingsInputSchema, rawInput);
      let query = listingsOfAccount(db, actor.accountId, clock.now());
      if (input.enabled !== undefined) query = query.where('listings.enabled', '=', input.enabled);
      if (input.listingGroupId !== undefined) {
        const groupId = input.listingGroupId;
        query = query.where((eb) =>
          eb.exists(
            eb
              .selectFrom('listing_group_members')
              .whereRef('listing_group_members.listing_id', '=', 'listings.id')
              .where('listing_group_members.group_id', '=', groupId),
          ),
        );
      }
      if (input.query !== undefined) {
        const pattern = `%${input.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        query = query.where((eb) =>
          eb.or([
            eb('listings.name', 'ilike', pattern),
            eb('listings.nickname', 'ilike', pattern),
            eb('listings.city', 'ilike', pattern),
          ]),
        );
      }
      return pageByName(query, input, toListing);
    },

    async listAvailable(actor, rawInput) {
      const input = parseInput(listAvailableListingsInputSchema, rawInput);
      // A night shows as booked or blocked on the calendar exactly when a hold covers it (cancelled and
      // declined reservations hold none), so a listing is free when no hold overlaps the window. The account
      // condition, redundant with the listing's, lets the planner read just this account's holds overlapping
      // the window (index of migration 0019) instead of probing listing by listing.
      const query = listingsOfAccount(db, actor.accountId, clock.now()).where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('calendar_holds')
              .select('calendar_holds.id')
              .whereRef('calendar_holds.listing_id', '=', 'listings.id')
              .where('calendar_holds.account_id', '=', actor.accountId)
              .where(
                sql<boolean>`calendar_holds.nights && daterange(${input.startDate}::date, ${input.endDate}::date, '[)')`,
              ),
          ),
        ),
      );
      return pageByName(query, input, toListing);
    },

    async get(actor, listingId) {
      const row = await lookUpListing({ listingId, accountId: actor.accountId });
      if (!row) throw notFound('listing', listingId);
      return toListing(row);
    },

    async update(actor, rawInput) {
      assertCanWrite(actor);
      const input = parseInput(updateListingInputSchema, rawInput);
      return inTransaction(db, async (trx) => {
        const current = await trx
          .selectFrom('listings')
          .selectAll()
          .where('id', '=', input.listingId)
          .where('account_id', '=', actor.accountId)
          .forUpdate()
          .executeTakeFirst();
        if (!current) throw notFound('listing', input.listingId);
        const money = (amount: number | undefined) =>
          amount === undefined ? undefined : toMinorUnits(amount, current.currency);
        const changes = {
          name: input.name,
          nickname: input.nickname,
          base_price_minor: money(input.basePrice),
          min_price_minor: input.minPrice === null ? null : money(input.minPrice),
          cleaning_fee_minor: money(input.cleaningFee),
          extra_guest_fee_minor: money(input.extraGuestFee),
          guests_included: input.guestsIncluded,
          tax_rate_bp: input.taxRate === undefined ? undefined : Math.round(input.taxRate * 100),
          max_guests: input.maxGuests,
          min_nights: input.minNights,
          max_nights: input.maxNights,
          check_in_time: input.checkInTime,
          check_out_time: input.checkOutTime,
          weekly_discount_pct: input.weeklyDiscount,
          monthly_discount_pct: input.monthlyDiscount,
          enabled: input.enabled,
        };
        const minNights = changes.min_nights ?? current.min_nights;
        const maxNights = changes.max_nights ?? current.max_nights;
        if (minNights > maxNights) {
          throw new DomainError(
            'invalid_argument',
            `minNights (${minNights}) cannot exceed maxNights (${maxNights}).`,
            {
              details: { minNights, maxNights },
            },
          );
        }
        // In API form, so the event reports what changed in the units and names receivers read.
        const before = toListing(await findListingRowOrThrow(trx, actor, current.id, clock.now()));
        await trx
          .updateTable('listings')
          .set({ ...changes, updated_at: new Date() })
          .where('id', '=', current.id)
          .execute();
        const { listingId, ...changed } = input;
        await recordAudit(trx, actor, {
          action: 'listing.update',
          targetType: 'listing',
          targetId: listingId,
          details: { changed },
        });
        const after = toListing(await findListingRowOrThrow(trx, actor, listingId, clock.now()));
        const fieldChanges = listingFieldChanges(before, after, Object.keys(changed) as (keyof Listing)[]);
        // Setting a value it already had changes nothing a receiver could see.
        if (Object.keys(fieldChanges).length > 0) {
          await recordEvent(trx, {
            accountId: actor.accountId,
            event: 'listing.updated',
            data: { listingId, changes: fieldChanges },
          });
        }
        return after;
      });
    },

    async reissueCalendarExportUrl(actor, rawInput) {
      assertCanWrite(actor);
      const input = parseInput(reissueCalendarExportUrlInputSchema, rawInput);
      return inTransaction(db, async (trx) => {
        // The token's column default draws the new secret, so PostgreSQL alone ever makes one.
        const reissued = await trx
          .updateTable('listing_channel_links')
          .set({ calendar_export_token: sql<string>`default` })
          .where('listing_id', '=', input.listingId)
          .where('channel_account_id', '=', input.channelAccountId)
          .where((eb) =>
            eb.exists(
              eb
                .selectFrom('listings')
                .whereRef('listings.id', '=', 'listing_channel_links.listing_id')
                .where('listings.account_id', '=', actor.accountId),
            ),
          )
          .returning('listing_id')
          .executeTakeFirst();
        if (reissued === undefined) throw linkNotFound(input);
        await recordAudit(trx, actor, {
          action: 'listing.calendar_export_url.reissue',
          targetType: 'listing',
          targetId: input.listingId,
          details: { channelAccountId: input.channelAccountId },
        });
        return findLinkOrThrow(trx, actor, toListing, input, clock.now());
      });
    },

    async setCalendarImportUrl(actor, rawInput) {
      assertCanWrite(actor);
      const input = parseInput(setCalendarImportUrlInputSchema, rawInput);
      return inTransaction(db, async (trx) => {
        // The listing's lock first, in the order the poller takes it (listing, then link), since removing the
        // URL frees nights the way a calendar write does.
        const listing = await trx
          .selectFrom('listings')
          .select('time_zone')
          .where('id', '=', input.listingId)
          .where('account_id', '=', actor.accountId)
          .forNoKeyUpdate()
          .executeTakeFirst();
        if (listing === undefined) throw linkNotFound(input);
        // The listing is the account's (checked above), so its link is too.
        const current = await trx
          .selectFrom('listing_channel_links as link')
          .innerJoin('channel_accounts as channel_account', 'channel_account.id', 'link.channel_account_id')
          .select(['link.calendar_import_url', 'channel_account.channel'])
          .where('link.listing_id', '=', input.listingId)
          .where('link.channel_account_id', '=', input.channelAccountId)
          .forUpdate('link')
          .executeTakeFirst();
        if (current === undefined) throw linkNotFound(input);
        if (current.calendar_import_url !== input.url) {
          await trx
            .updateTable('listing_channel_links')
            .set({
              calendar_import_url: input.url,
              // A new URL is due at once and starts afresh; the stays held from the old one stay until its
              // first good poll says which nights are the channel's.
              import_status: input.url === null ? null : 'pending',
              import_etag: null,
              import_last_modified: null,
              import_last_success_at: null,
              import_last_error_at: null,
              import_last_error: null,
              import_next_poll_at: null,
              import_lease_until: null,
            })
            .where('listing_id', '=', input.listingId)
            .where('channel_account_id', '=', input.channelAccountId)
            .execute();
          if (input.url === null) {
            await releaseCalendarImport(trx, {
              accountId: actor.accountId,
              listingId: input.listingId,
              channelAccountId: input.channelAccountId,
              channel: current.channel as Channel,
              today: localDateIn(listing.time_zone, clock.now()),
            });
          }
          await recordAudit(trx, actor, {
            action: 'listing.calendar_import_url.set',
            targetType: 'listing',
            targetId: input.listingId,
            // The host only: a channel's calendar URL carries its secret token, and the audit log is read widely.
            details: {
              channelAccountId: input.channelAccountId,
              calendarHost: input.url === null ? null : new URL(input.url).host,
            },
          });
        }
        return findLinkOrThrow(trx, actor, toListing, input, clock.now());
      });
    },
  };
}

/** The `not_found` of a listing that is outside the account or not linked to the channel account. */
function linkNotFound(input: { readonly listingId: string; readonly channelAccountId: string }): DomainError {
  return new DomainError(
    'not_found',
    `Listing ${input.listingId} has no link to channel account ${input.channelAccountId} in this ` +
      'account; get_listing lists its channels.',
    { details: { kind: 'listing_channel_link', ...input } },
  );
}

/** The listing's link to the channel account as the API shows it; `not_found` otherwise. */
async function findLinkOrThrow(
  trx: Executor,
  actor: Actor,
  toListing: (row: ListingWithDetails) => Listing,
  { listingId, channelAccountId }: { readonly listingId: string; readonly channelAccountId: string },
  now: Date,
): Promise<ListingChannelLink> {
  const listing = toListing(await findListingRowOrThrow(trx, actor, listingId, now));
  const link = listing.channels.find((channel) => channel.channelAccountId === channelAccountId);
  if (link === undefined) throw linkNotFound({ listingId, channelAccountId });
  return link;
}

/** The `fields` whose values differ between `before` and `after`, each with both values. */
function listingFieldChanges(
  before: Listing,
  after: Listing,
  fields: readonly (keyof Listing)[],
): Record<string, { from: unknown; to: unknown }> {
  return Object.fromEntries(
    fields.flatMap((field) =>
      before[field] === after[field] ? [] : [[field, { from: before[field], to: after[field] }]],
    ),
  );
}

/** The account's listings with their groups and channel links, before any filter, order or paging. */
function listingsOfAccount(db: Executor, accountId: string, now: Date) {
  return db
    .selectFrom('listings')
    .selectAll('listings')
    .select((eb) => listingDetails(eb, now))
    .where('listings.account_id', '=', accountId);
}

/**
 * One page of the listings `query` selects, by name then id, after `cursor`: the order and cursor form every
 * list of listings shares, so a cursor of one continues the other.
 */
async function pageByName(
  query: ReturnType<typeof listingsOfAccount>,
  page: { readonly limit: number; readonly cursor?: string | undefined },
  toListing: (row: ListingWithDetails) => Listing,
): Promise<Page<Listing>> {
  let paged = query;
  if (page.cursor !== undefined) {
    const [name, id] = decodeCursor(page.cursor, 2);
    paged = paged.where((eb) =>
      eb(eb.refTuple('listings.name', 'listings.id'), '>', eb.tuple(String(name), String(id))),
    );
  }
  const rows = await paged
    .orderBy('listings.name')
    .orderBy('listings.id')
    .limit(page.limit + 1)
    .execute();
  return toPage(rows, page.limit, toListing, (row) => [row.name, row.id]);
}

/**
 * Throws one `not_found` naming every id in `listingIds` that is not a listing of the account, so rules
 * and groups can never point at another account's listings.
 */
export async function assertListingsInAccount(
  db: Executor,
  accountId: string,
  listingIds: readonly string[],
): Promise<void> {
  if (listingIds.length === 0) return;
  const found = await db
    .selectFrom('listings')
    .select('id')
    .where('account_id', '=', accountId)
    .where('id', 'in', listingIds)
    .execute();
  const known = new Set(found.map((row) => row.id));
  const missing = listingIds.filter((id) => !known.has(id));
  if (missing.length > 0) {
    throw new DomainError(
      'not_found',
      `No listing with id ${missing.join(', ')} in this account; list_listings shows the valid ids.`,
      { details: { kind: 'listing', ids: missing } },
    );
  }
}

/** One listing row of the actor's account, with its groups and channel links; `not_found` otherwise. */
async function findListingRowOrThrow(
  db: Executor,
  actor: Actor,
  listingId: string,
  now: Date,
): Promise<ListingWithDetails> {
  const [row] = await selectListing(db, listingId, actor.accountId, now);
  if (!row) throw notFound('listing', listingId);
  return row;
}

/** Which listing of which account a lookup wants. */
interface ListingKey {
  readonly listingId: string;
  readonly accountId: string;
}

// The hottest queries of /mcp: building and compiling them with Kysely cost the server more CPU than
// PostgreSQL spends running them, and their SQL never changes, only the values.
const selectListing = compiledOnce((db: Executor, listingId: string, accountId: string, now: Date) =>
  db
    .selectFrom('listings')
    .selectAll('listings')
    .select((eb) => listingDetails(eb, now))
    .where('listings.id', '=', listingId)
    .where('listings.account_id', '=', accountId),
);

/** The listings named by pairs of (listing id, account id) at the same index; a pair that matches none is skipped. */
const selectListings = compiledOnce((db: Executor, listingIds: string[], accountIds: string[], now: Date) =>
  db
    .selectFrom('listings')
    .selectAll('listings')
    .select((eb) => listingDetails(eb, now))
    .where(
      sql<boolean>`(listings.id, listings.account_id) in (
        select * from unnest(${listingIds}::text[], ${accountIds}::text[]))`,
    ),
);

/**
 * Runs the query `build` makes with Kysely, compiling it only on the first call: later calls send the same
 * SQL with their own values. `build` must make the same query whatever its arguments are (no branching on
 * them, no reading inside them), and pass each one through whole as a parameter.
 */
function compiledOnce<A extends unknown[], Row>(
  build: (db: Executor, ...args: A) => { compile(): CompiledQuery<Row> },
): (db: Executor, ...args: A) => Promise<Row[]> {
  // Each compiled parameter: the index of the argument it stands for, or -1 for a value of the query's own.
  let compiled: { sql: string; parameters: readonly unknown[]; argumentAt: number[] } | undefined;
  return async (db, ...args) => {
    if (compiled === undefined) {
      // Stand-ins no caller can pass, found again among the compiled parameters by identity.
      const markers: unknown[] = args.map((_, index) => ({ compiledOnceArgument: index }));
      const query = build(db, ...(markers as A)).compile();
      compiled = {
        sql: query.sql,
        parameters: query.parameters,
        argumentAt: query.parameters.map((parameter) => markers.indexOf(parameter)),
      };
    }
    const { parameters, argumentAt } = compiled;
    const values = argumentAt.map((index, position) => (index === -1 ? parameters[position] : args[index]));
    const { rows } = await db.executeQuery<Row>(CompiledQuery.raw(compiled.sql, values));
    return rows;
  };
}

/** A channel link as {@link listingDetails} selects it: the export's token, not yet its URL. */
type ChannelLinkDetails = Omit<ListingChannelLink, 'calendarExportUrl'> & {
  readonly calendarExportToken: string;
};

/** A listing row with its group ids and channel links, as {@link listingDetails} selects them. */
type ListingWithDetails = ListingRow & {
  readonly listing_group_ids: string[];
  readonly channel_links: ChannelLinkDetails[];
};

/**
 * A listing's group ids and channel links as JSON arrays beside its columns, so one query (one round trip)
 * reads a listing or a page of listings whole. Groups by id; links by channel, then channel account. `now`
 * tells the link's imported stays still to come from those that have ended.
 */
function listingDetails(eb: ExpressionBuilder<Database, 'listings'>, now: Date) {
  return [
    eb
      .selectFrom('listing_group_members as member')
      .select(
        sql<string[]>`coalesce(json_agg(member.group_id order by member.group_id), '[]'::json)`.as('ids'),
      )
      .whereRef('member.listing_id', '=', 'listings.id')
      .$asScalar()
      .$notNull()
      .as('listing_group_ids'),
    eb
      .selectFrom('listing_channel_links as link')
      .innerJoin('channel_accounts as channel_account', 'channel_account.id', 'link.channel_account_id')
      .select(
        // The schema's check constraint allows only the known channels.
        sql<ChannelLinkDetails[]>`coalesce(json_agg(json_build_object(
          'channel', channel_account.channel,
          'channelAccountId', link.channel_account_id,
          'externalListingId', link.external_listing_id,
          'url', link.url,
          'calendarExportToken', link.calendar_export_token,
          'calendarImport', ${calendarImportOfLink(now)}
        ) order by channel_account.channel, link.channel_account_id), '[]'::json)`.as('links'),
      )
      .whereRef('link.listing_id', '=', 'listings.id')
      .$asScalar()
      .$notNull()
      .as('channel_links'),
  ] as const;
}

/** Formats a `timestamptz` as the API's UTC ISO 8601, whatever the session's time zone. */
const isoUtc = (column: string) =>
  sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/**
 * A link's calendar import as JSON, null without a URL: its state, how many of its feed's stays are held and
 * not yet ended (by the listing's today at `now`), and its open conflicts by first night. Subqueries of the
 * link's row, so a page of listings stays one query.
 */
const calendarImportOfLink = (
  now: Date,
) => sql`case when link.calendar_import_url is null then null else json_build_object(
  'url', link.calendar_import_url,
  'status', link.import_status,
  'lastSuccessAt', ${isoUtc('link.import_last_success_at')},
  'lastErrorAt', ${isoUtc('link.import_last_error_at')},
  'lastError', link.import_last_error,
  'heldStays', (
    select count(*) from calendar_holds as held
    where held.listing_id = link.listing_id and held.channel_account_id = link.channel_account_id
      and upper(held.nights) > (${now}::timestamptz at time zone listings.time_zone)::date),
  'conflicts', (
    select coalesce(json_agg(json_build_object(
      'eventUid', conflict.event_uid,
      'startDate', to_char(conflict.start_date, 'YYYY-MM-DD'),
      'endDate', to_char(conflict.end_date, 'YYYY-MM-DD'),
      'summary', conflict.summary,
      'clashes', conflict.clashes,
      'since', ${isoUtc('conflict.first_seen_at')}
    ) order by conflict.start_date, conflict.event_uid), '[]'::json)
    from calendar_import_conflicts as conflict
    where conflict.listing_id = link.listing_id and conflict.channel_account_id = link.channel_account_id)
) end`;

/** The listing of `row`, its calendar export URLs starting with `publicBaseUrl`. */
function listingOfRow(row: ListingWithDetails, publicBaseUrl: string | undefined): Listing {
  const money = (minor: number) => toMajorUnits(minor, row.currency);
  return {
    id: row.id,
    name: row.name,
    nickname: row.nickname,
    propertyType: row.property_type,
    address: row.address,
    city: row.city,
    region: row.region,
    countryCode: row.country_code,
    postalCode: row.postal_code,
    latitude: row.latitude === null ? null : Number(row.latitude),
    longitude: row.longitude === null ? null : Number(row.longitude),
    timeZone: row.time_zone,
    currency: row.currency,
    bedrooms: row.bedrooms,
    bathrooms: Number(row.bathrooms),
    maxGuests: row.max_guests,
    basePrice: money(row.base_price_minor),
    minPrice: row.min_price_minor === null ? null : money(row.min_price_minor),
    cleaningFee: money(row.cleaning_fee_minor),
    extraGuestFee: money(row.extra_guest_fee_minor),
    guestsIncluded: row.guests_included,
    taxRate: row.tax_rate_bp / 100,
    minNights: row.min_nights,
    maxNights: row.max_nights,
    checkInTime: row.check_in_time,
    checkOutTime: row.check_out_time,
    weeklyDiscount: Number(row.weekly_discount_pct),
    monthlyDiscount: Number(row.monthly_discount_pct),
    enabled: row.enabled,
    listingGroupIds: row.listing_group_ids,
    channels: row.channel_links.map(({ calendarExportToken, ...link }) => ({
      ...link,
      calendarExportUrl: calendarExportUrl(publicBaseUrl, calendarExportToken),
    })),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
