import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './database.ts';
import { SerializedPGliteDialect } from './serialized-pglite-dialect.ts';

/** Where the account data lives. */
export type DatabaseTarget =
  | {
      readonly kind: 'postgres';
      readonly url: string;
      readonly poolSize?: number;
      /** Told when an idle pooled connection fails (server restart, failover); the pool replaces it. */
      readonly onIdleConnectionError?: (error: Error) => void;
    }
  | {
      readonly kind: 'pglite' /** A directory, or undefined for an in-memory database. */;
      readonly dataDir?: string;
    };

/** An open database and the means to close it. */
export interface DatabaseHandle {
  readonly db: Kysely<Database>;
  readonly kind: DatabaseTarget['kind'];
  close(): Promise<void>;
}

// PostgreSQL type OIDs whose default JavaScript parsing would be wrong for us.
const DATE_OID = 1082;
const INT8_OID = 20;
const NUMERIC_OID = 1700;

// `date` stays a `YYYY-MM-DD` string: turning it into a JS Date (UTC midnight) is the classic
// off-by-one-day bug for stays in other time zones. Counts (`count(*)`, int8) fit in a double.
const keepText = (value: string) => value;
const toNumber = (value: string) => Number(value);

/**
 * Opens the database: a real PostgreSQL over a `pg` pool, or PGlite (PostgreSQL compiled to WebAssembly)
 * in a data directory for zero-setup use. Both speak the same SQL; the schema needs only btree_gist.
 */
export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  if (target.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: target.url,
      max: target.poolSize ?? 10,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
          if (oid === DATE_OID || oid === NUMERIC_OID) return keepText;
          if (oid === INT8_OID) return toNumber;
          return pg.types.getTypeParser(oid, format);
        }) as typeof pg.types.getTypeParser,
      },
    });
    // Without a listener, an idle connection dropped by the server is an unhandled 'error' event that
    // kills the process. The pool discards the broken client and opens a new one on the next query.
    pool.on('error', (error) => target.onIdleConnectionError?.(error));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  const pglite = await PGlite.create({
    ...(target.dataDir === undefined ? {} : { dataDir: target.dataDir }),
    extensions: { btree_gist },
    parsers: { [DATE_OID]: keepText, [INT8_OID]: toNumber, [NUMERIC_OID]: keepText },
  });
  const db = new Kysely<Database>({ dialect: new SerializedPGliteDialect(pglite) });
  const close = async () => {
    await db.destroy();
    // Kysely only closes a driver it initialised, i.e. after a first query; close PGlite ourselves too.
    if (!pglite.closed) await pglite.close();
  };
  return { db, kind: 'pglite', close };
}
