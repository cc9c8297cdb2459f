import type { ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import {
  admin,
  cpuMilliseconds,
  databaseCpuBetween,
  databaseCpuMilliseconds,
  runNode,
  type StartedServer,
  startServer,
  stopServer,
  withDatabase,
} from '../support/processes.ts';
import { allDeliveredOnce, checkArrivals, collectArrivals } from './arrival-check.ts';
import { recordedDeliveries } from './delivery-timeline.ts';
import { sampleWebhookJob } from './job-sampler.ts';
import { startReceiver } from './receiver.ts';
import { printBacklogReport, printCeilingAndTargets, printStreamingReport } from './report.ts';
import { addDays, plannedStays, writeReservations } from './reservation-writes.ts';
import { measureTransportCeiling } from './transport-ceiling.ts';

// The webhook benchmark: one Innkeep instance on PostgreSQL (a fresh database with the demo account) with one
// subscription to `reservation.created` pointing at a loopback receiver in this process. BENCH_WRITES
// reservations are booked over /api, and every delivery is timed from the write's commit to its arrival and
// has its signature verified. The baseline, measured in the same run, is the transport's ceiling: the same
// receiver fed the same number of signed POSTs of a same-size body straight from here, 32 at a time over
// kept-alive connections, as the sender makes them.
//
// The streaming phase books while the server delivers: its deliveries per second can be no higher than the
// writes per second. The backlog phase then tells the sender's own pace: BENCH_WRITES more reservations are
// booked by an instance with WEBHOOKS=off, and an instance with webhooks on is started to drain them.
//
//   npm run bench:webhooks       (PostgreSQL on 127.0.0.1:5432; BENCH_DATABASE_SERVER to use another)
//   BENCH_WRITES=1000            reservations to book (default 1000)
//   BENCH_CPU_PROF=/tmp/prof     write a V8 CPU profile of the Innkeep server there (open in DevTools)

const databaseServer = process.env.BENCH_DATABASE_SERVER ?? 'postgres://postgres@127.0.0.1:5432/test';
const writes = Number(process.env.BENCH_WRITES ?? 1000);
if (!Number.isInteger(writes) || writes < 1)
  throw new Error(`BENCH_WRITES must be 1 or more, got ${writes}.`);
const cpuProfileDir = process.env.BENCH_CPU_PROF;
const writers = 8;
// The sender's default concurrency (runWebhookDeliveries), which the transport ceiling copies.
const senderConcurrency = 32;
// How long deliveries may still come after the last write before the missing ones are reported.
const deliveryWaitMs = 60_000;
const demoOwnerEmail = 'demo@innkeep.test';
const port = 3473;
const metricsPort = 3474;

const databaseName = `innkeep_bench_webhooks_${process.pid}`;
const databaseUrl = withDatabase(databaseServer, databaseName);
const children: ChildProcess[] = [];
const receiver = await startReceiver();
let healthy = false;

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
  // Settle the seeded database first, so autovacuum does not work through the seed's dead rows meanwhile.
  await admin(databaseUrl, 'vacuum analyze');
  const startInnkeep = async (webhooks: boolean): Promise<StartedServer> => {
    const profile = cpuProfileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`];
    const server = await startServer('innkeep', [...profile, 'apps/server/src/main.ts'], {
      ...env,
      PORT: String(port),
      BASE_URL: `http://127.0.0.1:${port}`,
      METRICS_PORT: String(metricsPort),
      // One authToken makes every write; its limit (120 a minute) would otherwise answer 429s.
      REST_RATE_LIMIT: '100000000',
      // The message rule job would wake on its own schedule and take CPU from the deliveries.
      MESSAGE_RULES: 'off',
      WEBHOOKS: webhooks ? 'on' : 'off',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    });
    children.push(server.child);
    return server;
  };
  const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;

  // Streaming: writes and deliveries at once.
  let innkeep = await startInnkeep(true);
  const secret = await subscribe(innkeep.url, authToken, receiver.url);
  receiver.setSecret(secret);
  const listingIds = await listingIdsOf(innkeep.url, authToken);
  const today = new Date().toISOString().slice(0, 10);
  const stays = plannedStays(listingIds, 2 * writes, addDays(today, 2 * 365));
  const streamingSampler = sampleWebhookJob(metricsUrl, 100);
  const writesStarted = performance.timeOrigin + performance.now();
  const written = await writeReservations({
    baseUrl: innkeep.url,
    authToken,
    stays: stays.slice(0, writes),
    writers,
  });
  const writesEnded = performance.timeOrigin + performance.now();
  const streamed = new Set(written.committed.map((write) => write.reservationId));
  const streamingArrivals = checkArrivals(
    streamed,
    await collectArrivals(receiver, streamed, deliveryWaitMs),
  );
  const streamingSamples = await streamingSampler.stop();
  const streamingRecorded = await recordedDeliveries(databaseUrl);
  await stopServer(innkeep.child);

  // Backlog: booked with no deliveries going, then drained by a fresh instance.
  innkeep = await startInnkeep(false);
  const backlogWritten = await writeReservations({
    baseUrl: innkeep.url,
    authToken,
    stays: stays.slice(writes),
    writers,
  });
  await stopServer(innkeep.child);
  const backlog = new Set(backlogWritten.committed.map((write) => write.reservationId));
  const drainStartedAt = performance.timeOrigin + performance.now();
  innkeep = await startInnkeep(true);
  const listeningAt = performance.timeOrigin + performance.now();
  const cpuAtListening = await cpuMilliseconds(innkeep.pid);
  const databaseCpuAtListening = await databaseCpuMilliseconds(databaseServer, databaseName);
  const backlogSampler = sampleWebhookJob(metricsUrl, 100);
  const backlogArrivals = checkArrivals(backlog, await collectArrivals(receiver, backlog, deliveryWaitMs));
  const backlogSamples = await backlogSampler.stop();
  const drainCpuMs = (await cpuMilliseconds(innkeep.pid)) - cpuAtListening;
  const drainDatabaseCpuMs = databaseCpuBetween(
    databaseCpuAtListening,
    await databaseCpuMilliseconds(databaseServer, databaseName),
  );

  const template = [...streamingArrivals.delivered.values()][0]?.body ?? '{}';
  const ceiling = await measureTransportCeiling({
    url: receiver.url,
    secret,
    body: template,
    requests: writes,
    concurrency: senderConcurrency,
    warmUp: 200,
  });
  const ceilingBadSignatures = receiver.take().filter((arrival) => !arrival.signatureValid).length;

  const streaming = printStreamingReport({
    writes,
    writers,
    deliveryWaitMs,
    writesStarted,
    writesEnded,
    written,
    checked: streamingArrivals,
    recorded: streamingRecorded,
    jobSamples: streamingSamples,
  });
  const backlogPerSecond = printBacklogReport({
    written: backlogWritten,
    checked: backlogArrivals,
    drainStartedAt,
    listeningAt,
    serverCpuMs: drainCpuMs,
    databaseCpuMs: drainDatabaseCpuMs,
    jobSamples: backlogSamples,
  });
  printCeilingAndTargets({
    senderConcurrency,
    bodyBytes: Buffer.byteLength(template),
    ceiling,
    ceilingBadSignatures,
    streaming,
    backlogPerSecond,
  });
  healthy =
    written.failures === 0 &&
    backlogWritten.failures === 0 &&
    allDeliveredOnce(streamingArrivals) &&
    allDeliveredOnce(backlogArrivals) &&
    ceiling.failures === 0 &&
    ceilingBadSignatures === 0;
} finally {
  // The server shuts down on SIGTERM (and writes its CPU profile) before its database goes.
  await Promise.all(children.map(stopServer));
  await receiver.close();
  await admin(databaseServer, `drop database if exists ${databaseName} with (force)`);
}
if (!healthy) process.exitCode = 1;

/** Subscribes `url` to `reservation.created` as the demo owner and resolves with the signing secret. */
async function subscribe(baseUrl: string, authToken: string, url: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/createWebhookSubscription`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authToken },
    body: JSON.stringify({ url, events: ['reservation.created'] }),
  });
  const body = (await response.json()) as { secret?: string };
  if (!response.ok || body.secret === undefined) {
    throw new Error(`createWebhookSubscription answered ${response.status}: ${JSON.stringify(body)}`);
  }
  return body.secret;
}

/** Every listing of the demo owner, in the order getListings gives them. */
async function listingIdsOf(baseUrl: string, authToken: string): Promise<string[]> {
  const response = await fetch(`${baseUrl}/api/getListings`, { headers: { authToken } });
  const body = (await response.json()) as { listings?: { _id: string }[] };
  const ids = body.listings?.map((listing) => listing._id) ?? [];
  if (ids.length === 0) {
    throw new Error(`getListings gave no listing (${response.status}): ${JSON.stringify(body)}`);
  }
  return ids;
}
