import { createHash } from 'node:crypto';
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
      /**
       * Told once per pooled connection that fails, idle or in use (server restart, failover, a terminated
       * backend). The query that was using it fails; the pool discards it and opens a new one when needed.
       */
      readonly onConnectionError?: (error: Error) => void;
    }
  | {
      readonly kind: 'pglite' /** A directory, or undefined for an in-memory database. */;
      readonly dataDir?: string;
      /**
       * A copy of a whole database as {@link DatabaseHandle.dump} made it, to start from instead of an empty
       * one: a new database this way takes some 0.4 s where an empty one takes 1.6 s before any migration.
       */
      readonly initialData?: Blob;
    };

/** An open database and the means to close it. */
export interface DatabaseHandle {
  readonly db: Kysely<Database>;
  readonly kind: DatabaseTarget['kind'];
  /**
   * PostgreSQL only (undefined on PGlite, which no other process can reach): opens a connection of its own,
   * outside the pool, that LISTENs on `channel`, and resolves once it does. The connection checks itself
   * every `heartbeatMs` (default 5 s) so that one dropped without a word (a failover, a cut network) is
   * noticed within about twice that, and then reports it through `onLost`.
   */
  readonly listen?: (
    channel: string,
    handlers: ListenHandlers,
    options?: { readonly heartbeatMs?: number },
  ) => Promise<Listener>;
  /** PostgreSQL only: the pool's connections right now, for the metrics. */
  readonly poolStats?: () => { readonly total: number; readonly idle: number; readonly waiting: number };
  /** PGlite only: a copy of the whole database, which `initialData` opens again. */
  readonly dump?: () => Promise<Blob>;
  close(): Promise<void>;
}

/** Where a {@link DatabaseHandle.listen} connection reports. */
export interface ListenHandlers {
  /** Each notification's payload on the channel, in commit order. */
  readonly onNotification: (payload: string) => void;
  /**
   * The connection failed, ended or stopped answering; called once, and never after `close()`. Nothing
   * more arrives: notifications sent from now on are missed until a new connection listens.
   */
  readonly onLost: (error: Error) => void;
}

/** A listening connection. */
export interface Listener {
  /** Stops listening and closes the connection. */
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

// Statement naming (see namedStatements). Longer SQL is rare, one-off (a bulk insert of many
// rows), and would spend the server's memory on a plan used once; a connection keeps at most so many.
const maxNamedSqlLength = 8192;
const maxNamedStatementsPerConnection = 2000;
// PostgreSQL's answer when a table a prepared statement reads changed shape under it (a migration run by
// another instance); that statement keeps failing on this connection, so it goes back to being unnamed.
const stalePlanMessage = 'cached plan must not change result type';

/**
 * Settings of every pooled session. No parallel workers: Innkeep already runs its statements side by side,
 * several per analytics question on connections of their own and many questions at once, so workers only
 * add processes competing for the same cores, and starting them costs more than they save on these
 * sub-second reads. Measured on the 2,000-listing benchmark (2 cores): with PostgreSQL's default of two
 * workers a gather, get_pace_stats took 190–270 ms instead of 80, get_review_analytics 92–97 instead of
 * 20–26, get_review_stats 83 instead of 30–37; no tool got clearly faster.
 */
const sessionOptions = '-c max_parallel_workers_per_gather=0';

/**
 * Opens the database: a real PostgreSQL over a `pg` pool, or PGlite (PostgreSQL compiled to WebAssembly)
 * in a data directory for zero-setup use. Both speak the same SQL; the schema needs only btree_gist.
 */
export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  if (target.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: target.url,
      max: target.poolSize ?? 10,
      options: sessionOptions,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
          if (oid === DATE_OID || oid === NUMERIC_OID) return keepText;
          if (oid === INT8_OID) return toNumber;
          return pg.types.getTypeParser(oid, format);
        }) as typeof pg.types.getTypeParser,
      },
    });
    // An 'error' event without a listener ends the process. pg-pool listens on idle clients only (and then
    // re-emits on the pool), so a connection lost while checked out, say between two statements of a
    // transaction, needs a listener of its own for its whole life. Its pending or next query fails instead,
    // and the pool discards it on release because it is no longer queryable.
    pool.on('error', () => {});
    pool.on('connect', reportConnectionErrors(target.onConnectionError));
    pool.on('connect', namedStatements());
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const url = target.url;
    return {
      db,
      kind: 'postgres',
      listen: (channel, handlers, options) => listenOn(url, channel, handlers, options?.heartbeatMs),
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: () => db.destroy(),
    };
  }
  const pglite = await PGlite.create({
    ...(target.dataDir === undefined ? {} : { dataDir: target.dataDir }),
    ...(target.initialData === undefined ? {} : { loadDataDir: target.initialData }),
    extensions: { btree_gist },
    parsers: { [DATE_OID]: keepText, [INT8_OID]: toNumber, [NUMERIC_OID]: keepText },
  });
  const db = new Kysely<Database>({ dialect: new SerializedPGliteDialect(pglite) });
  const close = async () => {
    await db.destroy();
    // Kysely only closes a driver it initialised, i.e. after a first query; close PGlite ourselves too.
    if (!pglite.closed) await pglite.close();
  };
  // Uncompressed: a migrated database is some 43 MB that way, and opens 0.3 s sooner than gzipped.
  return { db, kind: 'pglite', dump: () => pglite.dumpDataDir('none'), close };
}

/**
 * A pool `connect` handler that keeps an 'error' listener on each client for as long as it lives, and tells
 * `report` of the first error only: a lost connection usually says so twice (the server's message, then
 * the closed socket).
 */
function reportConnectionErrors(report?: (error: Error) => void): (client: pg.PoolClient) => void {
  return (client) => {
    let reported = false;
    client.on('error', (error) => {
      if (reported) return;
      reported = true;
      report?.(error);
    });
  };
}

type QueryFunction = (...args: unknown[]) => unknown;

/**
 * A pool `connect` handler that makes each client send every parameterised `(text, values)` query — the only
 * shape Kysely uses — as a named statement, named after a hash of its SQL. `pg` then parses it once per
 * connection and afterwards sends only Bind and Execute, and PostgreSQL plans it once per connection too (a
 * generic plan after five runs, when that is no worse). With unnamed statements every query was parsed and
 * planned again, and for the short primary-key lookups that most requests are made of, planning cost more
 * than running.
 *
 * Left alone: other call shapes (query objects, cursors, callbacks), queries without parameters (health
 * checks, DDL), SQL over {@link maxNamedSqlLength}, and new statements once a connection holds
 * {@link maxNamedStatementsPerConnection}, so statements built from variable-length lists cannot grow a
 * session's memory without bound. A statement whose table changed shape under it (another instance
 * migrated) is unnamed from then on, and retried at once when no transaction was open. A connection pooler
 * in front must keep prepared statements per client (PgBouncer in transaction mode needs
 * `max_prepared_statements`).
 */
function namedStatements(): (client: pg.PoolClient) => void {
  const retired = new Set<string>();
  return (client) => {
    const query = client.query.bind(client) as QueryFunction;
    const named = new Set<string>();
    const namedQuery: QueryFunction = (...args) => {
      const [text, values] = args;
      if (
        args.length !== 2 ||
        typeof text !== 'string' ||
        !Array.isArray(values) ||
        values.length === 0 ||
        text.length > maxNamedSqlLength
      ) {
        return query(...args);
      }
      const name = statementName(text);
      if (retired.has(name) || (!named.has(name) && named.size >= maxNamedStatementsPerConnection)) {
        return query(text, values);
      }
      named.add(name);
      return (query({ name, text, values }) as Promise<unknown>).catch((error: unknown) => {
        if (!(error instanceof Error && error.message.includes(stalePlanMessage))) throw error;
        retired.add(name);
        // Inside a transaction the failure has aborted it; the caller must see that.
        if (client.getTransactionStatus() !== 'I') throw error;
        return query(text, values);
      });
    };
    client.query = namedQuery as typeof client.query;
  };
}

// A listening connection answers a heartbeat query within this or counts as lost.
const defaultHeartbeatMs = 5000;

/** {@link DatabaseHandle.listen} for PostgreSQL: a dedicated `pg.Client`. */
async function listenOn(
  url: string,
  channel: string,
  handlers: ListenHandlers,
  heartbeatMs = defaultHeartbeatMs,
): Promise<Listener> {
  // Keepalive lets the OS notice a dead peer too; the query timeout bounds the heartbeat's wait. Connecting gets
  // at least 10 s whatever the heartbeat: on a busy machine a connection can take longer than a short heartbeat
  // (a test's 200 ms), and failing it then would report a lost connection that was never made.
  const client = new pg.Client({
    connectionString: url,
    application_name: `innkeep listen ${channel}`,
    keepAlive: true,
    connectionTimeoutMillis: Math.max(2 * heartbeatMs, 10_000),
    query_timeout: heartbeatMs,
  });
  let state: 'connecting' | 'listening' | 'done' = 'connecting';
  let heartbeat: NodeJS.Timeout | undefined;
  const lose = (error: Error) => {
    if (state !== 'listening') return;
    state = 'done';
    clearInterval(heartbeat);
    // Not awaited: on a connection that stopped answering, ending it can wait for a long time.
    client.end().catch(() => {});
    handlers.onLost(error);
  };
  // Stays registered for the client's life: an 'error' event without a listener would end the process.
  client.on('error', lose);
  client.on('end', () => lose(new Error('The listening connection to PostgreSQL closed.')));
  client.on('notification', (message) => {
    if (state === 'listening' && message.channel === channel) handlers.onNotification(message.payload ?? '');
  });
  try {
    await client.connect();
    await client.query(`listen ${client.escapeIdentifier(channel)}`);
  } catch (error) {
    state = 'done';
    client.end().catch(() => {});
    throw error;
  }
  state = 'listening';
  heartbeat = setInterval(() => {
    client.query('select 1').catch((error: unknown) => {
      lose(error instanceof Error ? error : new Error(String(error)));
    });
  }, heartbeatMs);
  heartbeat.unref();
  return {
    close: async () => {
      if (state === 'done') return;
      state = 'done';
      clearInterval(heartbeat);
      await client.end();
    },
  };
}

// The names of recent statements: an application sends a few hundred distinct ones, each very often, and
// a map lookup costs a fraction of hashing the text again. Emptied when full, so it stays bounded.
const statementNames = new Map<string, string>();
const maxRememberedNames = 2000;

/** A statement name unique to `text` (PostgreSQL names are at most 63 bytes). */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `k${createHash('sha1').update(text).digest('base64url')}`;
    if (statementNames.size >= maxRememberedNames) statementNames.clear();
    statementNames.set(text, name);
  }
  return name;
}
