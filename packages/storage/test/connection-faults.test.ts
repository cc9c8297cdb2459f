import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { openTestDatabase, type TestDatabase } from '../src/testing.ts';

// The server ends a session (pg_terminate_backend, a restart, a failover) while the pool has lent its
// connection out. Before the fix, pg emitted 'error' on a client nobody listened on, and the process died.
describe('a pooled PostgreSQL connection lost while in use', () => {
  let testDatabase: TestDatabase;
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let admin: pg.Client;
  let errors: Error[] = [];
  let nextError: Promise<Error>;
  let tellError: (error: Error) => void = () => {};

  const expectNextError = () => {
    nextError = new Promise((resolve) => {
      tellError = resolve;
    });
  };

  beforeAll(async () => {
    testDatabase = await openTestDatabase('postgres');
    // One connection: a broken client kept in the pool would leave nothing to serve the next query.
    handle = await openDatabase({
      kind: 'postgres',
      url: testDatabase.url ?? '',
      poolSize: 1,
      onConnectionError: (error) => {
        errors.push(error);
        tellError(error);
      },
    });
    db = handle.db;
    admin = new pg.Client({ connectionString: testDatabase.url });
    await admin.connect();
  }, 180_000);

  afterEach(() => {
    errors = [];
  });

  afterAll(async () => {
    await admin?.end();
    await handle?.close();
    await testDatabase?.close();
  });

  /** Ends the backend `pid` and waits (up to 5 s) until it is gone. */
  async function terminate(pid: number): Promise<void> {
    const { rows } = await admin.query<{ ended: boolean }>('select pg_terminate_backend($1, 5000) as ended', [
      pid,
    ]);
    expect(rows[0]?.ended).toBe(true);
  }

  async function backendPid(executor: Kysely<Database>): Promise<number> {
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(executor);
    const pid = rows[0]?.pid;
    if (pid === undefined) throw new Error('no backend pid');
    return pid;
  }

  it('fails a transaction that lost its connection between two statements, and serves the next query', async () => {
    let lostPid = 0;
    expectNextError();
    const transaction = db.transaction().execute(async (trx) => {
      lostPid = await backendPid(trx);
      await sql`create temporary table half_written (id integer)`.execute(trx);
      await terminate(lostPid);
      // The server's goodbye reaches the client while it runs no query: the moment that used to kill us.
      await nextError;
      await sql`insert into half_written values (1)`.execute(trx);
    });
    await expect(transaction).rejects.toThrow();
    expect(errors[0]?.message).toMatch(/terminating connection due to administrator command/);
    expect(errors).toHaveLength(1);

    const pid = await backendPid(db);
    expect(pid).not.toBe(lostPid);
  });

  it('fails a transaction whose statement was running when the connection went, and serves the next query', async () => {
    let lostPid = 0;
    let statementError: unknown;
    const transaction = db.transaction().execute(async (trx) => {
      lostPid = await backendPid(trx);
      // Settled into a value at once: it fails while this still waits for the terminate to land.
      const sleeping = sql`select pg_sleep(30)`.execute(trx).then(
        () => undefined,
        (error: unknown) => error,
      );
      await waitUntilActive(lostPid);
      await terminate(lostPid);
      statementError = await sleeping;
    });
    // The COMMIT (or ROLLBACK) on the dead connection fails as well, and that is what reaches the caller.
    await expect(transaction).rejects.toThrow();
    expect(String(statementError)).toMatch(/terminating connection due to administrator command/);

    const pid = await backendPid(db);
    expect(pid).not.toBe(lostPid);
  });

  it('still reports and replaces an idle connection the server ended', async () => {
    const idlePid = await backendPid(db);
    expectNextError();
    await terminate(idlePid);
    await expect(nextError).resolves.toBeInstanceOf(Error);
    expect(await backendPid(db)).not.toBe(idlePid);
  });

  /** Waits until `pid` runs a statement, so that terminating it cuts that statement off. */
  async function waitUntilActive(pid: number): Promise<void> {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const { rows } = await admin.query<{ state: string }>(
        'select state from pg_stat_activity where pid = $1',
        [pid],
      );
      if (rows[0]?.state === 'active') return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`backend ${pid} never became active`);
  }
});
