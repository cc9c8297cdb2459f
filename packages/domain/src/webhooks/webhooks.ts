import { z } from 'zod';
import type { Actor } from '../core/actor.ts';
import { isAllowedOutboundUrl } from '../core/outbound-url.ts';
import { type Page, pageInputShape } from '../core/paging.ts';

/** The events a webhook subscription can receive. */
export const webhookEvents = [
  'reservation.created',
  'reservation.updated',
  'reservation.cancelled',
  'message.created',
  'review.created',
  'calendar.updated',
  'calendar.import_conflict',
  'listing.updated',
] as const;
/** One of {@link webhookEvents}. */
export type WebhookEvent = (typeof webhookEvents)[number];

/**
 * How deliveries to a subscription are shaped. `innkeep`: the envelope `{id, event, created, data}`.
 * `hosttools`: the body `{type, document}` Host Tools integrations read, for the single URL they set with
 * setWebhook; an account has at most one such subscription.
 */
export const webhookFormats = ['innkeep', 'hosttools'] as const;
/** One of {@link webhookFormats}. */
export type WebhookFormat = (typeof webhookFormats)[number];

/** The events a Host Tools URL receives: the ones its body can describe (a reservation or a new message). */
export const hostToolsWebhookEvents = [
  'reservation.created',
  'reservation.updated',
  'reservation.cancelled',
  'message.created',
] as const satisfies readonly WebhookEvent[];

/** Most subscriptions one account may have; every event is sent to each of them. */
export const maxWebhooksPerAccount = 20;

/** Prefix of signing secrets, so a leaked one is recognisable in logs and secret scanners. */
export const webhookSecretPrefix = 'whsec_';

/** Validates a webhook subscription id. */
export const webhookIdSchema = z.string().min(1).max(64).describe('Webhook subscription id, e.g. whk_…');

const webhookUrlSchema = z
  .string()
  .trim()
  .max(2000)
  .refine(
    isAllowedOutboundUrl,
    'Must be an https:// URL (http:// is allowed only for localhost and 127.0.0.1).',
  )
  .describe('Where Innkeep POSTs events: an https URL (http only for localhost and 127.0.0.1).');

const webhookEventsSchema = z
  .array(z.enum(webhookEvents))
  .min(1)
  .max(webhookEvents.length)
  .refine((events) => new Set(events).size === events.length, 'Each event may appear only once.')
  .describe(`Events to receive, any of: ${webhookEvents.join(', ')}.`);

/** A webhook subscription as it is listed; the signing secret is never shown again after creation. */
export const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(webhookEvents)),
  format: z
    .enum(webhookFormats)
    .describe(
      'innkeep: deliveries are {id, event, created, data}; hosttools: the Host Tools body {type, document} ' +
        'of the single URL set with setWebhook.',
    ),
  active: z.boolean().describe('False when turned off by a user or disabled after repeated failures.'),
  disabledReason: z.string().nullable().describe('Why the subscription is off; null while active.'),
  consecutiveFailures: z.number().describe('Deliveries that failed in a row since the last success.'),
  previousSecretExpiresAt: z
    .string()
    .nullable()
    .describe('The previous secret still signs deliveries until then; null when only one secret signs.'),
  createdAt: z.string(),
});
/** A webhook subscription. */
export type Webhook = z.infer<typeof webhookSchema>;

/** A just-created subscription with its signing secret, the only time the secret is returned. */
export const createdWebhookSchema = webhookSchema.extend({
  secret: z
    .string()
    .describe(
      'Signing secret (whsec_…), shown only now: store it to verify the Webhook-Signature header. ' +
        'To replace it, rotate it.',
    ),
});
/** A new webhook subscription and its secret. */
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

/** Paging for {@link WebhookUseCases.list}. */
export const listWebhooksInputSchema = z.object({ ...pageInputShape });
/** Input of {@link WebhookUseCases.list}. */
export type ListWebhooksInput = z.input<typeof listWebhooksInputSchema>;

/** A new subscription. */
export const createWebhookInputSchema = z.object({
  url: webhookUrlSchema,
  events: webhookEventsSchema.optional().describe('Events to receive; omit for all of them.'),
});
/** Input of {@link WebhookUseCases.create}. */
export type CreateWebhookInput = z.input<typeof createWebhookInputSchema>;

/**
 * Changes to a subscription. Omitted fields stay as they are. The Host Tools subscription takes only
 * {@link hostToolsWebhookEvents}.
 */
export const updateWebhookInputSchema = z
  .object({
    webhookId: webhookIdSchema,
    url: webhookUrlSchema.optional(),
    events: webhookEventsSchema.optional().describe('Replaces the list of events to receive.'),
    active: z
      .boolean()
      .optional()
      .describe('false turns deliveries off; true turns them back on and resets the failure count.'),
  })
  .refine(
    (input) => input.url !== undefined || input.events !== undefined || input.active !== undefined,
    'Name at least one of url, events or active to change.',
  );
/** Input of {@link WebhookUseCases.update}. */
export type UpdateWebhookInput = z.input<typeof updateWebhookInputSchema>;

/** Names one subscription. */
export const webhookRefInputSchema = z.object({ webhookId: webhookIdSchema });
/** Input of {@link WebhookUseCases.delete}. */
export type WebhookRefInput = z.input<typeof webhookRefInputSchema>;

/** What {@link WebhookUseCases.delete} reports. */
export interface DeletedWebhook {
  readonly id: string;
  readonly deleted: true;
}

/** Hours the previous secret keeps signing after a rotation unless the caller says otherwise. */
const defaultSecretOverlapHours = 24;

/** Longest overlap a rotation may ask for, a week: long enough to redeploy any receiver, short enough to end. */
const maxSecretOverlapHours = 168;

/** A subscription whose signing secret is to be replaced, and for how long the old one still signs. */
export const rotateWebhookSecretInputSchema = z.object({
  webhookId: webhookIdSchema,
  overlapHours: z
    .number()
    .int()
    .min(0)
    .max(maxSecretOverlapHours)
    .default(defaultSecretOverlapHours)
    .describe(
      `Hours the old secret keeps signing beside the new one (0–${maxSecretOverlapHours}, default ` +
        `${defaultSecretOverlapHours}), so the receiver can switch without refusing a delivery; 0 stops it at once.`,
    ),
});
/** Input of {@link WebhookUseCases.rotateSecret}. */
export type RotateWebhookSecretInput = z.input<typeof rotateWebhookSecretInputSchema>;

/** A subscription with its new signing secret, the only time that secret is returned. */
export const rotatedWebhookSchema = createdWebhookSchema;
/** A subscription just given a new secret, and that secret. */
export type RotatedWebhook = z.infer<typeof rotatedWebhookSchema>;

/** The URL Host Tools integrations set, for {@link WebhookUseCases.setHostToolsUrl}. */
export const setHostToolsWebhookInputSchema = z.object({ url: webhookUrlSchema });
/** Input of {@link WebhookUseCases.setHostToolsUrl}. */
export type SetHostToolsWebhookInput = z.input<typeof setHostToolsWebhookInputSchema>;

/** What {@link WebhookUseCases.getHostToolsUrl} reports. */
export interface HostToolsWebhookUrl {
  /** The URL set, whether or not deliveries to it are on; null when none is set. */
  readonly webhookURL: string | null;
}

/** What {@link WebhookUseCases.deleteHostToolsUrl} reports. */
export interface DeletedHostToolsWebhook {
  /** False when no URL was set, so nothing was deleted. */
  readonly deleted: boolean;
}

/** Manages the account's webhook subscriptions. */
export interface WebhookUseCases {
  /** Lists subscriptions, oldest first, without their secrets. */
  list(actor: Actor, input: ListWebhooksInput): Promise<Page<Webhook>>;
  /** Subscribes a URL (to every event unless `events` says otherwise) and returns the secret once; audited. */
  create(actor: Actor, input: CreateWebhookInput): Promise<CreatedWebhook>;
  /** Changes the URL or events, or turns deliveries off or on; audited. */
  update(actor: Actor, input: UpdateWebhookInput): Promise<Webhook>;
  /**
   * Gives a subscription (the Host Tools one too) a new secret and returns it once. The old secret keeps
   * signing beside it for `overlapHours`, or stops at once for 0; a secret that was still overlapping from an
   * earlier rotation stops at once, so never more than two sign. `not_found` for another account's
   * subscription. Audited, without either secret.
   */
  rotateSecret(actor: Actor, input: RotateWebhookSecretInput): Promise<RotatedWebhook>;
  /** Deletes a subscription; deliveries stop at once. Audited. */
  delete(actor: Actor, input: WebhookRefInput): Promise<DeletedWebhook>;
  /** The account's Host Tools URL (its `hosttools` subscription), or null when none is set. */
  getHostToolsUrl(actor: Actor): Promise<HostToolsWebhookUrl>;
  /**
   * Sets the account's Host Tools URL: creates its `hosttools` subscription (to {@link hostToolsWebhookEvents},
   * counting toward {@link maxWebhooksPerAccount}) or points the existing one at the new URL and turns its
   * deliveries back on. Same URL rules as create; audited.
   */
  setHostToolsUrl(actor: Actor, input: SetHostToolsWebhookInput): Promise<Webhook>;
  /** Deletes the Host Tools subscription; `deleted` is false when there was none. Audited when it deletes. */
  deleteHostToolsUrl(actor: Actor): Promise<DeletedHostToolsWebhook>;
}
