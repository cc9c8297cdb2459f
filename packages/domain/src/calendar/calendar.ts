import { z } from 'zod';
import type { Actor } from '../core/actor.ts';
import { areLocalDates, daysBetween, localDateSchema } from '../core/dates.ts';
import { amountSchema } from '../core/money.ts';
import { channelSchema, listingIdSchema } from '../listings/listings.ts';
import { blockReasons, hostBlockReasons } from './holds.ts';

/** Most days one calendar read returns. */
export const maxCalendarDays = 366;
/** Most entries one setPrices call takes. */
export const maxPriceEntries = 366;
/** Most nights one setAvailability call blocks or opens. */
export const maxAvailabilityNights = 1125;

// Refinements also run when a date failed its format check; only measure ranges of real dates.

/** Whether a night can be booked: open, taken by a reservation, or blocked by the host. */
export const calendarDayStatuses = ['available', 'booked', 'blocked'] as const;
/** One of {@link calendarDayStatuses}. */
export type CalendarDayStatus = (typeof calendarDayStatuses)[number];

/** Validates why nights are blocked. */
export const blockReasonSchema = z
  .enum(hostBlockReasons)
  .describe('Why the nights are blocked: owner stay, maintenance or manual.');

/** One night of a listing's calendar. Money in major units of the calendar's currency. */
export const calendarDaySchema = z.object({
  date: z.string().describe('The night, YYYY-MM-DD in the listing’s time zone.'),
  status: z.enum(calendarDayStatuses).describe('available, booked (a reservation holds it) or blocked.'),
  reservationId: z.string().nullable().describe('The reservation holding the night, when booked.'),
  blockReason: z
    .enum(blockReasons)
    .nullable()
    .describe('Why the night is blocked: owner, maintenance, manual, or channel (from its calendar).'),
  price: z
    .number()
    .describe(
      'Effective nightly price: the per-date price or the base price, after pricing rules and the floor.',
    ),
  minNights: z.number().int().describe('Minimum stay for arrivals on this date.'),
  closedToArrival: z.boolean().describe('True when guests cannot check in on this date.'),
  closedToDeparture: z.boolean().describe('True when guests cannot check out on this date.'),
  channelPrices: z
    .object({
      airbnb: z.number().optional(),
      vrbo: z.number().optional(),
      booking: z.number().optional(),
      direct: z.number().optional(),
    })
    .describe('Per-channel prices that replace the effective price on that channel; absent channels use it.'),
  appliedRuleIds: z.array(z.string()).describe('Pricing rules that changed this night’s price, in order.'),
  note: z.string().nullable().describe('The block’s note when blocked, else the host’s note for the date.'),
});
/** One night of a listing's calendar. */
export type CalendarDay = z.infer<typeof calendarDaySchema>;

/** One step between a night's stored price and what a guest pays: a pricing rule, or the floor. */
export const priceStepSchema = z.object({
  by: z
    .enum(['pricing_rule', 'minimum_price'])
    .describe('pricing_rule: a rule changed the price; minimum_price: the floor raised it.'),
  ruleId: z.string().optional().describe('The pricing rule, when by is pricing_rule.'),
  name: z.string().describe('The rule’s name, or which floor: the listing’s minimum price, or zero.'),
  priceAfter: z.number().describe('The price after this step.'),
});
/** One step of {@link PriceOutcome.steps}. */
export type PriceStep = z.infer<typeof priceStepSchema>;

/** One price a setPrices call set on a date, and what a guest now pays for that night. */
export const priceOutcomeSchema = z.object({
  channel: channelSchema.optional().describe('The channel the price was set for; absent: every channel.'),
  askedPrice: z.number().nullable().describe('The price asked; null removed the override.'),
  storedPrice: z
    .number()
    .describe(
      'The price the night now starts from: the asked price, or after a removal the base price ' +
        '(for a channel: the every-channel price).',
    ),
  guestPrice: z.number().describe('What a guest pays for the night, on that channel when one is named.'),
  steps: z
    .array(priceStepSchema)
    .describe('What turned storedPrice into guestPrice, in order; empty when they are equal.'),
});
/** One price a setPrices call set on a date, and what a guest now pays for that night. */
export type PriceOutcome = z.infer<typeof priceOutcomeSchema>;

/** A night a setPrices call changed, as the calendar now shows it, with what came of each price it set. */
export const changedDaySchema = calendarDaySchema.extend({
  priceOutcomes: z
    .array(priceOutcomeSchema)
    .describe('Per price set on the date: asked, stored, what a guest pays and why. Empty: no price set.'),
});
/** A night a setPrices call changed. */
export type ChangedDay = z.infer<typeof changedDaySchema>;

/** A listing's calendar for a range of dates. */
export const calendarSchema = z.object({
  listingId: z.string(),
  currency: z.string().describe('ISO 4217 code of every price.'),
  timeZone: z.string().describe('The listing’s IANA time zone; every date is local to it.'),
  days: z.array(calendarDaySchema),
});
/** A listing's calendar for a range of dates. */
export type Calendar = z.infer<typeof calendarSchema>;

/** Which dates of which listing to read. */
export const getCalendarInputSchema = z
  .object({
    listingId: listingIdSchema,
    startDate: localDateSchema.describe('First date to return (inclusive).'),
    endDate: localDateSchema.describe(
      `Last date to return (inclusive); at most ${maxCalendarDays} days in all.`,
    ),
  })
  .superRefine((input, context) => {
    if (!areLocalDates(input.startDate, input.endDate)) return;
    const days = daysBetween(input.startDate, input.endDate) + 1;
    if (days < 1) {
      context.addIssue({
        code: 'custom',
        path: ['endDate'],
        message: 'endDate must not be before startDate.',
      });
    } else if (days > maxCalendarDays) {
      context.addIssue({
        code: 'custom',
        path: ['endDate'],
        message: `Read at most ${maxCalendarDays} days at a time; this range has ${days}.`,
      });
    }
  });
/** Input of {@link CalendarUseCases.get}. */
export type GetCalendarInput = z.input<typeof getCalendarInputSchema>;

/** One date's changes. Omitted fields stay as they are. */
export const priceEntrySchema = z.object({
  date: localDateSchema.describe('The night to change.'),
  price: amountSchema
    .nullable()
    .optional()
    .describe('Nightly price (pricing rules apply on top); null removes this override.'),
  minNights: z
    .number()
    .int()
    .min(1)
    .max(365)
    .nullable()
    .optional()
    .describe('Minimum stay for arrivals; null restores the listing’s.'),
  closedToArrival: z.boolean().optional().describe('True stops check-ins on this date.'),
  closedToDeparture: z.boolean().optional().describe('True stops check-outs on this date.'),
  channel: channelSchema
    .optional()
    .describe('Price for this channel only; then give price and nothing else.'),
});
/** One entry of {@link setPricesInputSchema}. */
export type PriceEntry = z.infer<typeof priceEntrySchema>;

/** Per-date prices and restrictions for one listing. */
export const setPricesInputSchema = z
  .object({
    listingId: listingIdSchema,
    prices: z
      .array(priceEntrySchema)
      .min(1)
      .max(maxPriceEntries)
      .describe(`1–${maxPriceEntries} changes, at most one per date and channel.`),
  })
  .superRefine((input, context) => {
    const seen = new Set<string>();
    input.prices.forEach((entry, index) => {
      const key = `${entry.date}|${entry.channel ?? ''}`;
      if (seen.has(key)) {
        context.addIssue({
          code: 'custom',
          path: ['prices', index, 'date'],
          message: `${entry.date}${entry.channel ? ` (${entry.channel})` : ''} appears more than once.`,
        });
      }
      seen.add(key);
      const restrictions = [entry.minNights, entry.closedToArrival, entry.closedToDeparture];
      if (entry.channel !== undefined) {
        if (entry.price === undefined) {
          context.addIssue({
            code: 'custom',
            path: ['prices', index, 'price'],
            message: 'A channel entry needs price (a number, or null to remove the channel price).',
          });
        }
        if (restrictions.some((value) => value !== undefined)) {
          context.addIssue({
            code: 'custom',
            path: ['prices', index, 'channel'],
            message:
              'minNights, closedToArrival and closedToDeparture apply to every channel; send them without channel.',
          });
        }
      } else if (entry.price === undefined && restrictions.every((value) => value === undefined)) {
        context.addIssue({
          code: 'custom',
          path: ['prices', index],
          message: 'Give at least one of price, minNights, closedToArrival, closedToDeparture.',
        });
      }
    });
  });
/** Input of {@link CalendarUseCases.setPrices}. */
export type SetPricesInput = z.input<typeof setPricesInputSchema>;

/** Blocks or opens a range of nights. */
export const setAvailabilityInputSchema = z
  .object({
    listingId: listingIdSchema,
    startDate: localDateSchema.describe('First night to change.'),
    endDate: localDateSchema.describe(
      `Last night to change, included (not the check-out date); at most ${maxAvailabilityNights} ` +
        'nights.',
    ),
    available: z.boolean().describe('false blocks the nights; true removes blocks.'),
    reason: blockReasonSchema.default('manual'),
    note: z.string().trim().max(500).optional().describe('Note on the blocked nights.'),
  })
  .superRefine((input, context) => {
    if (!areLocalDates(input.startDate, input.endDate)) return;
    const nights = daysBetween(input.startDate, input.endDate) + 1;
    if (nights < 1) {
      context.addIssue({
        code: 'custom',
        path: ['endDate'],
        message: 'endDate must not be before startDate.',
      });
    } else if (nights > maxAvailabilityNights) {
      context.addIssue({
        code: 'custom',
        path: ['endDate'],
        message: `Change at most ${maxAvailabilityNights} nights at a time; this range has ${nights}.`,
      });
    }
  });
/** Input of {@link CalendarUseCases.setAvailability}. */
export type SetAvailabilityInput = z.input<typeof setAvailabilityInputSchema>;

/** What a setAvailability call did. */
export const availabilityChangeSchema = z.object({
  listingId: z.string(),
  startDate: z.string().describe('First night of the range.'),
  endDate: z.string().describe('Last night of the range (inclusive).'),
  available: z.boolean(),
  changedNights: z
    .number()
    .int()
    .describe('Nights whose availability changed (open → blocked, or blocked → open).'),
  stillBookedNights: z
    .array(z.string())
    .describe('When opening: nights of the range a reservation still holds; reservations are not removed.'),
});
/** What a setAvailability call did. */
export type AvailabilityChange = z.infer<typeof availabilityChangeSchema>;

/** Reads and changes a listing's calendar: availability, per-date prices and stay restrictions. */
export interface CalendarUseCases {
  /** Each day of the range with status, effective price (and why), restrictions and channel prices. */
  get(actor: Actor, input: GetCalendarInput): Promise<Calendar>;
  /**
   * Upserts per-date prices and restrictions; audited. Returns the changed days as the calendar shows them,
   * each with what came of the prices set on it (the rules and floor between asked and paid).
   */
  setPrices(actor: Actor, input: SetPricesInput): Promise<ChangedDay[]>;
  /**
   * Blocks or opens a range of nights; audited. Blocking over a reservation is a `conflict` that names it
   * and writes nothing. Opening leaves reservations in place and reports the nights they still hold.
   */
  setAvailability(actor: Actor, input: SetAvailabilityInput): Promise<AvailabilityChange>;
}
