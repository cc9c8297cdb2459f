import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released. The rebuild
// below is the wait rule as it stands from this migration on; `guest-waits.ts` maintains it in every message
// insert.

const failedReplyThreads = sql`
  select reservation_id from messages where sender = 'automation' and delivery_status = 'failed'`;
const failedReplyAccounts = sql`
  select account_id from messages where sender = 'automation' and delivery_status = 'failed'`;

/**
 * An automated message whose delivery failed never reached the guest, so it no longer answers a wait when a
 * question counts automated replies. Rewrites the waits of every thread with such a message (their
 * `automated_seconds` come from the first automated message that did not fail) and rebuilds the response-time
 * buckets of their accounts from the waits. It has no `down`: the earlier rule was the mistake.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    delete from guest_waits
    where reservation_id in (${failedReplyThreads})`.execute(db);
  await sql`
    insert into guest_waits
      (guest_message_id, reservation_id, account_id, listing_id, channel, stage, guest_message_at,
       local_date, local_hour, local_weekday, response_seconds, automated_seconds)
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
        and m.reservation_id in (${failedReplyThreads})
      window thread as (partition by m.reservation_id order by m.sent_at, m.id)
    ) w
    join reservations r on r.id = w.reservation_id
    join listings l on l.id = r.listing_id
    cross join lateral (
      select min(a.sent_at) as first_at
      from messages a
      where a.reservation_id = w.reservation_id
        and a.sender = 'automation'
        and a.delivery_status <> 'failed'
        and a.sent_at >= w.sent_at
        and (w.answered_at is null or a.sent_at < w.answered_at)
    ) automated
    where w.sender = 'guest' and w.previous_sender is distinct from 'guest'`.execute(db);
  await sql`
    delete from guest_wait_buckets
    where account_id in (${failedReplyAccounts})`.execute(db);
  await sql`
    insert into guest_wait_buckets
      (account_id, replies, month, dimension, group_key, bucket, waits, answered, total_seconds, within_hour,
       within_day, times)
    select w.account_id, r.replies, date_trunc('month', w.local_date)::date, d.dimension, d.group_key,
      guest_wait_bucket(r.seconds), count(*), count(r.seconds), coalesce(sum(r.seconds), 0),
      count(*) filter (where r.seconds <= 3600), count(*) filter (where r.seconds <= 86400),
      coalesce(array_agg(r.seconds) filter (where r.seconds is not null), '{}')
    from guest_waits w
    cross join lateral (values
      ('host', w.response_seconds), ('any', least(w.response_seconds, w.automated_seconds))
    ) r (replies, seconds)
    cross join lateral (values
      ('overall', ''), ('channel', w.channel), ('stage', w.stage), ('hour', w.local_hour::text),
      ('weekday', w.local_weekday::text)
    ) d (dimension, group_key)
    where w.account_id in (${failedReplyAccounts})
    group by w.account_id, r.replies, date_trunc('month', w.local_date)::date, d.dimension, d.group_key,
      guest_wait_bucket(r.seconds)`.execute(db);
}
