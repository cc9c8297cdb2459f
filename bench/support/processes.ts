import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

// The process and database plumbing the benchmarks share: a database of their own, the CLI, server processes.

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
// USER_HZ, the unit of CPU times in /proc: 100 on every Linux the benchmarks run on.
const clockTicksPerSecond = 100;

/** A server process the benchmark started: where it listens and its process id. */
export interface StartedServer {
  readonly url: string;
  readonly pid: number | undefined;
  readonly child: ChildProcess;
}

/** `url` (a PostgreSQL URL) pointing at database `name` instead. */
export function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** Runs one statement on its own connection to `url`. */
export async function admin(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Runs `node …args` from the repository root to the end and resolves with what it printed. */
export function runNode(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('node', args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${args.join(' ')} exited with ${code}`)),
    );
  });
}

/** Starts `node …args` from the repository root and resolves once it prints where it listens. */
export function startServer(name: string, args: string[], env: NodeJS.ProcessEnv): Promise<StartedServer> {
  return new Promise((resolve, reject) => {
    const child = spawn('node', args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`${name} did not start within 60 s:\n${output}`)),
      60_000,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening (http:\/\/\S+)|running at (http:\/\/\S+)/.exec(output);
      if (match !== null) {
        clearTimeout(timer);
        resolve({ url: (match[1] ?? match[2] ?? '').replace(/\/$/, ''), pid: child.pid, child });
      }
    });
    child.on('exit', (code) => reject(new Error(`${name} exited with ${code}:\n${output}`)));
  });
}

/** Sends SIGTERM and waits (at most 10 s) for the process to end, so it closes its database first. */
export function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    setTimeout(resolve, 10_000).unref();
    child.kill('SIGTERM');
  });
}

/** CPU milliseconds (user + system) `pid` has used so far, from /proc; NaN off Linux or once it has ended. */
export async function cpuMilliseconds(pid: number | undefined): Promise<number> {
  if (pid === undefined) return Number.NaN;
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicksPerSecond;
  } catch {
    return Number.NaN;
  }
}

/**
 * CPU milliseconds used so far by each backend of database `name` (by process id), read from /proc; the
 * PostgreSQL server must run on this machine. `serverUrl` is any database on that server.
 */
export async function databaseCpuMilliseconds(serverUrl: string, name: string): Promise<Map<number, number>> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [name],
    );
    const used = new Map<number, number>();
    for (const { pid } of rows) used.set(pid, await cpuMilliseconds(pid));
    return used;
  } finally {
    await client.end();
  }
}

/** The CPU the backends used between two {@link databaseCpuMilliseconds} readings; new backends count whole. */
export function databaseCpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, used] of after) total += used - (before.get(pid) ?? 0);
  return total;
}
