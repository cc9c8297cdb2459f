import type { Channel } from '../listings/listings.ts';

// How a host or automated message leaves Innkeep: by email to the guest of a direct reservation, through the
// message delivery queue below, or not at all (stored `not_delivered` with the reason), decided once, when
// the message is written, by the same rule on every write path.

/** Why a message was stored `not_delivered` or given up `failed`: the `deliveryError` a host reads. */
export const notDeliveredReasons = {
  emailNotConfigured: 'Email delivery is not configured on this server',
  guestHasNoEmail: 'The guest has no email address',
} as const;

/** How each channel is named to hosts in a reason. */
const channelNames: Readonly<Record<Exclude<Channel, 'direct'>, string>> = {
  airbnb: 'Airbnb',
  vrbo: 'Vrbo',
  booking: 'Booking.com',
};

/** The reason a message to a guest of `channel` (not `direct`) is not delivered. */
export function channelReservationReason(channel: Exclude<Channel, 'direct'>): string {
  return (
    `${channelNames[channel]} reservations need a channel connector, which this build does not have: ` +
    "send it from the channel's inbox"
  );
}

/** The facts {@link decideMessageDelivery} decides on, as they stand when the message is written. */
export interface MessageDeliveryFacts {
  readonly channel: Channel;
  readonly guestEmail: string | null;
  /** True when the server was started with email delivery (SMTP) configured. */
  readonly emailDelivery: boolean;
}

/** The status a new host or automated message is stored with, and why when it will not leave. */
export type MessageDeliveryDecision =
  | { readonly deliveryStatus: 'queued'; readonly deliveryError: null }
  | { readonly deliveryStatus: 'not_delivered'; readonly deliveryError: string };

/**
 * `queued` only when the message will be emailed: a direct reservation whose guest has an email address, on a
 * server with email delivery; otherwise `not_delivered` with the reason, so a host never waits on a message
 * nothing will send. A channel reservation is named first (no server setting would help it), then the
 * server's missing email delivery, then the guest's missing address.
 */
export function decideMessageDelivery({
  channel,
  guestEmail,
  emailDelivery,
}: MessageDeliveryFacts): MessageDeliveryDecision {
  if (channel !== 'direct') {
    return { deliveryStatus: 'not_delivered', deliveryError: channelReservationReason(channel) };
  }
  if (!emailDelivery) {
    return { deliveryStatus: 'not_delivered', deliveryError: notDeliveredReasons.emailNotConfigured };
  }
  if (guestEmail === null || guestEmail.trim() === '') {
    return { deliveryStatus: 'not_delivered', deliveryError: notDeliveredReasons.guestHasNoEmail };
  }
  return { deliveryStatus: 'queued', deliveryError: null };
}

/** The waits before each retry of an email, from the first failed attempt: about a day in all. */
export const messageEmailRetryDelaysMs = [
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  6 * 3_600_000,
  15 * 3_600_000,
] as const;

/**
 * When to try an email again after failed attempt `attempts` (1 for the first), or null when its retries
 * have run out. The wait is the scheduled one give or take a quarter (`random` in [0, 1)), so emails that
 * failed together (a mail server down) do not all come back at once.
 */
export function nextMessageEmailAttemptAt(attempts: number, now: Date, random: number): Date | null {
  const delayMs = messageEmailRetryDelaysMs[attempts - 1];
  if (delayMs === undefined) return null;
  return new Date(now.getTime() + Math.round(delayMs * (0.75 + random / 2)));
}

/** One queued email a sender has claimed: whom to write, and what. */
export interface DueMessageEmail {
  readonly messageId: string;
  /** Which attempt this is, 1 for the first. */
  readonly attempt: number;
  /** The guest's email address as it is now; null when it was removed since the message was written. */
  readonly guestEmail: string | null;
  readonly guestName: string;
  readonly listingName: string;
  /** The stay's check-in and check-out dates (YYYY-MM-DD), for the subject. */
  readonly startDate: string;
  readonly endDate: string;
  readonly confirmationCode: string;
  /** The message's text, exactly as stored. */
  readonly body: string;
}

/** How one attempt to email a message ended, as the sender saw it. */
export type MessageEmailOutcome =
  | { readonly kind: 'sent' }
  /** A 4xx answer, a timeout or a connection error: worth trying again later. */
  | { readonly kind: 'retry'; readonly error: string }
  /** A 5xx answer, or nothing to send to: trying again would not help. */
  | { readonly kind: 'failed'; readonly error: string };

/** What recording an attempt did; `recorded` is false when the message was no longer queued. */
export type RecordedMessageEmailAttempt =
  | { readonly recorded: false }
  | {
      readonly recorded: true;
      readonly deliveryStatus: 'queued' | 'sent' | 'failed';
      /** When the next attempt is due; null unless still queued. */
      readonly nextAttemptAt: Date | null;
    };

/**
 * The queue of messages to email: queued messages claimed by exactly one sender at a time, outcomes recorded
 * by the retry rules ({@link nextMessageEmailAttemptAt}). Any number of instances may share it.
 */
export interface MessageDeliveryQueue {
  /**
   * Claims up to `limit` queued messages due at `now` for this caller, oldest first: each is leased until
   * `now + leaseMs`, and no other caller gets it before its outcome is recorded or the lease runs out (a
   * sender that died).
   */
  claimDue(now: Date, limit: number, leaseMs: number): Promise<readonly DueMessageEmail[]>;
  /**
   * Records an attempt's outcome and ends its lease: `sent`; `queued` again for a later retry; or `failed`
   * with the error as `deliveryError` (retries run out, or a permanent refusal), which takes the message out
   * of the thread's response times. A message no longer queued is left as it is.
   * @param random - a number in [0, 1) for the retry's jitter.
   */
  recordAttempt(
    messageId: string,
    outcome: MessageEmailOutcome,
    now: Date,
    random: number,
  ): Promise<RecordedMessageEmailAttempt>;
}
