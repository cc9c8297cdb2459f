import type { Actor, Channel } from '@innkeep/domain';
import {
  addDays,
  areLocalDates,
  DomainError,
  decodeCursor,
  localDateIn,
  toMajorUnits,
  toPage,
} from '@innkeep/domain';
import type { UpcomingReservations, upcomingReservationsInputSchema } from '@innkeep/domain/analytics';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Executor } from '../database.ts';
import {
  type AnalyticsScope,
  analyticsMeta,
  channelInScope,
  listingInScope,
  resolveAnalyticsScope,
} from './analytics-scope.ts';

type UpcomingInput = z.output<typeof upcomingReservationsInputSchema>;

/**
 * One row per reservation of the page, or one row of nulls but the first four when the page is empty: the
 * statement always returns the account's zone, the scope's listing count and the totals.
 */
interface UpcomingRow {
  account_time_zone: string | null;
  listing_count: number;
  in_house_total: number;
  arrivals_total: number;
  id: string | null;
  listing_id: string;
  listing_name: string;
  guest_first_name: string;
  start_date: string;
  end_date: string;
  nights: number;
  guests: number;
  channel: Channel;
  currency: string;
  accommodation_minor: number;
  guest_price_minor: number;
  host_payout_minor: number;
  days_until: number;
  in_house: boolean;
}

/**
 * get_upcoming_reservations: guests in house now (accepted stays that began before the listing's today and
 * end after it) and accepted stays arriving from the listing's today to `withinDays` ahead, by check-in date,
 * a page at a time. Accepted stays of one listing never share a check-in date (the calendar forbids overlaps),
 * so (check-in, listing) orders them and makes the cursor.
 *
 * One statement, outside any transaction: a few thousand index entries need none of the year-long analytics
 * settings, and the account's today, the listing count and the totals come with the page rather than in
 * round trips of their own. Only listing or group filters are resolved first (they may be unknown ids).
 */
export async function upcomingReservations(
  db: Executor,
  actor: Actor,
  input: UpcomingInput,
  now: Date,
): Promise<UpcomingReservations> {
  const after = input.cursor === undefined ? null : decodeCursor(input.cursor, 2).map(String);
  if (after !== null && !areLocalDates(after[0])) {
    throw new DomainError(
      'invalid_argument',
      'The cursor is not one this list produced; start again without it.',
    );
  }
  const filtered = input.listingIds !== undefined || input.listingGroupId !== undefined;
  const scope: AnalyticsScope = filtered
    ? await resolveAnalyticsScope(db, actor, input)
    : {
        accountId: actor.accountId,
        listingIds: null,
        listingGroupId: null,
        channel: input.channel ?? null,
        // Counted by the statement below (the `listing_count` it returns).
        listingCount: 0,
      };
  const withinDays = input.withinDays;
  // The stays the tool may count: in house or arriving for some listing's today, i.e. checking in from the
  // account's longest stay before the earliest today (one probe of reservations_account_nights) to
  // `withinDays` after the latest, and still there after the earliest. Read in check-in order, so the page
  // (its own pass) stops after its rows, while the totals read them all.
  const staysAround = sql`
    r.account_id = ${scope.accountId}
    and r.status = 'accepted'
    and r.start_date between (select earliest - longest from bounds) and (select latest + ${withinDays}::integer from bounds)
    and r.start_date + r.nights > (select earliest from bounds)
    and ${listingInScope(scope, 'r.listing_id')}
    and ${channelInScope(scope, 'r.channel')}`;
  const { rows } = await sql<UpcomingRow>`
    with zones as materialized (
      -- The listings in scope by time zone: today is converted once a zone, not once a listing.
      select l.time_zone, count(*) as listings, (${now.toISOString()}::timestamptz at time zone l.time_zone)::date as today
      from listings l
      where l.account_id = ${scope.accountId} and ${listingInScope(scope, 'l.id')}
      group by l.time_zone
    ),
    bounds as materialized (
      select coalesce(sum(z.listings), 0)::integer as listing_count, min(z.today) as earliest,
        max(z.today) as latest,
        (select coalesce(max(n.nights), 0) from reservations n where n.account_id = ${scope.accountId}) as longest,
        (select a.time_zone from accounts a where a.id = ${scope.accountId}) as account_time_zone
      from zones z
    ),
    later_listings as materialized (
      -- The listings whose today is after the earliest: none when every listing shares one date.
      select l.id, z.today
      from zones z
      join listings l on l.account_id = ${scope.accountId} and l.time_zone = z.time_zone
      where z.today > (select earliest from bounds)
    ),
    totals as (
      select coalesce(sum(in_house), 0) as in_house_total, coalesce(sum(arrivals), 0) as arrivals_total
      from (
        -- Every listing in scope on one date (the usual case): that date bounds the rows, and each row is one
        -- comparison. The branch not taken is skipped whole (its filter is evaluated once).
        select count(*) filter (where r.start_date < (select earliest from bounds)) as in_house,
          count(*) filter (where r.start_date >= (select earliest from bounds)) as arrivals
        from reservations r
        where (select earliest = latest from bounds)
          and ${staysAround}
        union all
        select count(*) filter (where s.start_date < s.today), count(*) filter (where s.start_date >= s.today)
        from (
          select r.start_date, r.nights, coalesce(ll.today, (select earliest from bounds)) as today
          from reservations r
          left join later_listings ll on ll.id = r.listing_id
          where (select earliest < latest from bounds)
            and ${staysAround}
        ) s
        where (s.start_date < s.today and s.start_date + s.nights > s.today)
          or s.start_date between s.today and s.today + ${withinDays}::integer
      ) branches
    ),
    page as (
      select s.start_date, s.listing_id, s.listing_name, s.today
      from (
        select r.start_date, r.listing_id, r.nights, l.name as listing_name,
          (${now.toISOString()}::timestamptz at time zone l.time_zone)::date as today
        from reservations r
        join listings l on l.id = r.listing_id
        where ${staysAround}
      ) s
      where ((s.start_date < s.today and s.start_date + s.nights > s.today)
          or s.start_date between s.today and s.today + ${withinDays}::integer)
        and ${after === null ? sql`true` : sql`(s.start_date, s.listing_id) > (${after[0]}::date, ${after[1]})`}
      order by s.start_date, s.listing_id
      limit ${input.limit + 1}
    )
    select b.account_time_zone, b.listing_count, t.in_house_total, t.arrivals_total, p.*
    from bounds b
    cross join totals t
    left join lateral (
      select r.id, p.listing_id, p.listing_name, r.guest_first_name, r.start_date, r.end_date, r.nights,
        r.adults + r.children as guests, r.channel, r.currency, r.accommodation_minor, r.guest_price_minor,
        r.host_payout_minor, r.start_date - p.today as days_until, r.start_date < p.today as in_house
      from page p
      join reservations r
        on r.listing_id = p.listing_id and r.start_date = p.start_date and r.status = 'accepted'
    ) p on true
    order by p.start_date, p.listing_id`.execute(db);

  const summary = rows[0];
  // The actor's account always exists; without it there is no today to answer from.
  if (summary?.account_time_zone == null) throw new Error(`No account ${scope.accountId}`);
  const page = toPage(
    rows.filter((row): row is UpcomingRow & { id: string } => row.id !== null),
    input.limit,
    (row) => ({
      reservationId: row.id,
      listingId: row.listing_id,
      listingName: row.listing_name,
      guestFirstName: row.guest_first_name,
      startDate: row.start_date,
      endDate: row.end_date,
      nights: Number(row.nights),
      guests: Number(row.guests),
      channel: row.channel,
      currency: row.currency,
      rent: toMajorUnits(row.accommodation_minor, row.currency),
      guestTotal: toMajorUnits(row.guest_price_minor, row.currency),
      payout: toMajorUnits(row.host_payout_minor, row.currency),
      daysUntilArrival: Number(row.days_until),
      inHouse: row.in_house,
    }),
    (row) => [row.start_date, row.listing_id],
  );
  const today = localDateIn(summary.account_time_zone, now);
  return {
    meta: analyticsMeta(
      filtered ? scope : { ...scope, listingCount: Number(summary.listing_count) },
      { startDate: today, endDate: addDays(today, input.withinDays) },
      {
        basis: 'check_in',
        definitions: ['upcoming_reservations', 'live_statuses', 'local_dates'],
        currencies: [...new Set(page.items.map((item) => item.currency))],
        notes: [
          'Today is each listing’s own; the period shown is in the account’s time zone. Arrivals today have ' +
            'daysUntilArrival 0 and are not yet in house.',
        ],
      },
    ),
    items: page.items,
    inHouse: Number(summary.in_house_total),
    arrivals: Number(summary.arrivals_total),
    nextCursor: page.nextCursor,
    hasMore: page.hasMore,
  };
}
