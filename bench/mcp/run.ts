import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { obtainAccessToken } from '@innkeep/auth/testing';
import pg from 'pg';
import { type Measurement, measureUnderLoad } from '../support/load-measurement.ts';

// The /mcp benchmark: one Innkeep instance on PostgreSQL against two baselines started in the same run — a
// bare Fastify route returning a constant JSON-RPC result (the limit) and the SDK's per-request McpServer
// pattern (the peer). Prints requests per second, p50/p99 latency and the ratios the targets are set in.
// On Linux it also prints the CPU each request cost the server process and the database's backends: on a
// busy or small machine (the load generator, the server and PostgreSQL share the cores) throughput swings
// with whatever else runs, and CPU per request is the steadier measure of our own work.
//
//   npm run bench:mcp            (PostgreSQL on 127.0.0.1:5432; BENCH_DATABASE_SERVER to use another)
//   BENCH_SECONDS=5              seconds per target (default 10)
//   BENCH_TARGETS=innkeep        only the targets whose name contains one of these (comma-separated)
//   BENCH_CPU_PROF=/tmp/prof     write a V8 CPU profile of the Innkeep server there (open in DevTools)

const server = process.env.BENCH_DATABASE_SERVER ?? 'postgres://postgres@127.0.0.1:5432/test';
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = 50;
const targetFilter = process.env.BENCH_TARGETS?.split(',').filter((part) => part !== '');
const cpuProfileDir = process.env.BENCH_CPU_PROF;
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

interface Server {
  readonly url: string;
  readonly pid: number | undefined;
}

interface Target {
  readonly name: string;
  readonly server: Server;
  readonly path: string;
  readonly body: string;
  readonly headers: Record<string, string>;
}

const databaseName = `innkeep_bench_${process.pid}`;
const databaseUrl = withDatabase(server, databaseName);
const children: ChildProcess[] = [];

try {
  await admin(`create database ${databaseName}`);
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    SECRET_KEYS: randomBytes(32).toString('hex'),
    OIDC_SIGNING_KEY: JSON.stringify(
      generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
    ),
    LOG_LEVEL: 'warn',
  };
  // The CLI migrates and seeds the demo account; the server then finds it ready.
  await run('node', ['apps/server/src/cli.ts', 'seed-demo'], env);
  // Settle the seeded database first: otherwise autovacuum works through the seed's dead rows during the
  // first targets, on the same cores, and its CPU counts as the database's.
  await admin('vacuum analyze', databaseUrl);
  const profile = cpuProfileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`];
  const innkeep = await start('innkeep', [...profile, 'apps/server/src/main.ts'], {
    ...env,
    PORT: '3471',
    BASE_URL: 'http://127.0.0.1:3471',
    // One token sends every request; the per-token limit (300 a minute) would otherwise answer 429s.
    MCP_RATE_LIMIT: '100000000',
  });
  const bare = await start('bare', ['bench/mcp/bare-server.ts'], env);
  const peer = await start('peer', ['bench/mcp/peer-server.ts'], env);

  const { accessToken } = await obtainAccessToken({
    baseUrl: innkeep.url,
    email: 'demo@innkeep.test',
    password: 'innkeep-demo',
    scopes: ['listings:read'],
  });
  const listingId = await firstListingId(innkeep.url, accessToken);
  const json = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
  };
  const auth = { ...json, authorization: `Bearer ${accessToken}` };
  const call = rpc('tools/call', { name: 'get_listing', arguments: { listingId } });
  const list = rpc('tools/list', {});

  const results: Measurement[] = [];
  for (const target of [
    { name: 'bare Fastify (limit)', server: bare, path: '/mcp', body: call, headers: json },
    { name: 'peer tools/list', server: peer, path: '/mcp', body: list, headers: json },
    { name: 'peer tools/call get_listing', server: peer, path: '/mcp', body: call, headers: json },
    { name: 'innkeep tools/list', server: innkeep, path: '/mcp', body: list, headers: auth },
    { name: 'innkeep tools/call get_listing', server: innkeep, path: '/mcp', body: call, headers: auth },
  ] satisfies Target[]) {
    if (targetFilter !== undefined && !targetFilter.some((part) => target.name.includes(part))) continue;
    results.push(await measure(target));
  }
  report(results);
} finally {
  // Servers shut down on SIGTERM (and write their CPU profiles) before their database goes.
  await Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve(undefined);
          child.once('exit', resolve);
          setTimeout(resolve, 10_000).unref();
          child.kill('SIGTERM');
        }),
    ),
  );
  await admin(`drop database if exists ${databaseName} with (force)`);
}

function rpc(method: string, params: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
}

async function measure(target: Target): Promise<Measurement> {
  return measureUnderLoad(
    {
      name: target.name,
      url: `${target.server.url}${target.path}`,
      method: 'POST',
      headers: target.headers,
      body: target.body,
      serverPid: target.server.pid,
    },
    { connections, seconds },
    { server: server, name: databaseName },
  );
}

function report(results: Measurement[]): void {
  const find = (name: string) =>
    results.find((result) => result.name === name)?.requestsPerSecond ?? Number.NaN;
  const bare = find('bare Fastify (limit)');
  console.log(
    `\n/mcp benchmark: ${connections} connections, ${seconds} s per target, loopback, PostgreSQL\n`,
  );
  console.log(
    'target                            req/s     p50 ms   p99 ms   errors   server µs/req   db µs/req',
  );
  for (const r of results) {
    console.log(
      `${r.name.padEnd(32)} ${r.requestsPerSecond.toFixed(0).padStart(7)} ${String(r.p50).padStart(9)} ${String(r.p99).padStart(8)} ${String(r.errors + r.non2xx).padStart(8)} ${r.serverCpuUs.toFixed(0).padStart(15)} ${r.databaseCpuUs.toFixed(0).padStart(11)}`,
    );
  }
  const ours = find('innkeep tools/call get_listing');
  const peer = find('peer tools/call get_listing');
  const oursList = find('innkeep tools/list');
  const peerList = find('peer tools/list');
  const p99 = results.find((r) => r.name === 'innkeep tools/call get_listing')?.p99 ?? Number.NaN;
  console.log('\nratios (targets in brackets)');
  console.log(`  tools/call vs bare limit: ${((ours / bare) * 100).toFixed(1)} %   [>= 20 %]`);
  console.log(`  tools/call vs peer:       ${(ours / peer).toFixed(1)}x   [>= 30x]`);
  // No server can answer faster than the bare route, so bare ÷ peer bounds the ratio to the peer.
  console.log(`  ceiling vs peer:          ${(bare / peer).toFixed(1)}x   (bare limit ÷ peer)`);
  console.log(`  tools/list vs peer:       ${(oursList / peerList).toFixed(1)}x`);
  console.log(`  tools/call p99:           ${p99} ms   [< 20 ms]`);
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

async function admin(statement: string, url = server): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, env, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${args.join(' ')} exited with ${code}`)),
    );
  });
}

/** Starts a server process and resolves with its base URL and pid once it prints where it listens. */
function start(name: string, args: string[], env: NodeJS.ProcessEnv): Promise<Server> {
  return new Promise((resolve, reject) => {
    const child = spawn('node', args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(child);
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
        resolve({ url: (match[1] ?? match[2] ?? '').replace(/\/$/, ''), pid: child.pid });
      }
    });
    child.on('exit', (code) => reject(new Error(`${name} exited with ${code}:\n${output}`)));
  });
}

async function firstListingId(baseUrl: string, token: string): Promise<string> {
  const response = await fetch(`${baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
    },
    body: rpc('tools/call', { name: 'list_listings', arguments: { limit: 1 } }),
  });
  const body = (await response.json()) as { result?: { structuredContent?: { items?: { id: string }[] } } };
  const id = body.result?.structuredContent?.items?.[0]?.id;
  if (id === undefined) throw new Error(`list_listings gave no listing: ${JSON.stringify(body)}`);
  return id;
}
