import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../database.ts';
import {
  type BucketedWait,
  bucketedWaitColumns,
  moveGuestWaitBuckets,
  rebuildGuestWaitBuckets,
} from './guest-wait-buckets.ts';

/**
 * Rewrites the `guest_waits` rows of some reservations' threads from their messages, and moves their
 * `guest_wait_buckets` and `listing_wait_months` with them. Call it inside the transaction that inserted a
 * message or changed its delivery status, after that write, so response-time analytics never see a thread whose waits lag behind its
 * messages.
 *
 * Two messages written at once to one thread would each rewrite the thread's waits from what they see: the
 * later writer's delete finds the earlier one's rows gone and cannot see its new ones, and its insert then
 * collides with them. So each refresh first locks its reservations (in id order, so writers of several never
 * wait on each other in a circle); a later writer waits, then sees every message and wait committed before it.
 */
export async function refreshGuestWaits(trx: Executor, reservationIds: readonly string[]): Promise<void> {
  if (reservationIds.length === 0) return;
  const ids = sql`${[...new Set(reservationIds)]}::text[]`;
  await sql`select id from reservations where id = any(${ids}) order by id for no key update`.execute(trx);
  const removed = await sql<BucketedWait>`
    delete from guest_waits where reservation_id = any(${ids}) returning ${bucketedWaitColumns}`.execute(trx);
  const added = await insertGuestWaits(trx, sql`m.reservation_id = any(${ids})`);
  await moveGuestWaitBuckets(trx, removed.rows, added);
}

/**
 * Rebuilds every `guest_waits`, `guest_wait_buckets` and `listing_wait_months` row of one account, e.g. after
 * messages were bulk-loaded without the store.
 */
export async function rebuildGuestWaits(trx: Executor, accountId: string): Promise<void> {
  await sql`delete from guest_waits where account_id = ${accountId}`.execute(trx);
  await insertGuestWaits(trx, sql`m.account_id = ${accountId}`, false);
  await rebuildGuestWaitBuckets(trx, accountId);
}

/** The statuses of a message that never reached the guest. */
const undeliveredStatuses = sql`('failed', 'not_delivered')`;

// A wait starts at a guest message whose previous guest-or-host message in the thread is not the guest's
// (or that opens the thread); it is answered by the host's next message. Automated and system messages
// neither start nor end a wait: the first automated message sent during it is kept apart, so a question can
// choose to count it as the answer. A host or automated message that failed or was not delivered never
// reached the guest, so it answers nothing, and is left out as if it had not been written.
// Ties in sent_at are ordered by id, the same order on every rebuild.
// Returns the inserted waits' bucketed columns when `returning` (a thread's few), nothing for a bulk rebuild.
async function insertGuestWaits(
  trx: Executor,
  messageFilter: RawBuilder<unknown>,
  returning = true,
): Promise<BucketedWait[]> {
  const { rows } = await sql<BucketedWait>`
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
      where (m.sender = 'guest' or (m.sender = 'host' and m.delivery_status not in ${undeliveredStatuses}))
        and ${messageFilter}
      window thread as (partition by m.reservation_id order by m.sent_at, m.id)
    ) w
    join reservations r on r.id = w.reservation_id
    join listings l on l.id = r.listing_id
    cross join lateral (
      select min(a.sent_at) as first_at
      from messages a
      where a.reservation_id = w.reservation_id
        and a.sender = 'automation'
        and a.delivery_status not in ${undeliveredStatuses}
        and a.sent_at >= w.sent_at
        and (w.answered_at is null or a.sent_at < w.answered_at)
    ) automated
    where w.sender = 'guest' and w.previous_sender is distinct from 'guest'
    ${returning ? sql`returning ${bucketedWaitColumns}` : sql``}`.execute(trx);
  return rows;
}
