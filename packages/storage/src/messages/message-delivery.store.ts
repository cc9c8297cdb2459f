import { type DueMessageEmail, type MessageDeliveryQueue, nextMessageEmailAttemptAt } from '@innkeep/domain';
import { sql } from 'kysely';
import { refreshGuestWaits } from '../analytics/guest-waits.ts';
import { assertPositiveInteger } from '../queue-arguments.ts';
import type { StoreDeps } from '../store-deps.ts';
import { inTransaction } from '../transaction.ts';

// The queue lives in the messages themselves, as the webhook queue lives in its deliveries: claims are row
// locks taken with SKIP LOCKED (concurrent senders pass each other's rows instead of waiting), and each
// message's schedule is a committed row, so any instance can work it and a restart resumes where it stopped.

/** Longest part of a mail server's answer kept as a message's `delivery_error`. */
const storedErrorLength = 500;

/** The email queue over PostgreSQL or PGlite; every time comes from the caller, never the database. */
export function createMessageDeliveryQueue({ db }: StoreDeps): MessageDeliveryQueue {
  return {
    async claimDue(now, limit, leaseMs) {
      assertPositiveInteger('limit', limit);
      assertPositiveInteger('leaseMs', leaseMs);
      const leaseUntil = new Date(now.getTime() + leaseMs);
      // One statement: the subquery locks due rows nobody else has locked, and the update stamps the lease
      // before the locks are released, so a message is claimed here or by the other claimer, never both. A
      // lease that ran out (a sender that died) is due again.
      const { rows } = await sql<ClaimedRow>`
        update messages as claimed
        set delivery_lease_until = ${leaseUntil}
        from reservations as r, listings as l
        where claimed.id in (
            select due.id
            from messages as due
            where due.delivery_status = 'queued'
              and due.next_delivery_at <= ${now}
              and (due.delivery_lease_until is null or due.delivery_lease_until <= ${now})
            order by due.next_delivery_at, due.id
            limit ${limit}
            for update of due skip locked)
          and r.id = claimed.reservation_id
          and l.id = r.listing_id
        returning claimed.id as message_id, claimed.delivery_attempts + 1 as attempt, claimed.next_delivery_at,
          claimed.body, r.guest_email, r.guest_first_name, r.guest_last_name, r.confirmation_code,
          to_char(r.start_date, 'YYYY-MM-DD') as start_date, to_char(r.end_date, 'YYYY-MM-DD') as end_date,
          l.name as listing_name`.execute(db);
      return rows
        .sort((a, b) => a.next_delivery_at.getTime() - b.next_delivery_at.getTime())
        .map(
          (row): DueMessageEmail => ({
            messageId: row.message_id,
            attempt: row.attempt,
            guestEmail: row.guest_email,
            guestName: `${row.guest_first_name} ${row.guest_last_name}`.trim(),
            listingName: row.listing_name,
            startDate: row.start_date,
            endDate: row.end_date,
            confirmationCode: row.confirmation_code,
            body: row.body,
          }),
        );
    },

    async recordAttempt(messageId, outcome, now, random) {
      return inTransaction(db, async (trx) => {
        const message = await trx
          .selectFrom('messages')
          .select(['id', 'reservation_id', 'delivery_attempts'])
          .where('id', '=', messageId)
          .where('delivery_status', '=', 'queued')
          .forUpdate()
          .executeTakeFirst();
        // Recorded by a sender whose lease had run out: nothing left to record.
        if (!message) return { recorded: false };
        const attempts = message.delivery_attempts + 1;
        const update = trx.updateTable('messages').where('id', '=', message.id);
        if (outcome.kind === 'sent') {
          await update
            .set({
              delivery_status: 'sent',
              delivery_error: null,
              delivery_attempts: attempts,
              next_delivery_at: null,
              delivery_lease_until: null,
            })
            .execute();
          return { recorded: true, deliveryStatus: 'sent', nextAttemptAt: null };
        }
        const nextAttemptAt =
          outcome.kind === 'retry' ? nextMessageEmailAttemptAt(attempts, now, random) : null;
        if (nextAttemptAt !== null) {
          // Still queued, with the last failure kept so a host reading the thread sees why it is late.
          await update
            .set({
              delivery_error: clipped(outcome.error),
              delivery_attempts: attempts,
              next_delivery_at: nextAttemptAt,
              delivery_lease_until: null,
            })
            .execute();
          return { recorded: true, deliveryStatus: 'queued', nextAttemptAt };
        }
        const error =
          outcome.kind === 'retry' ? `${outcome.error} (gave up after ${attempts} attempts)` : outcome.error;
        await update
          .set({
            delivery_status: 'failed',
            delivery_error: clipped(error),
            delivery_attempts: attempts,
            next_delivery_at: null,
            delivery_lease_until: null,
          })
          .execute();
        // A failed message no longer answers the guest: the thread's waits move in this transaction.
        await refreshGuestWaits(trx, [message.reservation_id]);
        return { recorded: true, deliveryStatus: 'failed', nextAttemptAt: null };
      });
    },
  };
}

/** A row {@link MessageDeliveryQueue.claimDue} claimed, as the database returns it. */
interface ClaimedRow {
  readonly message_id: string;
  readonly attempt: number;
  readonly next_delivery_at: Date;
  readonly body: string;
  readonly guest_email: string | null;
  readonly guest_first_name: string;
  readonly guest_last_name: string;
  readonly confirmation_code: string;
  readonly start_date: string;
  readonly end_date: string;
  readonly listing_name: string;
}

function clipped(error: string): string {
  return error.length > storedErrorLength ? `${error.slice(0, storedErrorLength - 1)}…` : error;
}
