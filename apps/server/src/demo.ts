import { type DemoOptions, type DemoSummary, seedDemoData } from '@innkeep/demo';
import type { DatabaseHandle } from '@innkeep/storage';
import { createProgressPrinter, type ProgressStream } from './progress.ts';

/** What {@link seedDemoWithProgress} seeds: every option of `seedDemoData` except the progress callback. */
export type DemoSeedOptions = Omit<DemoOptions, 'onProgress'>;

/**
 * Seeds the demo account and draws a progress bar per phase on `stream`: at scale (2,000 listings, three
 * years) seeding takes minutes, and a silent terminal looks hung.
 */
export async function seedDemoWithProgress(
  db: DatabaseHandle['db'],
  options: DemoSeedOptions,
  stream: ProgressStream,
): Promise<DemoSummary> {
  const printer = createProgressPrinter(stream);
  try {
    return await seedDemoData(db, { ...options, onProgress: (event) => printer.update(event) });
  } finally {
    printer.end();
  }
}

/**
 * The machine's local calendar date, `YYYY-MM-DD`: the demo's "today", so a host in New York seeding in the
 * evening gets today's date rather than UTC's tomorrow.
 */
export function localToday(now: Date): string {
  const month = String(now.getMonth() + 1).padStart(2, '0');
  const day = String(now.getDate()).padStart(2, '0');
  return `${now.getFullYear()}-${month}-${day}`;
}
