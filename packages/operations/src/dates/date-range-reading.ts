import { z } from 'zod';

/** One way of reading a phrase as an inclusive range of dates. */
export const dateRangeSchema = z.object({
  startDate: z.string().describe('First date of the range, YYYY-MM-DD.'),
  endDate: z.string().describe('Last date of the range, YYYY-MM-DD, INCLUSIVE (it belongs to the range).'),
  days: z.number().int().describe('Dates in the range, both ends counted.'),
  interpretation: z
    .string()
    .describe('How the phrase was read, in one sentence, naming any assumption made.'),
});
/** One reading of a phrase. */
export type DateRange = z.infer<typeof dateRangeSchema>;

/** How a phrase was read: one range, several possible ranges, or nothing. */
export const dateRangeStatuses = ['resolved', 'ambiguous', 'unrecognised'] as const;

/**
 * The outcome of reading a phrase as dates. A flat object (an MCP tool result must be one): the fields of
 * each status are present only with that status.
 */
export const dateRangeReadingSchema = z.object({
  status: z
    .enum(dateRangeStatuses)
    .describe(
      'resolved: use startDate/endDate. ambiguous: ask the person the question and use the reading they ' +
        'choose. unrecognised: ask the person for the dates in another form.',
    ),
  phrase: z.string().describe('The phrase as it was given.'),
  timeZone: z.string().describe('The IANA time zone whose calendar "today" was taken from.'),
  today: z.string().describe('Today in that time zone, YYYY-MM-DD; relative phrases count from it.'),
  startDate: dateRangeSchema.shape.startDate.optional().describe('First date (resolved only).'),
  endDate: dateRangeSchema.shape.endDate.optional().describe('Last date, INCLUSIVE (resolved only).'),
  days: dateRangeSchema.shape.days
    .optional()
    .describe('Dates in the range, both ends counted (resolved only).'),
  interpretation: dateRangeSchema.shape.interpretation
    .optional()
    .describe('How the phrase was read (resolved only).'),
  readings: z.array(dateRangeSchema).optional().describe('The possible readings (ambiguous only).'),
  question: z
    .string()
    .optional()
    .describe('A question to ask the person to choose a reading (ambiguous only).'),
  message: z.string().optional().describe('What could not be read and why (unrecognised only).'),
  examples: z
    .array(z.string())
    .optional()
    .describe('Phrases this tool understands, to suggest to the person (unrecognised only).'),
});
/** The outcome of reading a phrase as dates. */
export type DateRangeReading = z.infer<typeof dateRangeReadingSchema>;
