import { type Actor, assertCanWrite } from '../../core/actor.ts';
import { DomainError, notFound } from '../../core/errors.ts';
import { parseInput } from '../../core/input.ts';
import { toMajorUnits, toMinorUnits } from '../../core/money.ts';
import { decodeCursor, toPage } from '../../core/paging.ts';
import {
  type Channel,
  type Listing,
  type ListingUseCases,
  listListingsInputSchema,
  updateListingInputSchema,
} from '../../listings/listings.ts';
import type { Executor, ListingRow } from '../database.ts';
import type { StoreDeps } from '../store-deps.ts';
import { inTransaction, recordAudit } from '../transaction.ts';

/** Listing use cases over PostgreSQL. */
export function createListingUseCases({ db }: StoreDeps): ListingUseCases {
  return {
    async list(actor, rawInput) {
      const input = parseInput(listListingsInputSchema, rawInput);
      let query = db
        .selectFrom('listings')
        .selectAll('listings')
        .where('listings.account_id', '=', actor.accountId);
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
      if (input.cursor !== undefined) {
        const [name, id] = decodeCursor(input.cursor, 2);
        query = query.where((eb) =>
          eb(eb.refTuple('listings.name', 'listings.id'), '>', eb.tuple(String(name), String(id))),
        );
      }
      const rows = await query
        .orderBy('listings.name')
        .orderBy('listings.id')
        .limit(input.limit + 1)
        .execute();
      const details = await loadListingDetails(
        db,
        rows.slice(0, input.limit).map((row) => row.id),
      );
      return toPage(
        rows,
        input.limit,
        (row) => toListing(row, details),
        (row) => [row.name, row.id],
      );
    },

    async get(actor, listingId) {
      return findListingOrThrow(db, actor, listingId);
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
        return findListingOrThrow(trx, actor, listingId);
      });
    },
  };
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

/** One listing of the actor's account, with its groups and channel links; `not_found` otherwise. */
export async function findListingOrThrow(db: Executor, actor: Actor, listingId: string): Promise<Listing> {
  const row = await db
    .selectFrom('listings')
    .selectAll()
    .where('id', '=', listingId)
    .where('account_id', '=', actor.accountId)
    .executeTakeFirst();
  if (!row) throw notFound('listing', listingId);
  return toListing(row, await loadListingDetails(db, [row.id]));
}

interface ListingDetails {
  groups: Map<string, string[]>;
  links: Map<string, Listing['channels']>;
}

async function loadListingDetails(db: Executor, listingIds: readonly string[]): Promise<ListingDetails> {
  const details: ListingDetails = { groups: new Map(), links: new Map() };
  if (listingIds.length === 0) return details;
  // Sequential on purpose: `db` may be a transaction, whose single connection runs one query at a time.
  const groups = await db
    .selectFrom('listing_group_members')
    .select(['listing_id', 'group_id'])
    .where('listing_id', 'in', listingIds)
    .orderBy('group_id')
    .execute();
  const links = await db
    .selectFrom('listing_channel_links')
    .innerJoin('channel_accounts', 'channel_accounts.id', 'listing_channel_links.channel_account_id')
    .select([
      'listing_channel_links.listing_id',
      'channel_accounts.channel',
      'listing_channel_links.channel_account_id',
      'listing_channel_links.external_listing_id',
      'listing_channel_links.url',
    ])
    .where('listing_channel_links.listing_id', 'in', listingIds)
    .orderBy('channel_accounts.channel')
    .execute();
  for (const { listing_id, group_id } of groups) {
    details.groups.set(listing_id, [...(details.groups.get(listing_id) ?? []), group_id]);
  }
  for (const link of links) {
    details.links.set(link.listing_id, [
      ...(details.links.get(link.listing_id) ?? []),
      {
        channel: link.channel as Channel,
        channelAccountId: link.channel_account_id,
        externalListingId: link.external_listing_id,
        url: link.url,
      },
    ]);
  }
  return details;
}

function toListing(row: ListingRow, details: ListingDetails): Listing {
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
    listingGroupIds: details.groups.get(row.id) ?? [],
    channels: details.links.get(row.id) ?? [],
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
