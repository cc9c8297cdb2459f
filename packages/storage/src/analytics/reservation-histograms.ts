import {
  bucketLabel,
  type DayBucket,
  type DayRange,
  type DaySummary,
  inBucket,
  ratioOf,
  type Weekday,
  weekdays,
} from '@innkeep/domain/analytics';

// The reservation tools aggregate in SQL down to histograms (how many reservations per exact number of days,
// per weekday); these functions only shape such small results into buckets, means and medians.

/** How many reservations (or events) had each exact value, e.g. each lead time in days. */
export type Histogram = readonly { readonly value: number; readonly count: number }[];

/** Reads SQL rows of `value` and `count` (counts arrive as strings) into a histogram sorted by value. */
export function toHistogram(rows: readonly { value: number | string; count: number | string }[]): Histogram {
  return rows
    .map((row) => ({ value: Number(row.value), count: Number(row.count) }))
    .filter((entry) => entry.count > 0)
    .sort((a, b) => a.value - b.value);
}

/** The histogram's entries counted into `ranges`, with each bucket's share of the total. */
export function toBuckets(histogram: Histogram, ranges: readonly DayRange[]): DayBucket[] {
  const total = histogramTotal(histogram);
  return ranges.map((range) => {
    const count = histogram
      .filter((entry) => inBucket(range, entry.value))
      .reduce((sum, entry) => sum + entry.count, 0);
    return { bucket: bucketLabel(range), ...range, count, share: ratioOf(count, total) };
  });
}

/** Mean (2 decimals) and median of a histogram; both null when it is empty. */
export function summarize(histogram: Histogram): DaySummary {
  const total = histogramTotal(histogram);
  if (total === 0) return { mean: null, median: null };
  const sum = histogram.reduce((acc, entry) => acc + entry.value * entry.count, 0);
  return { mean: Math.round((sum / total) * 100) / 100, median: histogramMedian(histogram) };
}

/** The median of a histogram sorted by value: the mean of the two middle values for an even count. */
export function histogramMedian(histogram: Histogram): number | null {
  const total = histogramTotal(histogram);
  if (total === 0) return null;
  const lower = valueAt(histogram, Math.floor((total + 1) / 2));
  const upper = valueAt(histogram, Math.floor(total / 2) + 1);
  return (lower + upper) / 2;
}

/** Counts per ISO weekday (1 = Monday … 7 = Sunday) as the seven weekdays with shares, Monday first. */
export function toWeekdayCounts(
  rows: readonly { isoWeekday: number; count: number }[],
): { weekday: Weekday; count: number; share: number | null }[] {
  const total = rows.reduce((sum, row) => sum + row.count, 0);
  return weekdays.map((weekday, index) => {
    const count = rows.find((row) => row.isoWeekday === index + 1)?.count ?? 0;
    return { weekday, count, share: ratioOf(count, total) };
  });
}

function histogramTotal(histogram: Histogram): number {
  return histogram.reduce((sum, entry) => sum + entry.count, 0);
}

/** The value at 1-based `position` of the sorted values the histogram stands for. */
function valueAt(histogram: Histogram, position: number): number {
  let seen = 0;
  for (const entry of histogram) {
    seen += entry.count;
    if (seen >= position) return entry.value;
  }
  throw new Error(`position ${position} is beyond the histogram`);
}
