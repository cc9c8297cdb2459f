// Starts the tool server alone: `pnpm --filter @innkeep/mcp-only start`. Reads the environment once, brings
// the shared database up to date (safe beside the Innkeep server doing the same), and listens until SIGINT
// or SIGTERM, then finishes the requests in flight and stops (see stopOnSignals).
import { authMigrations, createPostgresAuthNotifications } from '@innkeep/auth';
import { systemClock } from '@innkeep/domain';
import {
  type DatabaseHandle,
  domainMigrations,
  migrateToLatest,
  openDatabase,
} from '@innkeep/domain/postgres';
import {
  createDrainState,
  createServiceMetrics,
  type ShutdownStep,
  startMetricsServer,
  stopOnSignals,
} from '@innkeep/service-runtime';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { buildMcpOnlyApp } from './app.ts';
import { ConfigError, loadMcpOnlyConfig, type McpOnlyConfig } from './config.ts';

let config: McpOnlyConfig;
try {
  config = loadMcpOnlyConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}

let database: DatabaseHandle | undefined;
let app: FastifyInstance | undefined;
let metricsServer: FastifyInstance | undefined;
const drain = createDrainState();
// Without METRICS_PORT nothing is counted: no scrape could read it.
const metrics = config.metricsPort === undefined ? undefined : createServiceMetrics();
// Rate limits count across instances through Redis; commands fail fast while it is down (the limiter then
// lets requests through) instead of queueing behind a reconnect.
const redis =
  config.redisUrl === undefined
    ? undefined
    : new Redis(config.redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
// Only at debug level: /mcp says once when it stops and starts counting through Redis.
redis?.on('error', (error) => app?.log.debug({ err: error }, 'Redis connection failed; reconnecting'));
try {
  await redis?.connect();
  database = await openDatabase({ kind: 'postgres', url: config.databaseUrl });
  const migrations = await migrateToLatest(database.db, { ...domainMigrations, ...authMigrations });
  const listen = database.listen;
  app = buildMcpOnlyApp({
    database,
    clock: systemClock,
    logLevel: config.logLevel,
    baseUrl: config.baseUrl,
    trustProxy: config.trustProxy,
    redis,
    mcpAllowedOrigins: config.mcpAllowedOrigins,
    rateLimit: { max: config.mcpRateLimit, timeWindow: 60_000 },
    isDraining: drain.isDraining,
    metrics,
    // Revocations, role and subscription changes made through the Innkeep server reach this cache too.
    authNotifications:
      listen === undefined
        ? undefined
        : createPostgresAuthNotifications({
            listen,
            onError: (error) =>
              app?.log.warn(
                { err: error },
                'Not listening for token revocations: /mcp checks every token in the database until listening again',
              ),
          }),
  });
  if (migrations.length > 0) app.log.info({ migrations }, 'Applied database migrations');
  await app.listen({ port: config.port, host: config.host });
  if (metrics !== undefined && config.metricsPort !== undefined) {
    if (database.poolStats !== undefined) metrics.observePool(database.poolStats);
    metricsServer = await startMetricsServer({
      registry: metrics.registry,
      host: config.host,
      port: config.metricsPort,
    });
  }
  process.stdout.write(`Innkeep's tool server is running for ${config.baseUrl}/mcp\n`);
  stopOnSignals({ app, drain, drainLimitMs: config.shutdownDrainMs, steps: shutdownSteps(database) });
} catch (error) {
  console.error('The tool server could not start:', error);
  await app?.close().catch(() => {});
  await metricsServer?.close().catch(() => {});
  await database?.close().catch(() => {});
  redis?.disconnect();
  process.exit(1);
}

/** What stops after the last request, in order: the metrics, the database, Redis. */
function shutdownSteps(database: DatabaseHandle): ShutdownStep[] {
  const steps: ShutdownStep[] = [];
  const metricsListener = metricsServer;
  if (metricsListener !== undefined)
    steps.push({ name: 'the metrics server', stop: () => metricsListener.close() });
  steps.push({ name: 'the database', stop: () => database.close() });
  const redisClient = redis;
  if (redisClient !== undefined) steps.push({ name: 'Redis', stop: () => redisClient.quit() });
  return steps;
}
