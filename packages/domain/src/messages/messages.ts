import { z } from 'zod';
import type { Actor } from '../core/actor.ts';
import { localDateSchema } from '../core/dates.ts';
import { type Page, pageInputShape } from '../core/paging.ts';
import { channelSchema } from '../listings/listings.ts';
import { reservationIdSchema, reservationStatusSchema } from '../reservations/reservations.ts';

/** Who wrote a message: the guest, the host (or a team member), a message rule, or Innkeep itself. */
export const messageSenders = ['guest', 'host', 'automation', 'system'] as const;
/** One of {@link messageSenders}. */
export type MessageSender = (typeof messageSenders)[number];

/**
 * Where a message is on its way: `received` from the guest; `queued` to be emailed to a direct guest (retried
 * for about a day); `sent` once the mail server accepted it; `failed` when it refused it or retries ran out;
 * `not_delivered` when Innkeep could not send it at all (no email delivery on the server, a channel
 * reservation, no guest email). `deliveryError` says why for the last two.
 */
export const deliveryStatuses = ['received', 'queued', 'sent', 'failed', 'not_delivered'] as const;
/** One of {@link deliveryStatuses}. */
export type DeliveryStatus = (typeof deliveryStatuses)[number];

/** One message of a reservation's thread. The body is guest- or host-written text: treat it as untrusted. */
export const messageSchema = z.object({
  id: z.string(),
  sender: z.enum(messageSenders),
  body: z.string(),
  sentAt: z.string().describe('When it was written (UTC ISO 8601).'),
  deliveryStatus: z
    .enum(deliveryStatuses)
    .describe(
      'received (from the guest), queued (to be emailed), sent, failed (refused or retries ran out), ' +
        'not_delivered (Innkeep could not send it: see deliveryError).',
    ),
  deliveryError: z
    .string()
    .nullable()
    .describe('Why it failed or was not delivered, or why a queued one’s last attempt failed; else null.'),
  messageRuleId: z.string().nullable().describe('The message rule that sent it, for automated messages.'),
  authorUserId: z.string().nullable().describe('The user who wrote it, for host messages.'),
});
/** One message. */
export type Message = z.infer<typeof messageSchema>;

/** Input of {@link MessageUseCases.getThread}. */
export const getMessageThreadInputSchema = z.object({
  reservationId: reservationIdSchema,
  ...pageInputShape,
});
/** Input of {@link MessageUseCases.getThread}. */
export type GetMessageThreadInput = z.input<typeof getMessageThreadInputSchema>;

/** The reservation a thread belongs to, in brief. */
export const threadReservationSchema = z.object({
  id: z.string(),
  listingId: z.string(),
  listingName: z.string(),
  guestName: z.string(),
  startDate: localDateSchema,
  endDate: localDateSchema.describe('Check-out date.'),
  status: reservationStatusSchema,
  channel: channelSchema,
  confirmationCode: z.string(),
});
/** The reservation a thread belongs to. */
export type ThreadReservation = z.infer<typeof threadReservationSchema>;

/** A reservation's conversation with the guest. */
export interface MessageThread {
  readonly reservation: ThreadReservation;
  /** Oldest first; page on with `messages.nextCursor`. */
  readonly messages: Page<Message>;
  /**
   * True when the guest wrote last: their latest message is newer than the latest host message that did
   * not fail or go undelivered. Automated and system messages are not replies, so they leave this unchanged.
   */
  readonly needsReply: boolean;
  /** When the guest last wrote (UTC ISO 8601), or null if they never did. */
  readonly lastGuestMessageAt: string | null;
}

/** Input of {@link MessageUseCases.send}. */
export const sendMessageInputSchema = z.object({
  reservationId: reservationIdSchema,
  body: z
    .string()
    .trim()
    .min(1)
    .max(5000)
    .describe('The message to the guest, 1–5000 characters once leading and trailing whitespace is trimmed.'),
});
/** Input of {@link MessageUseCases.send}. */
export type SendMessageInput = z.input<typeof sendMessageInputSchema>;

/** Reads a reservation's guest conversation and writes to it. */
export interface MessageUseCases {
  /** The thread of one reservation; `not_found` for ids outside the account. */
  getThread(actor: Actor, input: GetMessageThreadInput): Promise<MessageThread>;
  /**
   * Records a host message to the guest (its body trimmed), attributed to the acting user; audited. Its
   * status follows `decideMessageDelivery` (message-delivery.ts): `queued` for the message delivery job to email, else
   * `not_delivered` with the reason in `deliveryError`.
   */
  send(actor: Actor, input: SendMessageInput): Promise<Message>;
}
