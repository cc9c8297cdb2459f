import { sql } from 'kysely';
import type { z } from 'zod';
import type {
  UpcomingReservations,
  upcomingReservationsInputSchema,
} from '../../analytics/reservation-upcoming.ts';
import { addDays, areLocalDates } from '../../core/dates.ts';
import { DomainError } from '../../core/errors.ts';
import { toMajorUnits } from '../../core/money.ts';
import { decodeCursor, toPage } from '../../core/paging.ts';
import type { Channel } from '../../listings/listings.ts';
import type { Executor } from '../database.ts';
import { type AnalyticsScope, analyticsMeta, channelInScope } from './analytics-scope.ts';
import { longestStayNights } from './reservation-stays.ts';
import { accountToday, listingsWithToday } from './reservation-today.ts';

type UpcomingInput = z.output<typeof upcomingReservationsInputSchema>;

interface UpcomingRow {
  id: string;
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
  in_house_total: string;
  arrivals_total: string;
}

/**
 * get_upcoming_reservations: guests in house now (accepted stays that began before the listing's today and
 * end after it) and accepted stays arriving from the listing's today to `withinDays` ahead, by check-in date,
 * a page at a time. Accepted stays of one listing never share a check-in date (the calendar forbids overlaps),
 * so (check-in, listing) orders them and makes the cursor; the candidates come from the check-in index alone
 * and only the page's rows are read in full.
 */
export async function upcomingReservations(
  db: Executor,
  scope: AnalyticsScope,
  input: UpcomingInput,
  now: Date,
): Promise<UpcomingReservations> {
  // Every listing's today is within a day of the UTC date; the exact one is checked per listing below.
  const utcToday = now.toISOString().slice(0, 10);
  const earliestToday = addDays(utcToday, -1);
  const latestToday = addDays(utcToday, 1);
  const longestStay = await longestStayNights(db, scope.accountId);
  const after = input.cursor === undefined ? null : decodeCursor(input.cursor, 2).map(String);
  if (after !== null && !areLocalDates(after[0])) {
    throw new DomainError(
      'invalid_argument',
      'The cursor is not one this list produced; start again without it.',
    );
  }
  const { rows } = await sql<UpcomingRow>`
    with listing_today as materialized (${listingsWithToday(scope, now)}),
    candidates as (
      select r.start_date, r.listing_id, l.name as listing_name, l.today,
        r.start_date < l.today as in_house
      from reservations r
      join listing_today l on l.id = r.listing_id
      where r.account_id = ${scope.accountId}
        and r.status = 'accepted'
        and r.start_date between ${addDays(earliestToday, -longestStay)}::date
          and ${addDays(latestToday, input.withinDays)}::date
        and ((r.start_date < l.today and r.start_date + r.nights > l.today)
          or r.start_date between l.today and l.today + ${input.withinDays}::integer)
        and ${channelInScope(scope, 'r.channel')}
    ),
    page as (
      select c.*, count(*) filter (where c.in_house) over () as in_house_total,
        count(*) filter (where not c.in_house) over () as arrivals_total
      from candidates c
      order by c.start_date, c.listing_id
    )
    select r.id, p.listing_id, p.listing_name, r.guest_first_name, r.start_date, r.end_date, r.nights,
      r.adults + r.children as guests, r.channel, r.currency, r.accommodation_minor, r.guest_price_minor,
      r.host_payout_minor, r.start_date - p.today as days_until, p.in_house, p.in_house_total, p.arrivals_total
    from (
      select * from page
      where ${after === null ? sql`true` : sql`(page.start_date, page.listing_id) > (${after[0]}::date, ${after[1]})`}
      order by page.start_date, page.listing_id
      limit ${input.limit + 1}
    ) p
    join reservations r
      on r.listing_id = p.listing_id and r.start_date = p.start_date and r.status = 'accepted'
    order by p.start_date, p.listing_id`.execute(db);

  const page = toPage(
    rows,
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
  const { today } = await accountToday(db, scope.accountId, now);
  return {
    meta: analyticsMeta(
      scope,
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
    inHouse: Number(rows[0]?.in_house_total ?? 0),
    arrivals: Number(rows[0]?.arrivals_total ?? 0),
    nextCursor: page.nextCursor,
    hasMore: page.hasMore,
  };
}
