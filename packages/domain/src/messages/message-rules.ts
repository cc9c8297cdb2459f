import { z } from 'zod';
import type { Actor } from '../core/actor.ts';
import { type Page, pageInputShape } from '../core/paging.ts';
import { channelSchema, channels, listingIdSchema } from '../listings/listings.ts';
import { templateVariables, unknownTemplateVariables } from './template-variables.ts';

/**
 * What starts a rule. `inquiry`, `booking_confirmed` and `cancelled` are events (the rule waits
 * `offsetDays` after them); `check_in`, `check_out` and `review_request` are dated relative to the stay
 * (check-in, check-out, check-out), `during_stay` counts days after check-in.
 */
export const messageRuleTriggers = [
  'inquiry',
  'booking_confirmed',
  'check_in',
  'during_stay',
  'check_out',
  'cancelled',
  'review_request',
] as const;
/** One of {@link messageRuleTriggers}. */
export type MessageRuleTrigger = (typeof messageRuleTriggers)[number];

/**
 * When `during_stay` and `review_request` rules without a send time go out, listing-local HH:MM. (Event
 * triggers go when due; `check_in` and `check_out` at the stay's check-in or check-out hour.)
 */
export const stayRuleDefaultSendTime = '10:00';

/** What a rule without a send time does, for the `sendTime` descriptions a model and a client read. */
const withoutSendTime =
  'inquiry, booking_confirmed and cancelled go when due, check_in and check_out at the stay’s check-in ' +
  `or check-out hour, during_stay and review_request at ${stayRuleDefaultSendTime}`;

/** Triggers whose offset counts days after something that has happened, so it cannot be negative. */
const forwardOnlyTriggers: readonly MessageRuleTrigger[] = [
  'inquiry',
  'booking_confirmed',
  'cancelled',
  'during_stay',
];

/** Validates a message rule id. */
export const messageRuleIdSchema = z.string().min(1).max(64).describe('Message rule id, e.g. mru_…');

/** An automated message rule as every route returns it. */
export const messageRuleSchema = z.object({
  id: z.string(),
  name: z.string(),
  trigger: z.enum(messageRuleTriggers),
  offsetDays: z.number().describe('Days after (positive) or before (negative) the trigger.'),
  sendTime: z.string().nullable().describe(`Listing-local HH:MM to send at; null: ${withoutSendTime}.`),
  body: z.string(),
  lastMinuteBody: z
    .string()
    .nullable()
    .describe('Check-in text for bookings made after the regular send time had passed.'),
  listingIds: z.array(z.string()).nullable().describe('Listings the rule covers; null means all listings.'),
  channels: z.array(channelSchema).nullable().describe('Channels the rule covers; null means all channels.'),
  paused: z.boolean(),
  pausedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
/** An automated message rule. */
export type MessageRule = z.infer<typeof messageRuleSchema>;

/** Filters and paging for {@link MessageRuleUseCases.list}. */
export const listMessageRulesInputSchema = z.object({
  ...pageInputShape,
  listingId: listingIdSchema
    .optional()
    .describe('Only rules that apply to this listing (its own and all-listing rules).'),
});
/** Input of {@link MessageRuleUseCases.list}. */
export type ListMessageRulesInput = z.input<typeof listMessageRulesInputSchema>;

const known = templateVariables.map((variable) => variable.name).join(', ');

/** Message text whose `{{variables}}` must all be known ones. */
const templateTextSchema = z
  .string()
  .trim()
  .min(1)
  .max(5000)
  .superRefine((text, context) => {
    const unknown = unknownTemplateVariables(text);
    if (unknown.length > 0) {
      context.addIssue({
        code: 'custom',
        message: `Unknown template variables ${unknown.map((name) => `{{${name}}}`).join(', ')}. Known variables: ${known}.`,
        params: { unknownVariables: unknown },
      });
    }
  });

// The fields a rule is made of, shared by create and update so both validate them the same way.
const ruleNameSchema = z.string().trim().min(1).max(200);
const ruleTriggerSchema = z.enum(messageRuleTriggers);
const ruleOffsetDaysSchema = z.number().int().min(-60).max(60);
const ruleSendTimeSchema = z
  .string()
  .regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, 'Use 24-hour HH:MM, e.g. 09:30.');
const ruleListingIdsSchema = z.array(listingIdSchema).min(1).max(2000);
const ruleChannelsSchema = z.array(channelSchema).min(1).max(channels.length);

/** Input of {@link MessageRuleUseCases.create}. */
export const createMessageRuleInputSchema = z
  .object({
    name: ruleNameSchema.describe('A name for the host, e.g. "Check-in instructions".'),
    trigger: ruleTriggerSchema.describe('What starts the rule; during_stay counts from check-in.'),
    offsetDays: ruleOffsetDaysSchema
      .default(0)
      .describe('Days after (positive) or before (negative) the trigger; default 0.'),
    sendTime: ruleSendTimeSchema
      .optional()
      .describe(`Listing-local HH:MM to send at; omitted: ${withoutSendTime}.`),
    body: templateTextSchema.describe('The message; may use {{variables}} such as {{guest_first_name}}.'),
    lastMinuteBody: templateTextSchema
      .optional()
      .describe('check_in only: the text for bookings made after the send time passed.'),
    listingIds: ruleListingIdsSchema
      .optional()
      .describe('Listings it covers; omit for all, also future ones.'),
    channels: ruleChannelsSchema.optional().describe('Channels the rule covers; omit for all.'),
  })
  .refine((input) => input.lastMinuteBody === undefined || input.trigger === 'check_in', {
    path: ['lastMinuteBody'],
    message: 'A last-minute text only applies to check_in rules.',
  })
  .refine((input) => input.offsetDays >= 0 || !forwardOnlyTriggers.includes(input.trigger), {
    path: ['offsetDays'],
    message:
      'This trigger is an event that has to happen first; use 0 or a positive number of days after it.',
  });
/** Input of {@link MessageRuleUseCases.create}. */
export type CreateMessageRuleInput = z.input<typeof createMessageRuleInputSchema>;

/**
 * Changes to a message rule. Omitted fields stay as they are; `null` removes a setting. The rule as changed
 * must satisfy everything a new rule must (e.g. a last-minute text only on a check_in rule).
 */
export const updateMessageRuleInputSchema = z
  .object({
    ruleId: messageRuleIdSchema,
    name: ruleNameSchema.optional().describe('A name for the host.'),
    trigger: ruleTriggerSchema.optional().describe('What starts the rule.'),
    offsetDays: ruleOffsetDaysSchema
      .optional()
      .describe('Days after (positive) or before (negative) the trigger, −60 to 60.'),
    sendTime: ruleSendTimeSchema
      .nullable()
      .optional()
      .describe(`Listing-local time to send, HH:MM; null: ${withoutSendTime}.`),
    body: templateTextSchema
      .optional()
      .describe('The message, up to 5000 characters; may use {{variables}}.'),
    lastMinuteBody: templateTextSchema
      .nullable()
      .optional()
      .describe(
        'check_in rules only: the text for bookings made after the regular send time; null removes it.',
      ),
    listingIds: ruleListingIdsSchema
      .nullable()
      .optional()
      .describe('Replaces the listings the rule covers; null covers all listings, including future ones.'),
    channels: ruleChannelsSchema
      .nullable()
      .optional()
      .describe('Replaces the channels the rule covers; null covers all.'),
  })
  .refine(
    (input) => Object.entries(input).some(([key, value]) => key !== 'ruleId' && value !== undefined),
    'Name at least one field to change besides ruleId.',
  );
/** Input of {@link MessageRuleUseCases.update}. */
export type UpdateMessageRuleInput = z.input<typeof updateMessageRuleInputSchema>;

/** Input of {@link MessageRuleUseCases.pause}, {@link MessageRuleUseCases.resume} and {@link MessageRuleUseCases.delete}. */
export const messageRuleRefInputSchema = z.object({ ruleId: messageRuleIdSchema });
/** Input naming one message rule. */
export type MessageRuleRefInput = z.input<typeof messageRuleRefInputSchema>;

/** What {@link MessageRuleUseCases.delete} reports. */
export interface DeletedMessageRule {
  readonly id: string;
  readonly deleted: true;
}

/** Reads and manages automated message rules. */
export interface MessageRuleUseCases {
  /** Lists rules by name; filtering by a listing outside the account is `not_found`. */
  list(actor: Actor, input: ListMessageRulesInput): Promise<Page<MessageRule>>;
  /**
   * Creates an active rule; audited. Text using unknown `{{variables}}` is refused with `invalid_argument`
   * naming them; listing ids outside the account are `not_found`.
   */
  create(actor: Actor, input: CreateMessageRuleInput): Promise<MessageRule>;
  /** Stops a rule from sending; pausing a paused rule changes nothing. Audited when it changes. */
  pause(actor: Actor, input: MessageRuleRefInput): Promise<MessageRule>;
  /** Lets a paused rule send again; resuming an active rule changes nothing. Audited when it changes. */
  resume(actor: Actor, input: MessageRuleRefInput): Promise<MessageRule>;
  /**
   * Changes a rule; refused with `invalid_argument` when the rule as changed would not be a valid new rule
   * (unknown `{{variables}}` are named). Guests who already got the rule's message do not get it again.
   * Listing ids outside the account are `not_found`. Audited.
   */
  update(actor: Actor, input: UpdateMessageRuleInput): Promise<MessageRule>;
  /** Deletes a rule; it sends nothing more, and messages it sent stay in their threads. Audited. */
  delete(actor: Actor, input: MessageRuleRefInput): Promise<DeletedMessageRule>;
}
