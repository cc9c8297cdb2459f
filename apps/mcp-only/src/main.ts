// Starts the tool server alone: `pnpm --filter @innkeep/mcp-only start`. Reads the environment once, brings
// the shared database up to date (safe beside the Innkeep server doing the same), and listens until SIGINT
// or SIGTERM.
import { authMigrations, createPostgresAuthNotifications } from '@innkeep/auth';
import { systemClock } from '@innkeep/domain';
import {
  type DatabaseHandle,
  domainMigrations,
  migrateToLatest,
  openDatabase,
} from '@innkeep/domain/postgres';
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
// Rate limits count across instances through Redis; commands fail fast while it is down (the limiter then
// lets requests through) instead of queueing behind a reconnect.
const redis =
  config.redisUrl === undefined
    ? undefined
    : new Redis(config.redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
redis?.on('error', (error) =>
  app?.log.warn({ err: error }, 'Redis is unreachable; rate limits count per instance'),
);
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
  process.stdout.write(`Innkeep's tool server is running for ${config.baseUrl}/mcp\n`);
  stopOnSignals(app, database, redis);
} catch (error) {
  console.error('The tool server could not start:', error);
  await app?.close().catch(() => {});
  await database?.close().catch(() => {});
  redis?.disconnect();
  process.exit(1);
}

function stopOnSignals(app: FastifyInstance, database: DatabaseHandle, redis: Redis | undefined): void {
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    // A second Ctrl-C means "now".
    if (stopping) process.exit(1);
    stopping = true;
    app.log.info({ signal }, 'Shutting down');
    try {
      await app.close();
      await database.close();
      await redis?.quit();
    } catch (error) {
      console.error('The tool server did not shut down cleanly:', error);
      process.exitCode = 1;
    }
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
