import { readFile } from 'node:fs/promises';
import autocannon from 'autocannon';
import pg from 'pg';

// USER_HZ, the unit of CPU times in /proc: 100 on every Linux the benchmarks run on.
const clockTicksPerSecond = 100;

/** One case of a load benchmark: where to send what, and the process that serves it. */
export interface LoadCase {
  readonly name: string;
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly headers: Record<string, string>;
  readonly body?: string;
  /** The serving process, whose CPU time is measured; undefined when unknown. */
  readonly serverPid: number | undefined;
}

/** Where the benchmark database lives, whose backends' CPU time counts as the database's. */
export interface BenchDatabase {
  /** A URL of the PostgreSQL server (any database on it). */
  readonly server: string;
  readonly name: string;
}

/** What one case measured. */
export interface Measurement {
  readonly name: string;
  readonly requestsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
  readonly non2xx: number;
  /** CPU microseconds per request in the server process and in the database backends; NaN off Linux. */
  readonly serverCpuUs: number;
  readonly databaseCpuUs: number;
}

/**
 * Drives `target` with autocannon for `seconds` after 2 s of warm-up (JIT, pools, caches) and measures
 * throughput, latency and the CPU each request cost the server and the database's backends.
 */
export async function measureUnderLoad(
  target: LoadCase,
  load: { readonly connections: number; readonly seconds: number },
  database: BenchDatabase,
): Promise<Measurement> {
  const options = {
    url: target.url,
    method: target.method,
    headers: target.headers,
    ...(target.body === undefined ? {} : { body: target.body }),
    connections: load.connections,
  };
  await autocannon({ ...options, duration: 2 });
  const before = await cpuSnapshot(target.serverPid, database);
  const result = await autocannon({ ...options, duration: load.seconds });
  const after = await cpuSnapshot(target.serverPid, database);
  const perRequest = (ticks: number) => (ticks * 1e6) / clockTicksPerSecond / result.requests.total;
  return {
    name: target.name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
    serverCpuUs: perRequest(after.server - before.server),
    databaseCpuUs: perRequest(
      [...after.backends].reduce((sum, [pid, ticks]) => sum + ticks - (before.backends.get(pid) ?? 0), 0),
    ),
  };
}

interface CpuSnapshot {
  readonly server: number;
  readonly backends: Map<number, number>;
}

/** CPU ticks used so far by the server process and by each backend of the benchmark database. */
async function cpuSnapshot(serverPid: number | undefined, database: BenchDatabase): Promise<CpuSnapshot> {
  const backends = new Map<number, number>();
  const client = new pg.Client({ connectionString: database.server });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [database.name],
    );
    for (const { pid } of rows) backends.set(pid, await cpuTicks(pid));
  } finally {
    await client.end();
  }
  return { server: serverPid === undefined ? Number.NaN : await cpuTicks(serverPid), backends };
}

/** utime + stime of a process from /proc (fields 14 and 15); NaN where there is no /proc. */
async function cpuTicks(pid: number): Promise<number> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return Number.NaN;
  }
}
