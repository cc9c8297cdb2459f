import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Measurement, measureUnderLoad } from '../support/load-measurement.ts';
import {
  admin,
  runNode,
  type StartedServer,
  startServer,
  stopServer,
  withDatabase,
} from '../support/processes.ts';
import { summarizeCpuProfile } from './cpu-profile-summary.ts';

// The /api benchmark: one Innkeep instance on PostgreSQL (a fresh database with the demo account, settled
// with VACUUM ANALYZE) against a bare Fastify route returning a small JSON object, started in the same run.
// Drives each with autocannon over loopback and prints requests per second, p50/p99 latency, the CPU each
// request cost the server process and the database's backends (Linux), and the ratios the targets are set
// in. Every Innkeep request carries the demo owner's authToken, as a Host Tools integration sends it.
//
//   npm run bench:rest           (PostgreSQL on 127.0.0.1:5432; BENCH_DATABASE_SERVER to use another)
//   BENCH_SECONDS=5              seconds per case (default 10), after 2 s of warm-up
//   BENCH_TARGETS=getListing     only the cases whose name contains one of these (comma-separated)
//   BENCH_ROUNDS=3               run the cases that many times in turn and print the medians too: on a
//                                shared machine the load drifts from one case to the next
//   BENCH_CPU_PROF=/tmp/prof     write a V8 CPU profile of the Innkeep server there (open in DevTools)
//                                and print its functions and files of most self time while requests ran

const databaseServer = process.env.BENCH_DATABASE_SERVER ?? 'postgres://postgres@127.0.0.1:5432/test';
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const roundCount = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));
const connections = 50;
const targetFilter = process.env.BENCH_TARGETS?.split(',').filter((part) => part !== '');
const cpuProfileDir = process.env.BENCH_CPU_PROF;
// The days of the getReservations window (both ends included), as a month-view sync asks for them.
const reservationWindowDays = 31;
const demoOwnerEmail = 'demo@innkeep.test';

interface Case {
  readonly name: string;
  readonly server: StartedServer;
  readonly path: string;
  readonly headers: Record<string, string>;
}

const bareName = 'bare Fastify (limit)';
const getListingName = 'innkeep getListing';
const getReservationsName = `innkeep getReservations ${reservationWindowDays} d`;

const databaseName = `innkeep_bench_rest_${process.pid}`;
const databaseUrl = withDatabase(databaseServer, databaseName);
const servers: StartedServer[] = [];

/** Starts a server process and keeps it, to stop it at the end. */
async function start(name: string, args: string[], env: NodeJS.ProcessEnv): Promise<StartedServer> {
  const server = await startServer(name, args, env);
  servers.push(server);
  return server;
}

try {
  await admin(databaseServer, `create database ${databaseName}`);
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
  await runNode(['apps/server/src/cli.ts', 'seed-demo'], env);
  const authToken = /authToken: (\S+)/.exec(
    await runNode(['apps/server/src/cli.ts', 'new-auth-token', '--email', demoOwnerEmail], env),
  )?.[1];
  if (authToken === undefined) throw new Error('new-auth-token printed no authToken');
  // Settle the seeded database first: otherwise autovacuum works through the seed's dead rows during the
  // first cases, on the same cores, and its CPU counts as the database's.
  await admin(databaseUrl, 'vacuum analyze');
  const profile = cpuProfileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`];
  const innkeep = await start('innkeep', [...profile, 'apps/server/src/main.ts'], {
    ...env,
    PORT: '3472',
    BASE_URL: 'http://127.0.0.1:3472',
    // One authToken sends every request; its limit (120 a minute) would otherwise answer 429s.
    REST_RATE_LIMIT: '100000000',
    // The message rule job would wake on its own schedule and take CPU from whichever case is running.
    MESSAGE_RULES: 'off',
  });
  const bare = await start('bare', ['bench/rest/bare-server.ts'], env);

  const headers = { accept: 'application/json', authToken };
  const listingId = await firstListingId(innkeep.url, headers);
  const windowStart = new Date().toISOString().slice(0, 10);
  const windowEnd = addDays(windowStart, reservationWindowDays - 1);

  const targets = (
    [
      { name: bareName, server: bare, path: `/api/getListing/${listingId}`, headers },
      { name: getListingName, server: innkeep, path: `/api/getListing/${listingId}`, headers },
      {
        name: getReservationsName,
        server: innkeep,
        path: `/api/getReservations/${listingId}/${windowStart}/${windowEnd}`,
        headers,
      },
    ] satisfies Case[]
  ).filter((target) => targetFilter === undefined || targetFilter.some((part) => target.name.includes(part)));
  const rounds: Measurement[][] = [];
  for (let round = 0; round < roundCount; round += 1) {
    const results: Measurement[] = [];
    for (const target of targets) results.push(await measure(target));
    report(results, roundCount === 1 ? '' : ` (round ${round + 1} of ${roundCount})`);
    rounds.push(results);
  }
  if (roundCount > 1) reportMedians(rounds);
} finally {
  // Servers shut down on SIGTERM (and write their CPU profiles) before their database goes.
  await Promise.all(servers.map((server) => stopServer(server.child)));
  await admin(databaseServer, `drop database if exists ${databaseName} with (force)`);
}
if (cpuProfileDir !== undefined) reportProfile(cpuProfileDir);

async function measure(target: Case): Promise<Measurement> {
  return measureUnderLoad(
    {
      name: target.name,
      url: `${target.server.url}${target.path}`,
      method: 'GET',
      headers: target.headers,
      serverPid: target.server.pid,
    },
    { connections, seconds },
    { server: databaseServer, name: databaseName },
  );
}

function report(results: Measurement[], title: string): void {
  const find = (name: string) => results.find((result) => result.name === name);
  console.log(
    `\n/api benchmark${title}: ${connections} connections, ${seconds} s per case, loopback, PostgreSQL\n`,
  );
  console.log(
    'case                              req/s     p50 ms   p99 ms   errors   server µs/req   db µs/req',
  );
  for (const r of results) {
    console.log(
      `${r.name.padEnd(32)} ${r.requestsPerSecond.toFixed(0).padStart(7)} ${String(r.p50).padStart(9)} ${String(r.p99).padStart(8)} ${String(r.errors + r.non2xx).padStart(8)} ${r.serverCpuUs.toFixed(0).padStart(15)} ${r.databaseCpuUs.toFixed(0).padStart(11)}`,
    );
  }
  const bare = find(bareName)?.requestsPerSecond ?? Number.NaN;
  const listing = find(getListingName);
  const reservations = find(getReservationsName);
  const percentOfBare = (measured: Measurement | undefined) =>
    (((measured?.requestsPerSecond ?? Number.NaN) / bare) * 100).toFixed(1);
  console.log('\nratios (targets in brackets)');
  console.log(`  getListing vs bare limit:      ${percentOfBare(listing)} %   [>= 30 %]`);
  console.log(`  getListing p99:                ${listing?.p99 ?? Number.NaN} ms   [< 20 ms]`);
  console.log(`  getReservations vs bare limit: ${percentOfBare(reservations)} %`);
  console.log(`  getReservations p99:           ${reservations?.p99 ?? Number.NaN} ms`);
}

/** Prints, per case, the median over the rounds, and the median of each round's ratio to the bare route. */
function reportMedians(rounds: Measurement[][]): void {
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1
      ? (sorted[middle] ?? Number.NaN)
      : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
  };
  const of = (round: Measurement[], name: string) => round.find((result) => result.name === name);
  console.log(`\nmedians of ${rounds.length} rounds`);
  for (const name of [bareName, getListingName, getReservationsName]) {
    const measured = rounds.map((round) => of(round, name)).filter((result) => result !== undefined);
    if (measured.length === 0) continue;
    console.log(
      `  ${name.padEnd(32)} ${median(measured.map((r) => r.requestsPerSecond))
        .toFixed(0)
        .padStart(
          7,
        )} req/s   p99 ${median(measured.map((r) => r.p99))} ms   server ${median(measured.map((r) => r.serverCpuUs)).toFixed(0)} µs/req`,
    );
    if (name === bareName) continue;
    const ratios = rounds.map(
      (round) =>
        ((of(round, name)?.requestsPerSecond ?? Number.NaN) /
          (of(round, bareName)?.requestsPerSecond ?? Number.NaN)) *
        100,
    );
    console.log(
      `  ${''.padEnd(32)} vs bare limit: median ${median(ratios).toFixed(1)} % (rounds: ${ratios.map((ratio) => ratio.toFixed(1)).join(', ')})`,
    );
  }
}

/** Prints where the newest profile in `dir` (the Innkeep server's, written as it stopped) spent its time. */
function reportProfile(dir: string): void {
  const newest = readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => join(dir, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  if (newest === undefined) return;
  const summary = summarizeCpuProfile(newest, 25);
  const lines = (title: string, rows: typeof summary.byFile) => {
    console.log(`\n${title}`);
    for (const row of rows) {
      console.log(
        `${row.percent.toFixed(1).padStart(6)} %  ${row.milliseconds.toFixed(0).padStart(7)} ms  ${row.name}`,
      );
    }
  };
  console.log(`\nCPU profile ${newest}: ${summary.busyMilliseconds.toFixed(0)} ms busy while requests ran`);
  lines('self time by file (share of busy time)', summary.byFile.slice(0, 15));
  lines('self time by function', summary.byFunction);
}

/** `date` (YYYY-MM-DD) plus `days`. */
function addDays(date: string, days: number): string {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
}

async function firstListingId(baseUrl: string, headers: Record<string, string>): Promise<string> {
  const response = await fetch(`${baseUrl}/api/getListings`, { headers });
  const body = (await response.json()) as { listings?: { _id: string }[] };
  const id = body.listings?.[0]?._id;
  if (id === undefined)
    throw new Error(`getListings gave no listing (${response.status}): ${JSON.stringify(body)}`);
  return id;
}
