import { authMigrations } from '@innkeep/auth';
import { demoLogin, seedDemoData } from '@innkeep/demo';
import { type DatabaseHandle, domainMigrations, openDatabase } from '@innkeep/storage';
import { openTestDatabase, type TestDatabase, testServerUrl } from '@innkeep/storage/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ServerProcess, startServerProcess, toolCall } from './support/server-process.ts';

// Issue 13: a backend terminated while a pooled client was checked out (between two statements of a
// transaction) was an unhandled 'error' event, and the server died for good. Here the real server process
// serves a mix of reads and writes while every backend of its database is terminated again and again.

/** How one /mcp call ended, as a client sees it. */
type Outcome =
  | { readonly kind: 'success'; readonly output: Record<string, unknown> }
  | { readonly kind: 'clean error'; readonly reference: string }
  | { readonly kind: 'broken'; readonly detail: string };

const concurrency = 8;
const faultCalls = 220;

describe('the server while PostgreSQL ends its connections', () => {
  let database: TestDatabase;
  let admin: DatabaseHandle;
  let server: ServerProcess;
  let token: string;
  let listingIds: string[];
  const today = new Date().toISOString().slice(0, 10);
  // Far past the demo's booked months, so every stay of the test is free.
  const firstArrival = addDays(today, 500);

  beforeAll(async () => {
    database = await openTestDatabase('postgres', { ...domainMigrations, ...authMigrations });
    await seedDemoData(database.db, { today, listings: 8, historyYears: 1, forwardMonths: 2 });
    const { rows } = await sql<{ id: string }>`
      select l.id from listings l join users u on u.account_id = l.account_id
      where u.email = ${demoLogin.email} and l.enabled order by l.id`.execute(database.db);
    listingIds = rows.map((row) => row.id);
    expect(listingIds.length).toBeGreaterThanOrEqual(4);
    // Terminates from another database, so its own connection is never among those it ends.
    admin = await openDatabase({ kind: 'postgres', url: testServerUrl, poolSize: 1 });
    server = await startServerProcess(database.url ?? '', { MCP_RATE_LIMIT: '100000' });
    token = await server.accessToken(demoLogin);
  });

  afterAll(async () => {
    await server?.kill();
    await admin?.close();
    await database?.close();
  });

  /** Sends one call and sorts what came back. */
  async function call(id: number, name: string, args: Record<string, unknown>): Promise<Outcome> {
    let status: number;
    let text: string;
    try {
      const response = await server.mcp(token, toolCall(id, name, args));
      status = response.status;
      text = await response.text();
    } catch (error) {
      return { kind: 'broken', detail: `${name}: no HTTP answer (${String(error)})` };
    }
    let body: {
      result?: {
        isError?: boolean;
        structuredContent?: Record<string, unknown>;
        content?: { text: string }[];
      };
      error?: { data?: { reference?: unknown } };
    };
    try {
      body = JSON.parse(text);
    } catch {
      return { kind: 'broken', detail: `${name}: HTTP ${status} without a JSON body: ${text.slice(0, 200)}` };
    }
    if (status === 200 && body.result !== undefined && body.result.isError !== true) {
      return { kind: 'success', output: body.result.structuredContent ?? {} };
    }
    // A tool that failed on the database answers isError `internal`; a failure before the tool ran (the
    // token check) answers a JSON-RPC error. Both carry the reference the log has the cause under.
    const toolError =
      body.result?.isError === true
        ? (JSON.parse(body.result.content?.[0]?.text ?? '{}').error as
            | { code?: string; details?: { reference?: unknown } }
            | undefined)
        : undefined;
    const reference =
      toolError?.code === 'internal' ? toolError.details?.reference : body.error?.data?.reference;
    if ((status === 200 || status === 500) && typeof reference === 'string') {
      return { kind: 'clean error', reference };
    }
    return { kind: 'broken', detail: `${name}: HTTP ${status} ${text.slice(0, 300)}` };
  }

  /** The n-th call of a mixed load: a booking in five calls, the rest reads and price changes. */
  function mixedCall(n: number, created: readonly string[]): [string, Record<string, unknown>] {
    const listingId = listingIds[n % listingIds.length] ?? '';
    const stayStart = addDays(firstArrival, 3 * Math.floor(n / listingIds.length));
    switch (n % 5) {
      case 0:
        return [
          'create_reservation',
          {
            listingId,
            startDate: stayStart,
            endDate: addDays(stayStart, 2),
            guest: { firstName: 'Fault', lastName: `Call${n}` },
            adults: 1,
            guestPrice: 240,
          },
        ];
      case 1: {
        const reservationId = created[created.length - 1];
        return reservationId === undefined ? ['get_user', {}] : ['get_reservation', { reservationId }];
      }
      case 2:
        return [
          'get_timeseries_stats',
          { startDate: addDays(today, -365), endDate: addDays(today, -1), granularity: 'month' },
        ];
      case 3:
        return ['get_calendar', { listingId, startDate: firstArrival, endDate: addDays(firstArrival, 13) }];
      default:
        return ['set_prices', { listingId, prices: [{ date: addDays(firstArrival, n % 90), price: 150 }] }];
    }
  }

  /** Runs calls `from` to `to` (excluded), `concurrency` at a time, and returns their outcomes in order. */
  async function runMixed(from: number, to: number, created: string[]): Promise<Outcome[]> {
    const outcomes: Outcome[] = [];
    let next = from;
    const worker = async () => {
      while (next < to) {
        const n = next;
        next += 1;
        const [name, args] = mixedCall(n, created);
        const outcome = await call(n, name, args);
        if (outcome.kind === 'success' && name === 'create_reservation') {
          created.push(String(outcome.output.id));
        }
        outcomes[n - from] = outcome;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    return outcomes;
  }

  it('stays up, answers every call cleanly, writes whole reservations, and recovers', async () => {
    const databaseName = new URL(database.url ?? '').pathname.slice(1);
    let faulting = true;
    let rounds = 0;
    let terminated = 0;
    const terminator = (async () => {
      while (faulting) {
        const { rows } = await sql<{ ended: boolean }>`
          select pg_terminate_backend(pid) as ended from pg_stat_activity
          where datname = ${databaseName} and pid <> pg_backend_pid()`.execute(admin.db);
        rounds += 1;
        terminated += rows.filter((row) => row.ended).length;
        await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
      }
    })();

    const created: string[] = [];
    let outcomes: Outcome[];
    try {
      outcomes = await runMixed(0, faultCalls, created);
    } finally {
      faulting = false;
      await terminator;
    }

    expect(server.child.exitCode, server.output()).toBeNull();
    expect(outcomes.filter((outcome) => outcome.kind === 'broken')).toEqual([]);
    expect(outcomes).toHaveLength(faultCalls);
    // The faults did reach requests: otherwise this proved nothing.
    expect(rounds).toBeGreaterThan(3);
    expect(terminated).toBeGreaterThan(0);
    expect(outcomes.filter((outcome) => outcome.kind === 'clean error').length).toBeGreaterThan(0);

    // Once the faults stop the server serves normally within seconds, with no restart.
    await vi.waitFor(async () => expect((await call(0, 'get_user', {})).kind).toBe('success'), {
      timeout: 5_000,
      interval: 100,
    });
    const after = await runMixed(faultCalls, faultCalls + 40, created);
    expect(after.filter((outcome) => outcome.kind !== 'success')).toEqual([]);
    expect(server.child.exitCode, server.output()).toBeNull();
    expect(server.output()).not.toMatch(/Unhandled 'error' event|unhandledRejection|uncaughtException/);
    // An operator sees why some calls failed: each lost connection is one warning.
    const lostConnections = server
      .output()
      .split('\n')
      .filter((line) => line.includes('Lost a connection to PostgreSQL'));
    expect(lostConnections.length).toBeGreaterThan(0);
    expect(lostConnections.filter((line) => !line.includes('"level":40'))).toEqual([]);
    // The one listener the credential caches of /mcp and /api share, cut off again and again, listens again
    // (after its backoff).
    await vi.waitFor(
      async () => {
        const { rows } = await sql<{ listening: number }>`
          select count(*) as listening from pg_stat_activity
          where datname = ${databaseName} and application_name = 'innkeep listen innkeep_auth'`.execute(
          admin.db,
        );
        expect(rows[0]?.listening).toBe(1);
      },
      { timeout: 35_000, interval: 250 },
    );

    // Each reservation that exists is whole: nothing half-written by a transaction cut off midway.
    const { rows: reservations } = await sql<{
      id: string;
      nights: number;
      holds: number;
      nightRows: number;
      facts: number;
      changes: number;
      audits: number;
    }>`
      select r.id, r.end_date - r.start_date as nights,
        (select count(*) from calendar_holds h where h.reservation_id = r.id) as holds,
        (select count(*) from reservation_nights n where n.reservation_id = r.id) as "nightRows",
        (select count(*) from stay_night_facts f where f.reservation_id = r.id) as facts,
        (select count(*) from reservation_changes c where c.reservation_id = r.id) as changes,
        (select count(*) from audit_log a where a.target_id = r.id and a.action = 'reservation.create')
          as audits
      from reservations r where r.guest_first_name = 'Fault'`.execute(database.db);
    const existing = new Set(reservations.map((row) => row.id));
    for (const id of created) expect(existing.has(id)).toBe(true);
    for (const row of reservations) {
      expect(row).toEqual({
        id: row.id,
        nights: 2,
        holds: 1,
        nightRows: 2,
        facts: 2,
        changes: 1,
        audits: 1,
      });
    }
  });
});

/** `date` plus `days`, both `YYYY-MM-DD`. */
function addDays(date: string, days: number): string {
  const moved = new Date(`${date}T00:00:00Z`);
  moved.setUTCDate(moved.getUTCDate() + days);
  return moved.toISOString().slice(0, 10);
}
