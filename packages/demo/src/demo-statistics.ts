import type { Database } from '@innkeep/storage';
import { type Kysely, sql } from 'kysely';
import { demoTables } from './demo-writer.ts';

/**
 * The tables a demo load fills besides {@link demoTables}: those kept by statement triggers fill in the same
 * statements as the rows they derive from (`calendar_gaps` with `calendar_gap_years`, `calendar_hold_spans`
 * and `block_month_facts` on `calendar_holds`; `check_in_month_facts`, `booking_pattern_facts`, `reservation_month_facts` and the three
 * turnover tables on `reservations`; `pace_snapshot_months` on `reservation_changes`); the stay facts and the
 * guest waits (with their buckets and listing months) are rebuilt once the rows are in.
 */
export const demoDerivedTables = [
  'calendar_gaps',
  'calendar_gap_years',
  'calendar_hold_spans',
  'listing_hold_changes',
  'block_month_facts',
  'check_in_month_facts',
  'booking_pattern_facts',
  'reservation_month_facts',
  'turnover_facts',
  'turnover_listing_totals',
  'turnover_account_months',
  'pace_snapshot_months',
  'stay_night_facts',
  'stay_month_facts',
  'stay_account_month_facts',
  'guest_waits',
  'guest_wait_buckets',
  'listing_wait_months',
] as const satisfies readonly (keyof Database)[];

/**
 * Vacuums and gathers planner statistics for every table a demo load wrote ({@link demoTables} and
 * {@link demoDerivedTables}), so the first questions after a load are planned from the rows that are there.
 * Without it the planner knows nothing of them until autovacuum gets round to them (a minute or more on
 * PostgreSQL, never on the embedded database, which has no autovacuum), and some analytics over the freshly
 * seeded scale demo ran over three times slower (issue 18). Naming the tables keeps it to what the load
 * changed: a plain `analyze` also samples every system catalogue and took about 1.8 times as long after the
 * default demo.
 */
export async function analyzeDemoTables(db: Kysely<Database>): Promise<void> {
  const tables = [...demoTables, ...demoDerivedTables].map((table) => sql.table(table));
  // VACUUM as well: it marks the freshly written pages all-visible, without which the index-only scans the
  // analytics are planned around read the table too (get_turnover_stats read 51,322 heap blocks on the scale
  // demo, 400 ms, against 180 ms once vacuumed). Outside any transaction, as VACUUM must be.
  await sql`vacuum (analyze) ${sql.join(tables)}`.execute(db);
}
