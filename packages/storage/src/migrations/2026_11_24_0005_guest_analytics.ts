import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released. The backfill
// below is the wait rule as it stood when the table was created; `guest-waits.ts` maintains it from then on,
// inside every message insert.

/**
 * Response times, reviews and listed prices over a year of a large portfolio.
 *
 * `guest_waits`: one row per wait for a reply, so response-time analytics read a year of a large portfolio's
 * waits from one index instead of ordering every thread's messages on each question. A wait starts at a
 * guest message that opens the thread or follows a host message (further guest messages join it) and ends
 * at the host's next message; automated and system messages neither start nor end one, but the first
 * automated message sent during the wait is kept (`automated_seconds`). The row carries what the analytics
 * group by: listing, channel, stage (inquiry when the guest wrote before the booking was confirmed) and the
 * listing-local date, hour and weekday (0 = Sunday) of the guest's message.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table guest_waits (
      guest_message_id text primary key references messages (id) on delete cascade,
      reservation_id text not null references reservations (id) on delete cascade,
      account_id text not null,
      listing_id text not null,
      channel text not null,
      stage text not null check (stage in ('inquiry', 'booked')),
      guest_message_at timestamptz not null,
      local_date date not null,
      local_hour smallint not null check (local_hour between 0 and 23),
      local_weekday smallint not null check (local_weekday between 0 and 6),
      response_seconds integer check (response_seconds >= 0),
      automated_seconds integer check (automated_seconds >= 0)
    )`.execute(db);
  await sql`create index guest_waits_reservation on guest_waits (reservation_id)`.execute(db);
  await sql`
    create index guest_waits_account_date on guest_waits (account_id, local_date)
    include (listing_id, channel, stage, local_hour, local_weekday, guest_message_at, response_seconds,
      automated_seconds)`.execute(db);
  await sql`
    insert into guest_waits
    select w.id, w.reservation_id, r.account_id, r.listing_id, r.channel,
      case when w.sent_at >= r.confirmed_at then 'booked' else 'inquiry' end,
      w.sent_at,
      (w.sent_at at time zone l.time_zone)::date,
      extract(hour from w.sent_at at time zone l.time_zone)::smallint,
      extract(dow from w.sent_at at time zone l.time_zone)::smallint,
      round(extract(epoch from w.answered_at - w.sent_at))::integer,
      round(extract(epoch from automated.first_at - w.sent_at))::integer
    from (
      select m.id, m.reservation_id, m.sent_at, m.sender,
        lag(m.sender) over thread as previous_sender,
        min(m.sent_at) filter (where m.sender = 'host')
          over (thread rows between 1 following and unbounded following) as answered_at
      from messages m
      where m.sender in ('guest', 'host')
      window thread as (partition by m.reservation_id order by m.sent_at, m.id)
    ) w
    join reservations r on r.id = w.reservation_id
    join listings l on l.id = r.listing_id
    cross join lateral (
      select min(a.sent_at) as first_at
      from messages a
      where a.reservation_id = w.reservation_id
        and a.sender = 'automation'
        and a.sent_at >= w.sent_at
        and (w.answered_at is null or a.sent_at < w.answered_at)
    ) automated
    where w.sender = 'guest' and w.previous_sender is distinct from 'guest'`.execute(db);

  // Review figures read a year of an account's reviews with their ratings, response time and stay; covering
  // them makes that an index-only scan instead of a read of the wide rows with their texts.
  await sql`
    create index reviews_account_submitted_ratings on reviews (account_id, submitted_at)
    include (listing_id, channel, overall_rating, cleanliness_rating, accuracy_rating, check_in_rating,
      communication_rating, location_rating, value_rating, responded_at, reservation_id)`.execute(db);
  // Sold stays by check-out date: completed stays for the review rate, and the sold stays overlapping a
  // period for listed-price realisation (end after the period starts).
  await sql`
    create index reservations_account_check_out on reservations (account_id, end_date)
    include (id, start_date, listing_id, channel) where status = 'accepted'`.execute(db);
  // The few pending reservations of an account: their nights are requested, neither open nor sold.
  await sql`create index reservations_account_pending on reservations (account_id) where status = 'pending'`.execute(
    db,
  );
}

/** Drops the waits and the indexes. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists reservations_account_pending`.execute(db);
  await sql`drop index if exists reviews_account_submitted_ratings`.execute(db);
  await sql`drop index if exists reservations_account_check_out`.execute(db);
  await sql`drop table if exists guest_waits`.execute(db);
}
