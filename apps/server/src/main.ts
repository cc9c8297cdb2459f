// Starts Innkeep: `npm start`, or `node src/main.ts`. Reads the environment once, brings the database up to
// date, seeds the demo account on the first start when DEMO_DATA is on, and listens until SIGINT or SIGTERM,
// then finishes the requests in flight and stops (see stopOnSignals).
import { createPostgresAuthNotifications } from '@innkeep/auth';
import { systemClock } from '@innkeep/domain';
import { demoLogin, hasDemoAccount } from '@innkeep/domain/demo';
import type { DatabaseHandle } from '@innkeep/domain/postgres';
import {
  createDrainState,
  createServiceMetrics,
  type ShutdownStep,
  startMetricsServer,
  stopOnSignals,
} from '@innkeep/service-runtime';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { buildApp } from './app.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { DataDirInUseError } from './data-dir-lock.ts';
import { explainDatabaseError, openConfiguredDatabase, prepareDatabase } from './database.ts';
import { localToday, seedDemoWithProgress } from './demo.ts';
import { type MessageRuleJob, startMessageRuleJob } from './message-rule-job.ts';

/** REDIS_URL is set but nothing answered there at start. */
class RedisUnavailableError extends Error {
  override readonly name = 'RedisUnavailableError';

  constructor(cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`the Redis server in REDIS_URL did not answer (${reason}); is it running, on that host and port?`, {
      cause,
    });
  }
}

let config: Config;
try {
  config = loadConfig(process.env);
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
// Rate limits count across instances through Redis when there is one; commands fail fast while it is
// down (the limiters then let requests through) instead of queueing behind a reconnect.
const redis =
  config.redisUrl === undefined
    ? undefined
    : new Redis(config.redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
// ioredis reconnects by itself; without a listener each failed attempt would be an unhandled 'error' event.
// Only at debug level: /mcp says once when it stops and starts counting through Redis.
redis?.on('error', (error) => app?.log.debug({ err: error }, 'Redis connection failed; reconnecting'));
try {
  await redis?.connect().catch((cause: unknown) => {
    throw new RedisUnavailableError(cause);
  });
  database = await openConfiguredDatabase(config.database);
  app = buildApp({
    database,
    clock: systemClock,
    logLevel: config.logLevel,
    baseUrl: config.baseUrl,
    secretKeys: config.secretKeys.keys,
    signingKeys: [config.oidcSigningKey.key],
    trustProxy: config.trustProxy,
    redis,
    mcpAllowedOrigins: config.mcpAllowedOrigins,
    mcpRateLimit: config.mcpRateLimit,
    authNotifications: authNotificationsFor(database),
    isDraining: drain.isDraining,
    metrics,
  });
  await start(config, database, app);
} catch (error) {
  const known = knownStartupProblem(error, config);
  if (known === undefined) console.error('Innkeep could not start:', error);
  else process.stderr.write(`Innkeep could not start: ${known}\n`);
  await app?.close().catch(() => {});
  await metricsServer?.close().catch(() => {});
  await database?.close().catch(() => {});
  redis?.disconnect();
  process.exit(1);
}

async function start(config: Config, database: DatabaseHandle, app: FastifyInstance): Promise<void> {
  const { log } = app;
  if (config.secretKeys.source === 'created') {
    log.warn(
      { file: config.secretKeys.file },
      'SECRET_KEYS is not set: generated keys and stored them in the data directory (mode 0600). ' +
        'Keep that file private; set SECRET_KEYS to manage keys yourself.',
    );
  }
  if (config.oidcSigningKey.source === 'created') {
    log.warn(
      { file: config.oidcSigningKey.file },
      'OIDC_SIGNING_KEY is not set: generated the ID-token signing key and stored it in the data directory ' +
        '(mode 0600). Keep that file private; set OIDC_SIGNING_KEY to manage the key yourself.',
    );
  }

  const { migrations, helpArticles } = await prepareDatabase(database.db);
  if (migrations.length > 0) log.info({ migrations }, 'Applied database migrations');
  const { added, updated, removed } = helpArticles;
  if (added.length + updated.length + removed.length > 0) log.info(helpArticles, 'Updated the help articles');

  if (config.demoData && !(await hasDemoAccount(database.db))) {
    process.stderr.write('Seeding the demo account (first start only)…\n');
    const startedAt = performance.now();
    await seedDemoWithProgress(database.db, { today: localToday(systemClock.now()) }, process.stderr);
    log.info({ seconds: Math.round((performance.now() - startedAt) / 100) / 10 }, 'Seeded the demo account');
  }

  await app.listen({ port: config.port, host: config.host });
  if (metrics !== undefined && config.metricsPort !== undefined) {
    if (database.poolStats !== undefined) metrics.observePool(database.poolStats);
    metricsServer = await startMetricsServer({
      registry: metrics.registry,
      host: config.host,
      port: config.metricsPort,
    });
    log.info({ port: config.metricsPort }, 'Serving Prometheus metrics at /metrics');
  }
  const messageRuleJob = config.messageRules
    ? startMessageRuleJob({
        db: database.db,
        clock: systemClock,
        log,
        onRun: (run) => metrics?.recordJobRun({ job: 'message-rules', ...run }),
      })
    : undefined;
  stopOnSignals({
    app,
    drain,
    drainLimitMs: config.shutdownDrainMs,
    steps: shutdownSteps(database, messageRuleJob),
  });

  process.stdout.write(`Innkeep is running at ${config.baseUrl}\n`);
  if (config.demoData) {
    process.stdout.write(`Demo login: ${demoLogin.email} / ${demoLogin.password} (demo mode only)\n`);
  }
}

/** What stops after the last request, in order: the job that writes, the metrics, the database, Redis. */
function shutdownSteps(database: DatabaseHandle, messageRuleJob: MessageRuleJob | undefined): ShutdownStep[] {
  const steps: ShutdownStep[] = [];
  if (messageRuleJob !== undefined) steps.push({ name: 'the message rule job', stop: messageRuleJob.stop });
  const metricsListener = metricsServer;
  if (metricsListener !== undefined)
    steps.push({ name: 'the metrics server', stop: () => metricsListener.close() });
  // The embedded database releases DATA_DIR's lock as it closes, so a CLI command can run right after.
  steps.push({ name: 'the database', stop: () => database.close() });
  const redisClient = redis;
  if (redisClient !== undefined) steps.push({ name: 'Redis', stop: () => redisClient.quit() });
  return steps;
}

/**
 * On PostgreSQL, other instances may revoke tokens or change roles and subscriptions: hearing of it lets
 * /mcp cache token checks honestly. PGlite has no other instances and no listener, so it checks each time.
 */
function authNotificationsFor(database: DatabaseHandle) {
  if (database.listen === undefined) return undefined;
  return createPostgresAuthNotifications({
    listen: database.listen,
    onError: (error) =>
      app?.log.warn(
        { err: error },
        'Not listening for token revocations: /mcp checks every token in the database until listening again',
      ),
  });
}

// Problems an operator fixes without reading a stack trace; anything else is printed in full.
function knownStartupProblem(error: unknown, config: Config): string | undefined {
  if (error instanceof DataDirInUseError || error instanceof RedisUnavailableError) return error.message;
  if (error instanceof Error && 'code' in error && error.code === 'EADDRINUSE') {
    return `port ${config.port} on ${config.host} is already in use; stop the other process or set PORT.`;
  }
  return explainDatabaseError(error);
}
