import type { Database, Executor } from '@innkeep/storage';
import { type Insertable, sql } from 'kysely';

/** The tables the demo fills, in an order that satisfies every foreign key when inserted front to back. */
export const demoTables = [
  'accounts',
  'subscriptions',
  'users',
  'channel_accounts',
  'listings',
  'listing_channel_links',
  'listing_groups',
  'listing_group_members',
  'locks',
  'lock_listings',
  'pricing_rules',
  'message_rules',
  'calendar_days',
  'calendar_channel_prices',
  'reservations',
  'calendar_holds',
  'reservation_nights',
  'reservation_line_items',
  'reservation_changes',
  'messages',
  'reviews',
  'access_codes',
] as const satisfies readonly (keyof Database)[];

/** One of {@link demoTables}. */
export type DemoTable = (typeof demoTables)[number];

/** Rows waiting to be written, per table. */
export type DemoRows = { [Table in DemoTable]: Insertable<Database[Table]>[] };

/** A fresh, empty {@link DemoRows}. */
export function emptyDemoRows(): DemoRows {
  const rows: Partial<Record<DemoTable, unknown[]>> = {};
  for (const table of demoTables) rows[table] = [];
  return rows as DemoRows;
}

/** Row counts per table. */
export type DemoCounts = Record<DemoTable, number>;

// PostgreSQL's wire protocol numbers bind parameters with 16 bits.
const maxBindParameters = 65_535;
// Rows per statement. Beyond this a statement gets no faster, and it holds more memory on both sides.
const maxRowsPerStatement = 10_000;

/**
 * Writes batches of rows through one connection (a transaction) in table order, with multi-row inserts
 * of up to 10,000 rows that stay under the bind-parameter limit. Writes are queued so the caller can generate the next
 * batch while the database stores this one; `flush` waits for everything queued.
 */
export interface DemoWriter {
  /**
   * Queues a batch; resolves once it is stored, after `onStored` ran. Callers need not await it before
   * queueing more.
   */
  write(rows: DemoRows, onStored?: () => void): Promise<void>;
  /** Waits until fewer than `pending` batches are still being written. */
  waitBelow(pending: number): Promise<void>;
  /** Waits for every queued batch; rethrows the first failure. */
  flush(): Promise<void>;
  /** Rows written so far, per table. */
  readonly counts: Readonly<DemoCounts>;
}

/** A {@link DemoWriter} over `db`, which should be a transaction so that a failure leaves nothing behind. */
export function createDemoWriter(db: Executor): DemoWriter {
  const counts = Object.fromEntries(demoTables.map((table) => [table, 0])) as DemoCounts;
  let tail: Promise<void> = Promise.resolve();
  const inFlight: Promise<void>[] = [];

  let columnTypes: Map<string, string> | undefined;
  // The declared type of every column, e.g. `character(3)`, to cast the parameter arrays to.
  const typesOf = async () => {
    if (!columnTypes) {
      const { rows } = await sql<{ name: string; type: string }>`
        select c.relname || '.' || a.attname as name, format_type(a.atttypid, a.atttypmod) as type
        from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = current_schema() and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped`.execute(
        db,
      );
      columnTypes = new Map(rows.map((row) => [row.name, row.type]));
    }
    return columnTypes;
  };

  // Each statement sends one array per column and unnests them into rows: a handful of bind parameters
  // however many rows, and a fifth less work for the server than a VALUES list of the same rows. Unnest
  // would flatten array-typed columns, so tables with one (the rules) take a plain multi-row VALUES insert.
  const writeTable = async <Table extends DemoTable>(table: Table, rows: Insertable<Database[Table]>[]) => {
    if (rows.length === 0) return;
    const columns = Object.keys(rows[0] ?? {});
    const known = await typesOf();
    const types = columns.map((column) => known.get(`${table}.${column}`) ?? 'text');
    const arrayColumns = types.some((type) => type.endsWith('[]'));
    const perStatement = arrayColumns
      ? Math.min(maxRowsPerStatement, Math.floor(maxBindParameters / columns.length))
      : maxRowsPerStatement;
    for (let start = 0; start < rows.length; start += perStatement) {
      const chunk = rows.slice(start, start + perStatement);
      if (arrayColumns) {
        // Kysely cannot relate a generic table name to its row type; `Table` ties them together above.
        await db
          .insertInto(table as DemoTable)
          .values(chunk as Insertable<Database[DemoTable]>[])
          .execute();
      } else {
        const arrays = columns.map((column, index) => {
          const values = chunk.map((row) => (row as Record<string, unknown>)[column] ?? null);
          return sql`${values}::${sql.raw(types[index] ?? 'text')}[]`;
        });
        await sql`insert into ${sql.table(table)} (${sql.join(columns.map((column) => sql.ref(column)))})
          select * from unnest(${sql.join(arrays)})`.execute(db);
      }
      counts[table] += chunk.length;
    }
  };

  const writeBatch = async (rows: DemoRows) => {
    for (const table of demoTables) await writeTable(table, rows[table]);
  };

  return {
    counts,
    write(rows, onStored) {
      const done = tail.then(async () => {
        await writeBatch(rows);
        onStored?.();
      });
      tail = done;
      inFlight.push(done);
      // The caller may not await this batch until later; a failure is still reported by flush().
      done.catch(() => undefined);
      return done;
    },
    async waitBelow(pending) {
      while (inFlight.length >= pending) await inFlight.shift();
    },
    async flush() {
      while (inFlight.length > 0) await inFlight.shift();
    },
  };
}
