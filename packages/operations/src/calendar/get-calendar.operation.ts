import {
  type Calendar,
  calendarSchema,
  daysBetween,
  listingIdSchema,
  localDateSchema,
} from '@innkeep/domain';
import { z } from 'zod';
import { defineOperation } from '../operation.ts';
import { maxReplyChars } from '../read-paging.ts';

/**
 * Most days one get_calendar call returns. 92 covers any calendar quarter and any three consecutive
 * months, and keeps a reply near a quarter of the size cap, so a model can still read it whole.
 */
export const maxToolCalendarDays = 92;

const calendarInput = z
  .object({
    listingId: listingIdSchema,
    startDate: localDateSchema.describe('First date to return.'),
    endDate: localDateSchema.describe(
      `Last date to return, included; at most ${maxToolCalendarDays} days in all.`,
    ),
  })
  .superRefine((input, context) => {
    // Refinements run even when a date failed its format check; only measure real dates.
    const real = [input.startDate, input.endDate].every((date) => localDateSchema.safeParse(date).success);
    if (!real) return;
    const days = daysBetween(input.startDate, input.endDate) + 1;
    if (days < 1) {
      context.addIssue({
        code: 'custom',
        path: ['endDate'],
        message: 'endDate must not be before startDate.',
      });
    } else if (days > maxToolCalendarDays) {
      context.addIssue({
        code: 'custom',
        path: ['endDate'],
        message:
          `Read at most ${maxToolCalendarDays} days per call; this range has ${days}. ` +
          'Split it into consecutive calls, e.g. one per quarter.',
      });
    }
  });

const calendarOutput = calendarSchema.extend({
  hasMore: z
    .boolean()
    .describe(
      'True when the range did not fit in one reply (very long notes); call again from nextStartDate.',
    ),
  nextStartDate: z
    .string()
    .nullable()
    .describe(
      'The first date of the range not returned, to pass as startDate; null when every date is here.',
    ),
});

/** Room kept under the size cap for the JSON around the days. */
const calendarBudgetChars = maxReplyChars - 2_000;

/**
 * Keeps the leading days that fit in one reply. A legal range is far below the cap; only unusually long
 * notes on many nights can exceed it, and then the caller continues from `nextStartDate` rather than
 * getting an error it cannot fix by asking differently.
 */
function fitCalendar(calendar: Calendar): z.input<typeof calendarOutput> {
  const whole = { ...calendar, hasMore: false, nextStartDate: null };
  if (JSON.stringify(whole).length <= calendarBudgetChars) return whole;
  let used = JSON.stringify({ ...whole, days: [] }).length;
  const kept: Calendar['days'] = [];
  for (const day of calendar.days) {
    used += JSON.stringify(day).length + 1;
    if (used > calendarBudgetChars && kept.length > 0) break;
    kept.push(day);
  }
  const next = calendar.days[kept.length];
  return { ...calendar, days: kept, hasMore: next !== undefined, nextStartDate: next?.date ?? null };
}

/** get_calendar: a listing's nights with availability, price and stay restrictions. */
export const getCalendarOperation = defineOperation({
  id: 'get_calendar',
  scopes: ['calendar:read'],
  access: 'read',
  input: calendarInput,
  output: calendarOutput,
  run: async (input, { actor, domain }) => fitCalendar(await domain.calendar.get(actor, input)),
});
