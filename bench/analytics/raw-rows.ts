import type { Database } from '@innkeep/storage';
import type { Kysely } from 'kysely';
import type { NightRange } from './local-dates.ts';

// The baselines' data access: what a server wrapping a REST API gets from it — rows filtered by account and
// date range, nothing summed, counted or grouped by the database. Plain SELECTs through the benchmark's own
// pool, one per resource, unpaged (kinder to the baseline than the pages a real API hands out).

type Db = Kysely<Database>;

/** A listing as the baselines need it. */
export interface ListingRow {
  readonly id: string;
  readonly name: string;
  readonly time_zone: string;
  readonly currency: string;
  readonly base_price_minor: number;
  readonly min_nights: number;
  readonly enabled: boolean;
  readonly created_at: Date;
}

/** Every listing of the account. */
export function fetchListings(db: Db, accountId: string): Promise<ListingRow[]> {
  return db
    .selectFrom('listings')
    .select([
      'id',
      'name',
      'time_zone',
      'currency',
      'base_price_minor',
      'min_nights',
      'enabled',
      'created_at',
    ])
    .where('account_id', '=', accountId)
    .execute();
}

/** A reservation, every status. */
export interface ReservationRow {
  readonly id: string;
  readonly listing_id: string;
  readonly channel: string;
  readonly status: string;
  readonly cancelled_by: string | null;
  readonly start_date: string;
  readonly end_date: string;
  readonly nights: number;
  readonly currency: string;
  readonly accommodation_minor: number;
  readonly host_payout_minor: number;
  readonly adults: number;
  readonly children: number;
  readonly created_at: Date;
  readonly confirmed_at: Date | null;
  readonly cancelled_at: Date | null;
}

/**
 * Reservations of every status that touch the dates `range` (a night, the check-in or the check-out day in
 * it), like `GET /reservations?startDate=…&endDate=…`.
 */
export function fetchReservations(db: Db, accountId: string, range: NightRange): Promise<ReservationRow[]> {
  return db
    .selectFrom('reservations')
    .select([
      'id',
      'listing_id',
      'channel',
      'status',
      'cancelled_by',
      'start_date',
      'end_date',
      'nights',
      'currency',
      'accommodation_minor',
      'host_payout_minor',
      'adults',
      'children',
      'created_at',
      'confirmed_at',
      'cancelled_at',
    ])
    .where('account_id', '=', accountId)
    .where('start_date', '<=', range.endDate)
    .where('end_date', '>=', range.startDate)
    .execute();
}

/** One night's rent of a reservation. */
export interface NightlyRateRow {
  readonly reservation_id: string;
  readonly night: string;
  readonly accommodation_minor: number;
}

/** The nightly rates of the account's reservations for nights in `range` (the `nights` array of each). */
export function fetchNightlyRates(db: Db, accountId: string, range: NightRange): Promise<NightlyRateRow[]> {
  return db
    .selectFrom('reservation_nights as n')
    .innerJoin('reservations as r', 'r.id', 'n.reservation_id')
    .select(['n.reservation_id', 'n.night', 'n.accommodation_minor'])
    .where('r.account_id', '=', accountId)
    .where('n.night', '>=', range.startDate)
    .where('n.night', '<=', range.endDate)
    .execute();
}

/** One money line of a reservation. */
export interface LineItemRow {
  readonly reservation_id: string;
  readonly type: string;
  readonly amount_minor: number;
}

/** The money lines of the reservations {@link fetchReservations} returns for the same range. */
export function fetchLineItems(db: Db, accountId: string, range: NightRange): Promise<LineItemRow[]> {
  return db
    .selectFrom('reservation_line_items as li')
    .innerJoin('reservations as r', 'r.id', 'li.reservation_id')
    .select(['li.reservation_id', 'li.type', 'li.amount_minor'])
    .where('r.account_id', '=', accountId)
    .where('r.start_date', '<=', range.endDate)
    .where('r.end_date', '>=', range.startDate)
    .execute();
}

/** A calendar hold: a reservation's nights or a block, `[start, end)`. */
export interface HoldRow {
  readonly listing_id: string;
  readonly kind: string;
  readonly block_reason: string | null;
  readonly reservation_id: string | null;
  readonly start: string;
  readonly end: string;
}

/** Calendar holds (reservations and blocks) overlapping `range`. */
export async function fetchHolds(db: Db, accountId: string, range: NightRange): Promise<HoldRow[]> {
  const rows = await db
    .selectFrom('calendar_holds')
    .select(['listing_id', 'kind', 'block_reason', 'reservation_id', 'nights'])
    .where('account_id', '=', accountId)
    .where((eb) =>
      eb(
        'nights',
        '&&',
        eb.fn<string>('daterange', [eb.val(range.startDate), eb.val(range.endDate), eb.val('[]')]),
      ),
    )
    .execute();
  return rows.map((row) => {
    // A daterange arrives as text, '[2026-01-03,2026-01-07)': lower included, upper excluded.
    const [start = '', end = ''] = String(row.nights).slice(1, -1).split(',');
    return {
      listing_id: row.listing_id,
      kind: row.kind,
      block_reason: row.block_reason,
      reservation_id: row.reservation_id,
      start,
      end,
    };
  });
}

/** A per-date calendar setting. */
export interface CalendarDayRow {
  readonly listing_id: string;
  readonly date: string;
  readonly price_minor: number | null;
  readonly min_nights: number | null;
}

/** The account's per-date calendar settings in `range`. */
export function fetchCalendarDays(db: Db, accountId: string, range: NightRange): Promise<CalendarDayRow[]> {
  return db
    .selectFrom('calendar_days as d')
    .innerJoin('listings as l', 'l.id', 'd.listing_id')
    .select(['d.listing_id', 'd.date', 'd.price_minor', 'd.min_nights'])
    .where('l.account_id', '=', accountId)
    .where('d.date', '>=', range.startDate)
    .where('d.date', '<=', range.endDate)
    .execute();
}

/** A snapshot of a reservation right after one change. */
export interface ReservationChangeRow {
  readonly reservation_id: string;
  readonly changed_at: Date;
  readonly status: string;
  readonly start_date: string;
  readonly end_date: string;
  readonly accommodation_minor: number;
  readonly currency: string;
}

/**
 * The whole change history of every reservation that had nights in `range` at some point (a later move out of
 * the range must be seen too), like fetching `/reservations/{id}/changes` for each.
 */
export function fetchReservationChanges(
  db: Db,
  accountId: string,
  range: NightRange,
): Promise<ReservationChangeRow[]> {
  return db
    .selectFrom('reservation_changes')
    .select([
      'reservation_id',
      'changed_at',
      'status',
      'start_date',
      'end_date',
      'accommodation_minor',
      'currency',
    ])
    .where('account_id', '=', accountId)
    .where('reservation_id', 'in', (eb) =>
      eb
        .selectFrom('reservation_changes')
        .select('reservation_id')
        .where('account_id', '=', accountId)
        .where('start_date', '<=', range.endDate)
        .where('end_date', '>', range.startDate),
    )
    .execute();
}

/** A message of a reservation's thread. */
export interface MessageRow {
  readonly id: string;
  readonly reservation_id: string;
  readonly sender: string;
  readonly sent_at: Date;
  readonly delivery_status: string;
}

/**
 * The whole threads (every message, whenever sent) of the reservations with a message sent in `[from, to)`,
 * like listing the conversations active in a window and then reading each one.
 */
export function fetchThreads(db: Db, accountId: string, from: Date, to: Date): Promise<MessageRow[]> {
  return db
    .selectFrom('messages')
    .select(['id', 'reservation_id', 'sender', 'sent_at', 'delivery_status'])
    .where('account_id', '=', accountId)
    .where('reservation_id', 'in', (eb) =>
      eb
        .selectFrom('messages')
        .select('reservation_id')
        .where('account_id', '=', accountId)
        .where('sent_at', '>=', from)
        .where('sent_at', '<', to),
    )
    .execute();
}

/** The reservations (any status) of the threads {@link fetchThreads} returns for the same window. */
export function fetchThreadReservations(
  db: Db,
  accountId: string,
  from: Date,
  to: Date,
): Promise<{ id: string; listing_id: string; channel: string; confirmed_at: Date | null }[]> {
  return db
    .selectFrom('reservations')
    .select(['id', 'listing_id', 'channel', 'confirmed_at'])
    .where('account_id', '=', accountId)
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('messages')
        .select('reservation_id')
        .where('account_id', '=', accountId)
        .where('sent_at', '>=', from)
        .where('sent_at', '<', to),
    )
    .execute();
}

/** A guest review. */
export interface ReviewRow {
  readonly id: string;
  readonly listing_id: string;
  readonly reservation_id: string | null;
  readonly channel: string;
  readonly overall_rating: number;
  readonly cleanliness_rating: number | null;
  readonly accuracy_rating: number | null;
  readonly check_in_rating: number | null;
  readonly communication_rating: number | null;
  readonly location_rating: number | null;
  readonly value_rating: number | null;
  readonly host_response: string | null;
  readonly responded_at: Date | null;
  readonly submitted_at: Date;
}

/** The account's reviews submitted in `[from, to)`. */
export function fetchReviews(db: Db, accountId: string, from: Date, to: Date | null): Promise<ReviewRow[]> {
  return db
    .selectFrom('reviews')
    .select([
      'id',
      'listing_id',
      'reservation_id',
      'channel',
      'overall_rating',
      'cleanliness_rating',
      'accuracy_rating',
      'check_in_rating',
      'communication_rating',
      'location_rating',
      'value_rating',
      'host_response',
      'responded_at',
      'submitted_at',
    ])
    .where('account_id', '=', accountId)
    .where('submitted_at', '>=', from)
    .$if(to !== null, (query) => query.where('submitted_at', '<', to ?? from))
    .execute();
}

/** The account's listing groups and their members. */
export interface ListingGroupRows {
  readonly groups: readonly { readonly id: string; readonly name: string }[];
  readonly members: readonly { readonly group_id: string; readonly listing_id: string }[];
}

/** The account's listing groups and their members (member ids only, as a group resource lists them). */
export async function fetchListingGroups(db: Db, accountId: string): Promise<ListingGroupRows> {
  const groups = await db
    .selectFrom('listing_groups')
    .select(['id', 'name'])
    .where('account_id', '=', accountId)
    .execute();
  const members = await db
    .selectFrom('listing_group_members as m')
    .innerJoin('listing_groups as g', 'g.id', 'm.group_id')
    .select(['m.group_id', 'm.listing_id'])
    .where('g.account_id', '=', accountId)
    .execute();
  return { groups, members };
}

/** The account's own time zone (pace reads the books at the end of a day there). */
export async function fetchAccountTimeZone(db: Db, accountId: string): Promise<string> {
  const row = await db
    .selectFrom('accounts')
    .select('time_zone')
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  return row.time_zone;
}
