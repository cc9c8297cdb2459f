import { z } from 'zod';

// Building blocks the reservation analytics results share: money per currency, distributions over buckets,
// weekdays and day-count summaries. Field names are the same in every tool, so a model that learned one
// result reads the others.

/** An amount of one currency. */
export const currencyAmountSchema = z.object({
  currency: z.string().describe('ISO 4217 code.'),
  amount: z.number().describe('In major units of the currency.'),
});
/** An amount of one currency. */
export type CurrencyAmount = z.infer<typeof currencyAmountSchema>;

/** Amounts per currency, sorted by currency; never added across currencies. */
export const currencyAmountsSchema = z
  .array(currencyAmountSchema)
  .describe('One entry per currency, sorted by currency; amounts are never added across currencies.');

/** ISO weekdays, Monday first. */
export const weekdays = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;
/** One of {@link weekdays}. */
export type Weekday = (typeof weekdays)[number];

/** A share of a whole: 0–1, 4 decimals, null when the whole is empty. */
export const shareSchema = z.number().nullable().describe('Share of the total, 0–1, 4 decimals.');

/** Reservations in one bucket of a day-count distribution (lead time, stay length, turnaround). */
export const dayBucketSchema = z.object({
  bucket: z.string().describe('Label, e.g. "8–14" or "181+".'),
  minDays: z.number().int().nullable().describe('Smallest value in the bucket; null when open below.'),
  maxDays: z.number().int().nullable().describe('Largest value in the bucket; null when open above.'),
  count: z.number().int().describe('Reservations (or events) in the bucket.'),
  share: shareSchema,
});
/** One bucket of a day-count distribution. */
export type DayBucket = z.infer<typeof dayBucketSchema>;

/** Reservations per weekday. */
export const weekdayCountSchema = z.object({
  weekday: z.enum(weekdays),
  count: z.number().int().describe('Reservations on this weekday.'),
  share: shareSchema,
});

/** Mean and median of a number of days. */
export const daySummarySchema = z.object({
  mean: z.number().nullable().describe('Mean in days, 2 decimals; null when there is nothing to average.'),
  median: z
    .number()
    .nullable()
    .describe('Median in days (the mean of the two middle values for an even count); null when empty.'),
});
/** Mean and median of a number of days. */
export type DaySummary = z.infer<typeof daySummarySchema>;

/** A bucket boundary: the values from `minDays` to `maxDays` (null = open-ended). */
export interface DayRange {
  readonly minDays: number | null;
  readonly maxDays: number | null;
}

/** Lead-time buckets in days (check-in − booking date); "before 0" holds stays booked after check-in. */
export const leadTimeBuckets: readonly DayRange[] = [
  { minDays: null, maxDays: -1 },
  { minDays: 0, maxDays: 1 },
  { minDays: 2, maxDays: 7 },
  { minDays: 8, maxDays: 14 },
  { minDays: 15, maxDays: 30 },
  { minDays: 31, maxDays: 60 },
  { minDays: 61, maxDays: 90 },
  { minDays: 91, maxDays: 180 },
  { minDays: 181, maxDays: null },
];

/** Length-of-stay buckets in nights. */
export const stayLengthBuckets: readonly DayRange[] = [
  { minDays: 1, maxDays: 1 },
  { minDays: 2, maxDays: 2 },
  { minDays: 3, maxDays: 3 },
  { minDays: 4, maxDays: 6 },
  { minDays: 7, maxDays: 13 },
  { minDays: 14, maxDays: 27 },
  { minDays: 28, maxDays: null },
];

/** The label of a bucket: "3", "4–6", "181+", "<0". */
export function bucketLabel(range: DayRange): string {
  if (range.minDays === null) return `<${(range.maxDays ?? 0) + 1}`;
  if (range.maxDays === null) return `${range.minDays}+`;
  return range.minDays === range.maxDays ? String(range.minDays) : `${range.minDays}–${range.maxDays}`;
}

/** Whether `days` falls in `range`. */
export function inBucket(range: DayRange, days: number): boolean {
  return (
    (range.minDays === null || days >= range.minDays) && (range.maxDays === null || days <= range.maxDays)
  );
}
