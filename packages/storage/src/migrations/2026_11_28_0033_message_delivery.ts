import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released. The rebuild
// below is the wait rule as it stands from this migration on; `guest-waits.ts` maintains it in every message
// write.

/** The limits of the listing months' answered-within counts, in seconds, as migration 0027 made them. */
const withinSeconds = [60, 120, 240, 480, 960, 1920, 3840, 7680, 15360, 30720, 61440, 122880];

/** The reason given to the messages that were queued before anything delivered them. */
const writtenBeforeDeliveryReason =
  'Written before Innkeep delivered messages, so it was never sent: send it again, or from the channel’s inbox';

const undeliveredReplyThreads = sql`
  select reservation_id from messages
  where sender in ('host', 'automation') and delivery_status in ('failed', 'not_delivered')`;
const undeliveredReplyAccounts = sql`
  select account_id from messages
  where sender in ('host', 'automation') and delivery_status in ('failed', 'not_delivered')`;

/**
 * Messages to guests leave by email (direct reservations, when the server has SMTP), or are stored
 * `not_delivered` with the reason:
 *
 * - `delivery_error`: why a message is `failed` or `not_delivered`.
 * - `delivery_attempts`, `next_delivery_at` (set exactly while `queued`, the check says so) and
 *   `delivery_lease_until` (until when the sender that claimed it holds it): the email queue, as
 *   `webhook_deliveries` keeps its own. `messages_due_delivery` holds only queued rows in due order, so
 *   claiming reads the head of a small index however many messages are kept.
 * - Nothing ever sent the messages queued so far: they become `not_delivered`, with a reason saying so.
 *
 * A host or automated message that failed or was not delivered never reached the guest, so it answers no
 * wait: the waits of every thread with such a message are rewritten, and the response-time buckets and
 * listing months of their accounts rebuilt from the waits.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table messages
      add column delivery_error text,
      add column delivery_attempts integer not null default 0,
      add column next_delivery_at timestamptz,
      add column delivery_lease_until timestamptz,
      drop constraint messages_delivery_status_check`.execute(db);
  await sql`
    update messages set delivery_status = 'not_delivered', delivery_error = ${writtenBeforeDeliveryReason}
    where delivery_status = 'queued'`.execute(db);
  await sql`
    alter table messages
      add constraint messages_delivery_status_check
        check (delivery_status in ('received', 'queued', 'sent', 'failed', 'not_delivered')),
      add constraint messages_scheduled_while_queued
        check ((delivery_status = 'queued') = (next_delivery_at is not null))`.execute(db);
  await sql`
    create index messages_due_delivery on messages (next_delivery_at, id)
    where delivery_status = 'queued'`.execute(db);
  await rewriteWaitsOfUndeliveredReplies(db);
}

/**
 * Puts the columns and the statuses back: `not_delivered` messages become `queued` again (`failed` stay
 * failed). The waits keep the new rule until their threads are next written.
 */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists messages_due_delivery`.execute(db);
  await sql`
    alter table messages
      drop constraint messages_scheduled_while_queued,
      drop constraint messages_delivery_status_check`.execute(db);
  await sql`update messages set delivery_status = 'queued' where delivery_status = 'not_delivered'`.execute(
    db,
  );
  await sql`
    alter table messages
      drop column delivery_error,
      drop column delivery_attempts,
      drop column next_delivery_at,
      drop column delivery_lease_until,
      add constraint messages_delivery_status_check
        check (delivery_status in ('received', 'queued', 'sent', 'failed'))`.execute(db);
}

async function rewriteWaitsOfUndeliveredReplies(db: Kysely<unknown>): Promise<void> {
  await sql`delete from guest_waits where reservation_id in (${undeliveredReplyThreads})`.execute(db);
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
      where (m.sender = 'guest'
          or (m.sender = 'host' and m.delivery_status not in ('failed', 'not_delivered')))
        and m.reservation_id in (${undeliveredReplyThreads})
      window thread as (partition by m.reservation_id order by m.sent_at, m.id)
    ) w
    join reservations r on r.id = w.reservation_id
    join listings l on l.id = r.listing_id
    cross join lateral (
      select min(a.sent_at) as first_at
      from messages a
      where a.reservation_id = w.reservation_id
        and a.sender = 'automation'
        and a.delivery_status not in ('failed', 'not_delivered')
        and a.sent_at >= w.sent_at
        and (w.answered_at is null or a.sent_at < w.answered_at)
    ) automated
    where w.sender = 'guest' and w.previous_sender is distinct from 'guest'`.execute(db);
  await sql`delete from guest_wait_buckets where account_id in (${undeliveredReplyAccounts})`.execute(db);
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
    where w.account_id in (${undeliveredReplyAccounts})
    group by w.account_id, r.replies, date_trunc('month', w.local_date)::date, d.dimension, d.group_key,
      guest_wait_bucket(r.seconds)`.execute(db);
  const withinColumns = withinSeconds.map((seconds) => sql.raw(`within_${seconds}`));
  await sql`delete from listing_wait_months where account_id in (${undeliveredReplyAccounts})`.execute(db);
  await sql`
    insert into listing_wait_months
      (account_id, replies, month, listing_id, waits, answered, total_seconds, within_hour, within_day,
       ${sql.join(withinColumns)}, times)
    select w.account_id, r.replies, date_trunc('month', w.local_date)::date, w.listing_id, count(*),
      count(r.seconds), coalesce(sum(r.seconds), 0), count(*) filter (where r.seconds <= 3600),
      count(*) filter (where r.seconds <= 86400),
      ${sql.join(withinSeconds.map((seconds) => sql`count(*) filter (where r.seconds <= ${sql.lit(seconds)})`))},
      coalesce(array_agg(r.seconds) filter (where r.seconds is not null), '{}')
    from guest_waits w
    cross join lateral (values
      ('host', w.response_seconds), ('any', least(w.response_seconds, w.automated_seconds))
    ) r (replies, seconds)
    where w.account_id in (${undeliveredReplyAccounts})
    group by w.account_id, r.replies, date_trunc('month', w.local_date)::date, w.listing_id
    order by w.account_id, r.replies, date_trunc('month', w.local_date)::date, w.listing_id`.execute(db);
}
