import { connect, createServer, type Socket } from 'node:net';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { openTestDatabase, type TestDatabase } from '../src/testing.ts';

// Named statements are a PostgreSQL-pool matter: PGlite runs in-process and is left as it is.
describe('PostgreSQL connections', () => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;

  beforeAll(async () => {
    handle = await openTestDatabase('postgres');
    db = handle.db;
  }, 180_000);

  afterAll(async () => {
    await handle?.close();
  });

  /** The SQL of the statements prepared on the connection that runs this. */
  async function preparedOn(conn: Kysely<Database>): Promise<string[]> {
    const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(
      conn,
    );
    return rows.map((row) => row.statement);
  }

  it('prepares a parameterised query once per connection and reuses it', async () => {
    await db.connection().execute(async (conn) => {
      const first = await sql<{ n: number }>`select ${41}::int + 1 as n`.execute(conn);
      const second = await sql<{ n: number }>`select ${1}::int + 1 as n`.execute(conn);
      expect(first.rows).toEqual([{ n: 42 }]);
      expect(second.rows).toEqual([{ n: 2 }]);
      const prepared = await preparedOn(conn);
      expect(prepared.filter((statement) => statement === 'select $1::int + 1 as n')).toHaveLength(1);
    });
  });

  it('runs every pooled session without parallel workers', async () => {
    const { rows } = await sql<{ workers: string }>`
      select current_setting('max_parallel_workers_per_gather') as workers`.execute(db);
    expect(rows).toEqual([{ workers: '0' }]);
  });

  it('leaves queries without parameters unnamed', async () => {
    await db.connection().execute(async (conn) => {
      await sql`select 7 as seven`.execute(conn);
      expect(await preparedOn(conn)).not.toContain('select 7 as seven');
    });
  });

  it('answers with the new shape when a table changes under a prepared statement', async () => {
    await sql`create table shape_change (id integer primary key, label text)`.execute(db);
    await sql`insert into shape_change values (1, 'one')`.execute(db);
    await db.connection().execute(async (conn) => {
      const before = await sql`select * from shape_change where id = ${1}`.execute(conn);
      expect(before.rows).toEqual([{ id: 1, label: 'one' }]);
      // Another instance migrates: the prepared `select *` now returns a column more.
      await sql`alter table shape_change add column note text not null default 'new'`.execute(db);
      const after = await sql`select * from shape_change where id = ${1}`.execute(conn);
      expect(after.rows).toEqual([{ id: 1, label: 'one', note: 'new' }]);
    });
  });

  it('fails a transaction whose prepared statement went stale, then works again', async () => {
    await sql`create table shape_change_tx (id integer primary key)`.execute(db);
    await sql`insert into shape_change_tx values (1)`.execute(db);
    await db.connection().execute(async (conn) => {
      await sql`select * from shape_change_tx where id = ${1}`.execute(conn);
      await sql`alter table shape_change_tx add column note text not null default 'new'`.execute(db);
      // Inside a transaction the failure has aborted it, so it cannot be retried behind the caller's back.
      await expect(
        conn
          .transaction()
          .execute(async (trx) => sql`select * from shape_change_tx where id = ${1}`.execute(trx)),
      ).rejects.toThrow(/cached plan must not change result type/);
      const after = await sql`select * from shape_change_tx where id = ${1}`.execute(conn);
      expect(after.rows).toEqual([{ id: 1, note: 'new' }]);
    });
  });
});

describe('listening on PostgreSQL', () => {
  let testDatabase: TestDatabase;
  let handle: DatabaseHandle;
  let db: Kysely<Database>;

  beforeAll(async () => {
    testDatabase = await openTestDatabase('postgres');
    db = testDatabase.db;
    handle = await openDatabase({ kind: 'postgres', url: testDatabase.url ?? '' });
  }, 180_000);

  afterAll(async () => {
    await handle?.close();
    await testDatabase?.close();
  });

  /** The handle's `listen`, which a PostgreSQL handle must have. */
  function listenOf(database: DatabaseHandle) {
    if (database.listen === undefined) throw new Error('a PostgreSQL handle must offer listen');
    return database.listen;
  }

  /** Records what a listener reports, with promises for the next notification and for the loss. */
  function recorder() {
    const payloads: string[] = [];
    let lost: (error: Error) => void = () => {};
    const lostPromise = new Promise<Error>((resolve) => {
      lost = resolve;
    });
    return {
      payloads,
      lost: lostPromise,
      handlers: {
        onNotification: (payload: string) => payloads.push(payload),
        onLost: (error: Error) => lost(error),
      },
    };
  }

  it('is not offered on PGlite, which no other process can reach', async () => {
    const pglite = await openDatabase({ kind: 'pglite' });
    expect(pglite.listen).toBeUndefined();
    await pglite.close();
  });

  it('delivers the payloads of committed notifications in order, and none of rolled-back ones', async () => {
    const events = recorder();
    const listener = await listenOf(handle)('innkeep_test', events.handlers);
    await sql`select pg_notify('innkeep_test', 'first')`.execute(db);
    await db
      .transaction()
      .execute(async (trx) => {
        await sql`select pg_notify('innkeep_test', 'rolled back')`.execute(trx);
        throw new Error('roll back');
      })
      .catch(() => {});
    await sql`select pg_notify('innkeep_test', 'second')`.execute(db);
    await sql`select pg_notify('elsewhere', 'not ours')`.execute(db);
    await vi.waitFor(() => expect(events.payloads).toEqual(['first', 'second']));
    await listener.close();
  });

  it('reports a connection the server ended, once', async () => {
    const events = recorder();
    let losses = 0;
    const listener = await listenOf(handle)('innkeep_test', {
      ...events.handlers,
      onLost: (error) => {
        losses += 1;
        events.handlers.onLost(error);
      },
    });
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
      where application_name = 'innkeep listen innkeep_test' and datname = current_database()`.execute(db);
    await expect(events.lost).resolves.toBeInstanceOf(Error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(losses).toBe(1);
    await listener.close();
  });

  it('notices a connection that stopped answering, by its heartbeat', async () => {
    const proxy = await startFreezableProxy(new URL(testDatabase.url ?? '').port || '5432');
    const viaProxy = new URL(testDatabase.url ?? '');
    viaProxy.port = String(proxy.port);
    const throughProxy = await openDatabase({ kind: 'postgres', url: viaProxy.toString() });
    try {
      const events = recorder();
      await listenOf(throughProxy)('innkeep_test', events.handlers, { heartbeatMs: 200 });
      proxy.freeze();
      const started = Date.now();
      await expect(events.lost).resolves.toBeInstanceOf(Error);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      proxy.close();
      await throughProxy.close();
    }
  });

  it('says nothing after close()', async () => {
    let reported = false;
    const listener = await listenOf(handle)('innkeep_test', {
      onNotification: () => {
        reported = true;
      },
      onLost: () => {
        reported = true;
      },
    });
    await listener.close();
    await sql`select pg_notify('innkeep_test', 'too late')`.execute(db);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(reported).toBe(false);
  });
});

/** A TCP proxy to the local PostgreSQL that can stop passing bytes without closing anything. */
async function startFreezableProxy(targetPort: string) {
  const sockets: Socket[] = [];
  let frozen = false;
  const server = createServer((inbound) => {
    const outbound = connect(Number(targetPort), '127.0.0.1');
    sockets.push(inbound, outbound);
    inbound.on('data', (chunk) => {
      if (!frozen) outbound.write(chunk);
    });
    outbound.on('data', (chunk) => {
      if (!frozen) inbound.write(chunk);
    });
    inbound.on('error', () => {});
    outbound.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return {
    port: address.port,
    freeze: () => {
      frozen = true;
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}
