import { z } from 'zod';
import type { Actor } from '../core/actor.ts';
import { type Page, pageInputShape } from '../core/paging.ts';
import {
  hostToolsWebhookEvents,
  type WebhookEvent,
  type WebhookFormat,
  type WebhookRefInput,
  webhookEvents,
  webhookIdSchema,
} from './webhooks.ts';

/**
 * The event of a test a host sends to one subscription (see {@link WebhookDeliveryUseCases.sendTest}), with
 * data `{webhookId}`. Not one of {@link webhookEvents}: nobody subscribes to it, and dispatch never fans it out.
 */
export const webhookTestEvent = 'webhook.test' as const;

/** What a delivery carries: a subscribed event, or a test. */
export type WebhookDeliveryEvent = WebhookEvent | typeof webhookTestEvent;

/**
 * Where a delivery stands. `pending`: an attempt is due or scheduled. `delivered`: a receiver answered 2xx.
 * `failed`: retried for a day without success (a test: its one attempt failed), given up.
 */
export const webhookDeliveryStatuses = ['pending', 'delivered', 'failed'] as const;
/** One of {@link webhookDeliveryStatuses}. */
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number];

/**
 * True when a subscription with these settings receives `event`: it asked for the event, and, for the Host
 * Tools URL, its body can describe it (a `hosttools` row is kept to those events, this holds if one is not).
 */
export function subscriptionReceives(
  subscription: { readonly events: readonly string[]; readonly format: string },
  event: WebhookEvent,
): boolean {
  if (!subscription.events.includes(event)) return false;
  return subscription.format !== 'hosttools' || (hostToolsWebhookEvents as readonly string[]).includes(event);
}

/** One delivery in a subscription's log: an event sent (or being sent) to it, with its last outcome. */
export const webhookDeliverySchema = z.object({
  id: z.string(),
  eventId: z.string().describe('The event id, sent with every attempt; receivers deduplicate on it.'),
  event: z
    .enum([...webhookEvents, webhookTestEvent])
    .describe(`The event sent; ${webhookTestEvent} for a test a host sent to this subscription.`),
  status: z.enum(webhookDeliveryStatuses),
  attempts: z.number().describe('Attempts made in the current schedule (a redelivery starts a new one).'),
  nextAttemptAt: z.string().nullable().describe('When the next attempt is due; null unless pending.'),
  lastAttemptAt: z.string().nullable(),
  lastStatusCode: z
    .number()
    .nullable()
    .describe("The receiver's last HTTP status; null if it never answered."),
  lastError: z.string().nullable().describe('Why the last attempt failed; null after a success.'),
  lastLatencyMs: z.number().nullable(),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
});
/** A webhook delivery. */
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** A subscription's deliveries, newest first, a page at a time. */
export const listWebhookDeliveriesInputSchema = z.object({ webhookId: webhookIdSchema, ...pageInputShape });
/** Input of {@link WebhookDeliveryUseCases.listDeliveries}. */
export type ListWebhookDeliveriesInput = z.input<typeof listWebhookDeliveriesInputSchema>;

/** Names one delivery. */
export const webhookDeliveryRefInputSchema = z.object({
  deliveryId: z.string().min(1).max(64).describe('Webhook delivery id, e.g. whd_…'),
});
/** Input of {@link WebhookDeliveryUseCases.redeliver}. */
export type WebhookDeliveryRefInput = z.input<typeof webhookDeliveryRefInputSchema>;

/** One attempt a sender has claimed: what to send, where, and how to sign it. */
export interface DueWebhookDelivery {
  readonly deliveryId: string;
  /** The account whose event it is, for reading what a Host Tools body describes. */
  readonly accountId: string;
  /** Which attempt this is in the delivery's schedule, 1 for the first. */
  readonly attempt: number;
  readonly eventId: string;
  readonly event: WebhookDeliveryEvent;
  /** When the write happened: the envelope's `created`. */
  readonly created: Date;
  readonly data: unknown;
  readonly url: string;
  /** The secrets that sign it: the current one, then the previous one while a rotation's overlap lasts. */
  readonly secrets: readonly string[];
  readonly format: WebhookFormat;
}

/** How an attempt ended, as the sender saw it. */
export type WebhookAttemptOutcome =
  | { readonly ok: true; readonly statusCode: number; readonly latencyMs: number }
  | {
      readonly ok: false;
      /** The receiver's status when it answered (non-2xx); absent for timeouts and network errors. */
      readonly statusCode?: number;
      readonly error: string;
      readonly latencyMs: number;
    };

/** A successful attempt, for {@link WebhookDeliveryQueue.recordDelivered}. */
export interface DeliveredWebhookAttempt {
  readonly deliveryId: string;
  /** The receiver's 2xx status. */
  readonly statusCode: number;
  readonly latencyMs: number;
}

/** What recording an attempt did; `recorded` is false when the delivery was no longer pending. */
export type RecordedWebhookAttempt =
  | { readonly recorded: false }
  | {
      readonly recorded: true;
      readonly status: WebhookDeliveryStatus;
      /** When the next attempt is due; null unless the delivery is still pending. */
      readonly nextAttemptAt: Date | null;
      /** True when this failure disabled the subscription. */
      readonly subscriptionDisabled: boolean;
    };

/** What dispatching fanned out. */
export interface DispatchedWebhookEvents {
  readonly events: number;
  readonly deliveries: number;
}

/**
 * What a host does with a subscription's deliveries: read its log and send one again. The domain's
 * `webhookDeliveries`; the queue below does this and more.
 */
export interface WebhookDeliveryUseCases {
  /**
   * Sends a delivered or failed delivery of the actor's account again: it is pending and due now, with a new
   * schedule; returns it as listed. `failed_precondition` while it is still pending. Audited.
   */
  redeliver(actor: Actor, input: WebhookDeliveryRefInput): Promise<WebhookDelivery>;
  /**
   * Sends a {@link webhookTestEvent} event with data `{webhookId}` to that subscription only, even while it is
   * turned off (so a fixed receiver can be checked before turning it back on): one pending delivery, due now,
   * returned as listed. A test is attempted once (a redelivery, once again), and its outcome never counts
   * toward the subscription's failures or disables it. `not_found` for another account's subscription.
   * Audited.
   */
  sendTest(actor: Actor, input: WebhookRefInput): Promise<WebhookDelivery>;
  /** A subscription's deliveries, newest first; `not_found` for a subscription of another account. */
  listDeliveries(actor: Actor, input: ListWebhookDeliveriesInput): Promise<Page<WebhookDelivery>>;
}

/**
 * The delivery queue: events fanned out to subscriptions, attempts claimed by exactly one sender at a time,
 * outcomes scheduled by the retry rules. Any number of instances may share it.
 */
export interface WebhookDeliveryQueue extends WebhookDeliveryUseCases {
  /**
   * Takes up to `limit` undispatched events, oldest first, and creates a pending delivery, due now, for each
   * active subscription of the event's account that receives it; each event is dispatched once.
   */
  dispatch(limit: number): Promise<DispatchedWebhookEvents>;
  /**
   * Claims up to `limit` deliveries due at `now` for this caller: each is leased until `now + leaseMs`, and
   * no other caller gets it before its outcome is recorded or the lease runs out (a sender that died).
   */
  claimDue(now: Date, limit: number, leaseMs: number): Promise<readonly DueWebhookDelivery[]>;
  /**
   * Records many successful attempts at once, as {@link recordAttempt} records each: delivered, lease ended,
   * the subscription's failure count reset (not by a test). One statement for the lot, since successes are
   * the common case and a transaction each was most of a delivery's cost. Returns the ids recorded; a
   * delivery no longer pending is left as it is and not returned.
   */
  recordDelivered(attempts: readonly DeliveredWebhookAttempt[], now: Date): Promise<readonly string[]>;
  /**
   * Records an attempt's outcome and ends its lease: delivered, retried later, or given up (which may disable
   * the subscription). A delivery no longer pending is left as it is.
   * @param random - a number in [0, 1) for the retry's jitter.
   */
  recordAttempt(
    deliveryId: string,
    outcome: WebhookAttemptOutcome,
    now: Date,
    random: number,
  ): Promise<RecordedWebhookAttempt>;
}
