import { z } from 'zod';
import type { Actor } from '../core/actor.ts';
import { localDateSchema } from '../core/dates.ts';
import { type Page, pageInputShape } from '../core/paging.ts';
import { listingIdSchema } from '../listings/listings.ts';
import { quoteLineItemTypes } from './quote.ts';

/** Largest number of days ahead a last-minute rule may look. */
export const maxLastMinuteDays = 365;
/** Largest gap an orphan-gap rule may look for. */
export const maxOrphanGapNights = 60;

const percentAdjustmentSchema = z.object({
  kind: z.literal('percent').describe('A percent of the price so far.'),
  amount: z
    .number()
    .min(-90)
    .max(500)
    .multipleOf(0.01)
    .refine((amount) => amount !== 0, 'A 0% adjustment changes nothing.')
    .describe('Signed percent: 15 raises the price 15 %, −10 takes 10 % off.'),
});

const fixedAdjustmentSchema = z.object({
  kind: z.literal('fixed').describe('An amount of money.'),
  amount: z
    .number()
    .min(-100_000)
    .max(100_000)
    .multipleOf(0.01)
    .refine((amount) => amount !== 0, 'A 0 adjustment changes nothing.')
    .describe(
      'Signed amount in each listing’s own currency: 20 adds 20.00, −5 takes 5.00 off (whole units ' +
        'where a currency has no cents).',
    ),
});

/** How a rule changes the price: a signed percent or a signed amount. */
export const pricingAdjustmentSchema = z
  .discriminatedUnion('kind', [percentAdjustmentSchema, fixedAdjustmentSchema])
  .describe('How the rule changes the nightly price.');

const dayOfWeekSchema = z.number().int().min(0).max(6).describe('0 = Sunday … 6 = Saturday.');

/** A pricing rule as every route returns it. */
export const pricingRuleSchema = z.object({
  id: z.string().describe('Pricing rule id, pru_…'),
  name: z.string().describe('Name the host gave the rule.'),
  position: z.number().int().describe('Place in the application order; lower applies first.'),
  enabled: z.boolean().describe('Disabled rules are kept but change no price.'),
  listingIds: z
    .array(z.string())
    .nullable()
    .describe('Listings the rule applies to; null means every listing of the account, present and future.'),
  adjustment: pricingAdjustmentSchema,
  daysOfWeek: z
    .array(z.number().int())
    .nullable()
    .describe('Only nights on these days of the week (0 = Sunday); null means every day.'),
  startDate: localDateSchema.nullable().describe('Only nights on or after this date; null means no start.'),
  endDate: localDateSchema.nullable().describe('Only nights on or before this date; null means no end.'),
  lastMinuteDays: z
    .number()
    .int()
    .nullable()
    .describe('Only nights from the listing’s today up to this many days ahead; null means any time.'),
  orphanGapMaxNights: z
    .number()
    .int()
    .nullable()
    .describe(
      'Only open nights in a gap of at most this many nights between two booked or blocked nights; null means any night.',
    ),
  createdAt: z.string().describe('ISO 8601 timestamp.'),
  updatedAt: z.string().describe('ISO 8601 timestamp.'),
});
/** A pricing rule. */
export type PricingRule = z.infer<typeof pricingRuleSchema>;

/** Filters and paging for {@link PricingUseCases.listRules}. */
export const listPricingRulesInputSchema = z.object({
  ...pageInputShape,
  listingId: listingIdSchema
    .optional()
    .describe('Only rules that apply to this listing (its own and the account-wide ones).'),
});
/** Input of {@link PricingUseCases.listRules}. */
export type ListPricingRulesInput = z.input<typeof listPricingRulesInputSchema>;

/** Validates a pricing rule id. */
export const pricingRuleIdSchema = z.string().min(1).max(64).describe('Pricing rule id, e.g. pru_…');

/** Most rules one reorder may list: it names every rule of the account, so this bounds the request. */
const maxReorderedPricingRules = 2000;

// The fields a rule is made of, shared by create and update so both validate them the same way.
const ruleNameSchema = z.string().trim().min(1).max(100).describe('Short name, e.g. "Weekend uplift".');
const ruleListingIdsSchema = z
  .array(listingIdSchema)
  .min(1)
  .max(2000)
  .refine((ids) => new Set(ids).size === ids.length, 'Name each listing once.');
const ruleDaysOfWeekSchema = z
  .array(dayOfWeekSchema)
  .min(1)
  .max(7)
  .refine((days) => new Set(days).size === days.length, 'Name each day of the week once.');
const ruleLastMinuteDaysSchema = z.number().int().min(0).max(maxLastMinuteDays);
const ruleOrphanGapMaxNightsSchema = z.number().int().min(1).max(maxOrphanGapNights);

/** A new pricing rule. Every condition given must hold for the rule to change a night's price. */
export const createPricingRuleInputSchema = z
  .object({
    name: ruleNameSchema,
    adjustment: pricingAdjustmentSchema,
    listingIds: ruleListingIdsSchema
      .optional()
      .describe('Listings it applies to; omit for all, also future ones.'),
    daysOfWeek: ruleDaysOfWeekSchema.optional().describe('Only nights on these weekdays.'),
    startDate: localDateSchema.optional().describe('Only nights from this date.'),
    endDate: localDateSchema.optional().describe('Only nights up to this date, included.'),
    lastMinuteDays: ruleLastMinuteDaysSchema
      .optional()
      .describe('Only nights up to this many days ahead (0 = tonight only).'),
    orphanGapMaxNights: ruleOrphanGapMaxNightsSchema
      .optional()
      .describe('Only open nights in gaps of at most this many nights between held nights.'),
    enabled: z.boolean().default(true).describe('Create it switched on (default) or off.'),
  })
  .superRefine((input, context) => {
    if (input.startDate !== undefined && input.endDate !== undefined && input.endDate < input.startDate) {
      context.addIssue({
        code: 'custom',
        path: ['endDate'],
        message: 'endDate must not be before startDate.',
      });
    }
  });
/** Input of {@link PricingUseCases.createRule}. */
export type CreatePricingRuleInput = z.input<typeof createPricingRuleInputSchema>;

/**
 * Changes to a pricing rule. Omitted fields stay as they are; `null` removes a condition. The rule as
 * changed must satisfy everything a new rule must (e.g. endDate not before startDate).
 */
export const updatePricingRuleInputSchema = z
  .object({
    ruleId: pricingRuleIdSchema,
    name: ruleNameSchema.optional(),
    adjustment: pricingAdjustmentSchema.optional(),
    listingIds: ruleListingIdsSchema
      .nullable()
      .optional()
      .describe(
        'Replaces the listings the rule applies to; null applies it to every listing, including future ones.',
      ),
    daysOfWeek: ruleDaysOfWeekSchema
      .nullable()
      .optional()
      .describe('Replaces the days of the week (0 = Sunday … 6 = Saturday); null means every day.'),
    startDate: localDateSchema
      .nullable()
      .optional()
      .describe('Only nights on or after this date (inclusive); null removes the start.'),
    endDate: localDateSchema
      .nullable()
      .optional()
      .describe('Only nights on or before this date (inclusive); null removes the end.'),
    lastMinuteDays: ruleLastMinuteDaysSchema
      .nullable()
      .optional()
      .describe(
        `Only nights from the listing’s today up to this many days ahead (0–${maxLastMinuteDays}); null removes the condition.`,
      ),
    orphanGapMaxNights: ruleOrphanGapMaxNightsSchema
      .nullable()
      .optional()
      .describe(
        `Only open nights in a gap of at most this many nights (1–${maxOrphanGapNights}); null removes the condition.`,
      ),
    enabled: z
      .boolean()
      .optional()
      .describe('false keeps the rule but stops it changing prices; true turns it on.'),
  })
  .refine(
    (input) => Object.entries(input).some(([key, value]) => key !== 'ruleId' && value !== undefined),
    'Name at least one field to change besides ruleId.',
  );
/** Input of {@link PricingUseCases.updateRule}. */
export type UpdatePricingRuleInput = z.input<typeof updatePricingRuleInputSchema>;

/** Names one pricing rule. */
export const pricingRuleRefInputSchema = z.object({ ruleId: pricingRuleIdSchema });
/** Input of {@link PricingUseCases.deleteRule}. */
export type PricingRuleRefInput = z.input<typeof pricingRuleRefInputSchema>;

/** The new application order of an account's pricing rules. */
export const reorderPricingRulesInputSchema = z.object({
  ruleIds: z
    .array(pricingRuleIdSchema)
    .min(1)
    .max(maxReorderedPricingRules)
    .refine((ids) => new Set(ids).size === ids.length, 'Name each rule once.')
    .describe(
      'Every pricing rule id of the account, each once, in the order the rules should apply (first applies first).',
    ),
});
/** Input of {@link PricingUseCases.reorderRules}. */
export type ReorderPricingRulesInput = z.input<typeof reorderPricingRulesInputSchema>;

/** What {@link PricingUseCases.deleteRule} reports. */
export interface DeletedPricingRule {
  readonly id: string;
  readonly deleted: true;
}

/** A stay to price. */
export const quoteInputSchema = z.object({
  listingId: listingIdSchema,
  startDate: localDateSchema.describe(
    'Check-in date (the first night), YYYY-MM-DD in the listing’s time zone.',
  ),
  endDate: localDateSchema.describe('Check-out date (the morning after the last night), YYYY-MM-DD.'),
  guests: z.number().int().min(1).max(100).describe('Number of guests, 1–100.'),
});
/** Input of {@link PricingUseCases.getQuote}. */
export type QuoteInput = z.input<typeof quoteInputSchema>;

/** What a stay costs, in major units of `currency`. The line items add up to `total`. */
export const quoteSchema = z.object({
  listingId: z.string(),
  currency: z.string().describe('ISO 4217 code of every amount.'),
  startDate: z.string().describe('Check-in date.'),
  endDate: z.string().describe('Check-out date.'),
  nights: z.number().int(),
  guests: z.number().int(),
  nightly: z
    .array(z.object({ date: z.string(), price: z.number() }))
    .describe('Price of each night, after overrides and pricing rules (direct channel).'),
  accommodation: z.number().describe('Sum of the nightly prices.'),
  discount: z.number().describe('Length-of-stay discount taken off accommodation (zero or positive).'),
  cleaningFee: z.number(),
  extraGuestFee: z.number().describe('Per night for each guest above the number included.'),
  taxes: z.number(),
  total: z.number().describe('What the guest pays: accommodation − discount + fees + taxes.'),
  lineItems: z
    .array(z.object({ type: z.enum(quoteLineItemTypes), name: z.string(), amount: z.number() }))
    .describe('Money lines; the discount line is negative; zero lines are left out.'),
});
/** A priced stay. */
export type Quote = z.infer<typeof quoteSchema>;

/** Prices stays and manages the rules that adjust nightly prices. */
export interface PricingUseCases {
  /**
   * Prices a stay. Refuses, with a reason the caller can act on, stays the listing cannot take: disabled
   * listing, too short or too long, too many guests, closed arrival or departure (`failed_precondition`),
   * or nights already booked or blocked (`conflict`, with the clashing ranges in `details.clashes`).
   */
  getQuote(actor: Actor, input: QuoteInput): Promise<Quote>;
  /** The account's pricing rules in the order they apply. */
  listRules(actor: Actor, input: ListPricingRulesInput): Promise<Page<PricingRule>>;
  /** Adds a rule after all existing ones; audited. Unknown listing ids are `not_found`. */
  createRule(actor: Actor, input: CreatePricingRuleInput): Promise<PricingRule>;
  /**
   * Changes a rule's name, adjustment, conditions or switch; its place in the order stays. Refused with
   * `invalid_argument` when the rule as changed would not be a valid new rule; audited. Unknown rule or
   * listing ids are `not_found`.
   */
  updateRule(actor: Actor, input: UpdatePricingRuleInput): Promise<PricingRule>;
  /** Deletes a rule; the others keep their order (positions close up behind it). Audited. */
  deleteRule(actor: Actor, input: PricingRuleRefInput): Promise<DeletedPricingRule>;
  /**
   * Puts the account's rules in a new application order, given as the complete list of their ids; a missing
   * or unknown id is `invalid_argument` naming them. Returns every rule in the new order; audited.
   */
  reorderRules(actor: Actor, input: ReorderPricingRulesInput): Promise<PricingRule[]>;
}
