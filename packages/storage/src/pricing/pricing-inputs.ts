import type { BlockReason, CalendarHold, Channel, HoldKind, PricingRule } from '@innkeep/domain';
import { addDays, holdLookaround, type LocalDate, notFound, type PricingInputs } from '@innkeep/domain';
import { type Selectable, sql } from 'kysely';
import type { CalendarDaysTable, Executor, ListingRow, PricingRulesTable } from '../database.ts';

/** A stored per-date override row. */
export type CalendarDayRow = Selectable<CalendarDaysTable>;

/** Everything loaded to price and describe a listing's dates, read once per request. */
export interface LoadedPricing {
  /** What the pure engine needs. */
  readonly inputs: PricingInputs;
  /** Per-date overrides in the loaded range, by date. */
  readonly days: ReadonlyMap<LocalDate, CalendarDayRow>;
  /** Per-channel prices in the loaded range, in minor units, by date. */
  readonly channelPrices: ReadonlyMap<LocalDate, Partial<Record<Channel, number>>>;
  /** Holds overlapping the range and the orphan-gap look-around, sorted by start. */
  readonly holds: readonly CalendarHold[];
  /** The name of each loaded rule, by id, to say which rule changed a price. */
  readonly ruleNames: ReadonlyMap<string, string>;
}

/**
 * One listing row of the account; `not_found` otherwise. With `forUpdate` the row stays locked until the
 * transaction ends, which serializes calendar writes to the listing.
 */
export async function findListingRowOrThrow(
  db: Executor,
  accountId: string,
  listingId: string,
  options: { forUpdate?: boolean } = {},
): Promise<ListingRow> {
  const query = db
    .selectFrom('listings')
    .selectAll()
    .where('id', '=', listingId)
    .where('account_id', '=', accountId);
  const row = await (options.forUpdate ? query.forUpdate() : query).executeTakeFirst();
  if (!row) throw notFound('listing', listingId);
  return row;
}

/**
 * Loads rules, overrides, channel prices and holds for the dates `from` up to (not including) `to`.
 * Holds are read further out on both sides, as far as the listing's orphan-gap rules need to see.
 * Queries run one after another because `db` may be a transaction's single connection.
 */
export async function loadPricing(
  db: Executor,
  listing: ListingRow,
  now: Date,
  range: { readonly from: LocalDate; readonly to: LocalDate },
  options: { readonly ignoreReservationId?: string | undefined } = {},
): Promise<LoadedPricing> {
  const ruleRows = await db
    .selectFrom('pricing_rules')
    .selectAll()
    .where('account_id', '=', listing.account_id)
    .where('enabled', '=', true)
    .where((eb) =>
      eb.or([eb('listing_ids', 'is', null), eb(eb.val(listing.id), '=', eb.fn.any('listing_ids'))]),
    )
    .orderBy('position')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const rules = ruleRows.map(toPricingRule);
  const margin = holdLookaround(rules, listing.id);

  const dayRows = await db
    .selectFrom('calendar_days')
    .selectAll()
    .where('listing_id', '=', listing.id)
    .where('date', '>=', range.from)
    .where('date', '<', range.to)
    .execute();
  const channelRows = await db
    .selectFrom('calendar_channel_prices')
    .select(['date', 'channel', 'price_minor'])
    .where('listing_id', '=', listing.id)
    .where('date', '>=', range.from)
    .where('date', '<', range.to)
    .execute();
  const holds = await loadHolds(
    db,
    listing,
    addDays(range.from, -margin),
    addDays(range.to, margin),
    options,
  );

  const days = new Map(dayRows.map((row) => [row.date, row]));
  const channelPrices = new Map<LocalDate, Partial<Record<Channel, number>>>();
  for (const row of channelRows) {
    channelPrices.set(row.date, { ...channelPrices.get(row.date), [row.channel]: row.price_minor });
  }
  const priceOverrides = new Map<LocalDate, number>();
  for (const row of dayRows) if (row.price_minor !== null) priceOverrides.set(row.date, row.price_minor);

  return {
    inputs: {
      listingId: listing.id,
      currency: listing.currency,
      timeZone: listing.time_zone,
      basePriceMinor: listing.base_price_minor,
      minPriceMinor: listing.min_price_minor,
      rules,
      priceOverrides,
      holds,
      now,
    },
    days,
    channelPrices,
    holds,
    ruleNames: new Map(rules.map((rule) => [rule.id, rule.name])),
  };
}

/**
 * The reservation and block holds of a listing that take any night from `from` up to (not including)
 * `to`, sorted by start, with the guest's name for reservations.
 */
export async function loadHolds(
  db: Executor,
  listing: Pick<ListingRow, 'account_id' | 'id'>,
  from: LocalDate,
  to: LocalDate,
  options: { readonly ignoreReservationId?: string | undefined } = {},
): Promise<CalendarHold[]> {
  let query = db
    .selectFrom('calendar_holds')
    .leftJoin('reservations', 'reservations.id', 'calendar_holds.reservation_id')
    .select([
      'calendar_holds.id',
      'calendar_holds.kind',
      'calendar_holds.reservation_id',
      'calendar_holds.block_reason',
      'calendar_holds.note',
      'reservations.guest_first_name',
      'reservations.guest_last_name',
      sql<string>`lower(calendar_holds.nights)`.as('start_date'),
      sql<string>`upper(calendar_holds.nights)`.as('end_date'),
    ])
    .where('calendar_holds.account_id', '=', listing.account_id)
    .where('calendar_holds.listing_id', '=', listing.id)
    .where(sql<boolean>`calendar_holds.nights && daterange(${from}::date, ${to}::date, '[)')`);
  const ignored = options.ignoreReservationId;
  if (ignored !== undefined) {
    query = query.where((eb) =>
      eb.or([
        eb('calendar_holds.reservation_id', 'is', null),
        eb('calendar_holds.reservation_id', '!=', ignored),
      ]),
    );
  }
  const rows = await query.orderBy(sql`lower(calendar_holds.nights)`).execute();
  return rows.map((row) => ({
    id: row.id,
    startDate: row.start_date,
    endDate: row.end_date,
    kind: row.kind as HoldKind,
    reservationId: row.reservation_id,
    blockReason: row.block_reason as BlockReason | null,
    note: row.note,
    guestName:
      row.guest_first_name === null ? null : `${row.guest_first_name} ${row.guest_last_name ?? ''}`.trim(),
  }));
}

/** The hold that takes `date`, if any; `holds` sorted by start. */
export function holdOn(holds: readonly CalendarHold[], date: LocalDate): CalendarHold | undefined {
  return holds.find((hold) => hold.startDate <= date && date < hold.endDate);
}

/** Maps a stored pricing rule to the shape every route returns (and the engine reads). */
export function toPricingRule(row: Selectable<PricingRulesTable>): PricingRule {
  const amount = Number(row.adjustment_amount);
  return {
    id: row.id,
    name: row.name,
    position: row.position,
    enabled: row.enabled,
    listingIds: row.listing_ids,
    adjustment: row.adjustment_kind === 'percent' ? { kind: 'percent', amount } : { kind: 'fixed', amount },
    daysOfWeek: row.days_of_week === null ? null : row.days_of_week.map(Number),
    startDate: row.start_date,
    endDate: row.end_date,
    lastMinuteDays: row.last_minute_days,
    orphanGapMaxNights: row.orphan_gap_max_nights,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
