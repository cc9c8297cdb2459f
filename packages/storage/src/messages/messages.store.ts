import type { Channel, ReservationStatus } from '@innkeep/domain';
import {
  assertCanWrite,
  type DeliveryStatus,
  decideMessageDelivery,
  decodeCursor,
  getMessageThreadInputSchema,
  type Message,
  type MessageSender,
  type MessageUseCases,
  newId,
  parseInput,
  sendMessageInputSchema,
  toPage,
} from '@innkeep/domain';
import { type Insertable, sql } from 'kysely';
import { refreshGuestWaits } from '../analytics/guest-waits.ts';
import type { MessagesTable } from '../database.ts';
import { findReservationViewOrThrow } from '../reservations/reservation-queries.ts';
import { inTransaction, recordAudit } from '../transaction.ts';
import { recordEvent } from '../webhooks/record-event.ts';
import type { MessageStoreDeps } from './message-store-deps.ts';

/** Message use cases over PostgreSQL. */
export function createMessageUseCases({
  db,
  clock,
  emailDelivery = false,
}: MessageStoreDeps): MessageUseCases {
  return {
    async getThread(actor, rawInput) {
      const input = parseInput(getMessageThreadInputSchema, rawInput);
      const reservation = await findReservationViewOrThrow(db, actor, input.reservationId);
      // The cursor keeps sent_at at full (microsecond) precision as text, so paging never skips or repeats
      // a message whose timestamp a JavaScript Date would round.
      let query = db
        .selectFrom('messages')
        .selectAll()
        .select(
          sql<string>`to_char(sent_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('sent_key'),
        )
        .where('account_id', '=', actor.accountId)
        .where('reservation_id', '=', reservation.id);
      if (input.cursor !== undefined) {
        const [sentKey, id] = decodeCursor(input.cursor, 2).map(String);
        const after = sql<Date>`${sentKey ?? ''}::timestamptz`;
        query = query.where((eb) =>
          eb.or([eb('sent_at', '>', after), eb.and([eb('sent_at', '=', after), eb('id', '>', id ?? '')])]),
        );
      }
      const rows = await query
        .orderBy('sent_at')
        .orderBy('id')
        .limit(input.limit + 1)
        .execute();
      const latest = await db
        .selectFrom('messages')
        .select(['sender', (eb) => eb.fn.max('sent_at').as('last_at')])
        .where('account_id', '=', actor.accountId)
        .where('reservation_id', '=', reservation.id)
        .where('sender', 'in', ['guest', 'host'])
        // A reply that never reached the guest answers nothing, as in the response-time analytics.
        .where('delivery_status', 'not in', ['failed', 'not_delivered'])
        .groupBy('sender')
        .execute();
      const lastAt = (sender: MessageSender) => {
        const at = latest.find((row) => row.sender === sender)?.last_at;
        return at === undefined || at === null ? null : new Date(at);
      };
      const lastGuest = lastAt('guest');
      const lastHost = lastAt('host');
      return {
        reservation: {
          id: reservation.id,
          listingId: reservation.listing_id,
          listingName: reservation.listing_name,
          guestName: `${reservation.guest_first_name} ${reservation.guest_last_name}`,
          startDate: reservation.start_date,
          endDate: reservation.end_date,
          status: reservation.status as ReservationStatus,
          channel: reservation.channel as Channel,
          confirmationCode: reservation.confirmation_code,
        },
        messages: toPage(rows, input.limit, toMessage, (row) => [row.sent_key, row.id]),
        needsReply: lastGuest !== null && (lastHost === null || lastGuest > lastHost),
        lastGuestMessageAt: lastGuest === null ? null : lastGuest.toISOString(),
      };
    },

    async send(actor, rawInput) {
      assertCanWrite(actor);
      const input = parseInput(sendMessageInputSchema, rawInput);
      return inTransaction(db, async (trx) => {
        const reservation = await findReservationViewOrThrow(trx, actor, input.reservationId);
        const now = clock.now();
        const delivery = decideMessageDelivery({
          channel: reservation.channel as Channel,
          guestEmail: reservation.guest_email,
          emailDelivery,
        });
        const row = {
          id: newId('message'),
          account_id: actor.accountId,
          reservation_id: reservation.id,
          sender: 'host',
          body: input.body,
          sent_at: now,
          message_rule_id: null,
          author_user_id: actor.userId,
          delivery_status: delivery.deliveryStatus,
          delivery_error: delivery.deliveryError,
          next_delivery_at: delivery.deliveryStatus === 'queued' ? now : null,
        } satisfies Insertable<MessagesTable>;
        await trx.insertInto('messages').values(row).execute();
        await refreshGuestWaits(trx, [reservation.id]);
        await recordAudit(trx, actor, {
          action: 'message.send',
          targetType: 'message',
          targetId: row.id,
          details: { reservationId: reservation.id, characters: input.body.length },
        });
        await recordEvent(trx, {
          accountId: actor.accountId,
          event: 'message.created',
          data: { messageId: row.id, reservationId: reservation.id, sender: 'host', messageRuleId: null },
        });
        return toMessage(row);
      });
    },
  };
}

function toMessage(row: {
  id: string;
  sender: string;
  body: string;
  sent_at: Date;
  delivery_status: string;
  delivery_error: string | null;
  message_rule_id: string | null;
  author_user_id: string | null;
}): Message {
  return {
    id: row.id,
    sender: row.sender as MessageSender,
    body: row.body,
    sentAt: row.sent_at.toISOString(),
    deliveryStatus: row.delivery_status as DeliveryStatus,
    deliveryError: row.delivery_error,
    messageRuleId: row.message_rule_id,
    authorUserId: row.author_user_id,
  };
}
