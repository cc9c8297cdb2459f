import {
  type CalendarFeedReader,
  type CalendarFeedStay,
  type Channel,
  calendarFeedWindow,
  type HoldKind,
  localDateIn,
} from '@innkeep/domain';
import { sql } from 'kysely';
import type { StoreDeps } from '../store-deps.ts';

/** Calendar exports over PostgreSQL: a channel link's feed by its secret token. */
export function createCalendarFeedReader({ db, clock }: StoreDeps): CalendarFeedReader {
  return {
    async findByToken(token) {
      const now = clock.now();
      // The link and its Last-Modified are read before the holds: a hold written between the two reads
      // shows in the body under the older Last-Modified, which only makes the next poll fetch the feed again,
      // where the other order could hide a change behind a Last-Modified that already counts it.
      const link = await db
        .selectFrom('listing_channel_links as link')
        .innerJoin('listings', 'listings.id', 'link.listing_id')
        .innerJoin('channel_accounts as channel_account', 'channel_account.id', 'link.channel_account_id')
        .leftJoin('listing_hold_changes as hold_change', 'hold_change.listing_id', 'listings.id')
        .select([
          'listings.id as listing_id',
          'listings.name as listing_name',
          'listings.time_zone',
          'channel_account.channel',
          'link.channel_account_id',
          // The window moves at the listing's midnight, which can drop a stay that ended out of the feed.
          sql<Date>`greatest(hold_change.changed_at, listings.updated_at,
            (${now}::timestamptz at time zone listings.time_zone)::date::timestamp at time zone listings.time_zone)`.as(
            'last_modified',
          ),
        ])
        .where('link.calendar_export_token', '=', token)
        .executeTakeFirst();
      if (link === undefined) return undefined;

      const window = calendarFeedWindow(localDateIn(link.time_zone, now));
      const holds = await db
        .selectFrom('calendar_holds as hold')
        .leftJoin('reservations as reservation', 'reservation.id', 'hold.reservation_id')
        .select([
          'hold.id',
          'hold.kind',
          'hold.reservation_id',
          sql<string>`to_char(lower(hold.nights), 'YYYY-MM-DD')`.as('start_date'),
          sql<string>`to_char(upper(hold.nights), 'YYYY-MM-DD')`.as('end_date'),
        ])
        .where('hold.listing_id', '=', link.listing_id)
        .where(sql<boolean>`hold.nights && daterange(${window.from}::date, ${window.to}::date, '[)')`)
        // The polling channel holds its own reservations already: exported back, they would block twice.
        .where((eb) => eb.or([eb('hold.kind', '=', 'block'), eb('reservation.channel', '<>', link.channel)]))
        // Nor the stays imported from its own calendar: echoed back, they would stay blocked there after the
        // channel freed them, and come back here as its stays on the next import.
        .where(sql<boolean>`hold.channel_account_id is distinct from ${link.channel_account_id}`)
        .orderBy(sql`lower(hold.nights)`)
        .execute();

      return {
        listingId: link.listing_id,
        listingName: link.listing_name,
        timeZone: link.time_zone,
        channel: link.channel as Channel,
        stays: holds.map(
          (hold): CalendarFeedStay => ({
            // A reservation keeps its id whatever its dates become; a block has only its own.
            uid: hold.reservation_id ?? hold.id,
            startDate: hold.start_date,
            endDate: hold.end_date,
            kind: hold.kind as HoldKind,
          }),
        ),
        lastModified: new Date(link.last_modified),
      };
    },
  };
}
