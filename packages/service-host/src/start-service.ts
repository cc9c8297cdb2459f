import {
  type AuthNotifications,
  createPostgresAuthNotifications,
  sharedAuthNotifications,
} from '@innkeep/auth';
import {
  createDrainState,
  createServiceMetrics,
  type ServiceMetrics,
  type ShutdownStep,
  startMetricsServer,
  stopOnSignals,
} from '@innkeep/service-runtime';
import type { DatabaseHandle } from '@innkeep/storage';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { ServiceConfig } from './config.ts';
import { type DatabaseConfig, openConfiguredDatabase } from './database.ts';
import { connectRedis } from './redis.ts';
import { knownStartupProblem } from './startup-problems.ts';

/** What {@link startService} reads from the app's configuration. */
export interface HostedServiceConfig
  extends Pick<ServiceConfig, 'port' | 'host' | 'redisUrl' | 'metricsPort' | 'shutdownDrainMs'> {
  readonly database: DatabaseConfig;
}

/** What {@link startService} opens for the app, to build its routes on. */
export interface ServiceResources {
  readonly database: DatabaseHandle;
  /** Connected, with REDIS_URL; undefined without it. */
  readonly redis: Redis | undefined;
  /** Where requests, tool calls and jobs are counted, with METRICS_PORT; undefined without it. */
  readonly metrics: ServiceMetrics | undefined;
  /** True once the process is shutting down, so `/health/ready` answers 503. */
  readonly isDraining: () => boolean;
  /**
   * On PostgreSQL, where this instance hears that another revoked a token or changed a role or a
   * subscription, so token checks can be cached honestly; undefined on PGlite, which has no other instances.
   */
  readonly authNotifications: AuthNotifications | undefined;
}

/** One app's start: what to build, what to do before and after listening. */
export interface StartServiceOptions {
  /** How the app names itself when it cannot start: "Innkeep", "The tool server". */
  readonly name: string;
  readonly config: HostedServiceConfig;
  /** Builds the HTTP app, without listening, from the resources opened. */
  readonly buildApp: (resources: ServiceResources) => FastifyInstance;
  /** Runs before the app listens: migrations, seeding, warnings about the configuration. */
  readonly prepare?: ((app: FastifyInstance, resources: ServiceResources) => Promise<void>) | undefined;
  /**
   * Starts the app's background jobs once it listens, and says how to stop each; they stop first on
   * shutdown, while the database is still open.
   */
  readonly startJobs?:
    | ((app: FastifyInstance, resources: ServiceResources) => readonly ShutdownStep[])
    | undefined;
  /** Lines written to standard output once the app serves, e.g. its address. */
  readonly announcement: readonly string[];
}

/**
 * Starts an Innkeep app as a process: connects Redis (REDIS_URL), opens the database, builds the app, runs
 * `prepare`, listens on PORT and HOST, serves metrics on METRICS_PORT, starts the jobs, and stops on
 * SIGTERM or SIGINT after draining (see `stopOnSignals`). A problem an operator fixes without a stack trace
 * (a busy DATA_DIR, an unreachable database or Redis, a taken port) is one line on standard error; anything
 * else is printed in full. Either way what was opened is closed and the process exits 1.
 */
export async function startService(options: StartServiceOptions): Promise<void> {
  const { config } = options;
  let app: FastifyInstance | undefined;
  let database: DatabaseHandle | undefined;
  let redis: Redis | undefined;
  let metricsServer: FastifyInstance | undefined;
  const drain = createDrainState();
  // Without METRICS_PORT nothing is counted: no scrape could read it.
  const metrics = config.metricsPort === undefined ? undefined : createServiceMetrics();
  try {
    if (config.redisUrl !== undefined) {
      // Only at debug level: the rate limiters say once when they stop and start counting through Redis.
      redis = await connectRedis(config.redisUrl, (error) =>
        app?.log.debug({ err: error }, 'Redis connection failed; reconnecting'),
      );
    }
    database = await openConfiguredDatabase(config.database, {
      onConnectionError: (error) => {
        if (app !== undefined) warnOfLostConnection(app.log, error);
      },
    });
    const resources: ServiceResources = {
      database,
      redis,
      metrics,
      isDraining: drain.isDraining,
      authNotifications: authNotificationsFor(database, () => app?.log),
    };
    app = options.buildApp(resources);
    await options.prepare?.(app, resources);
    await app.listen({ port: config.port, host: config.host });
    if (metrics !== undefined && config.metricsPort !== undefined) {
      if (database.poolStats !== undefined) metrics.observePool(database.poolStats);
      metricsServer = await startMetricsServer({
        registry: metrics.registry,
        host: config.host,
        port: config.metricsPort,
      });
      app.log.info({ port: config.metricsPort }, 'Serving Prometheus metrics at /metrics');
    }
    const jobs = options.startJobs?.(app, resources) ?? [];
    stopOnSignals({
      app,
      drain,
      drainLimitMs: config.shutdownDrainMs,
      steps: shutdownSteps({ jobs, metricsServer, database, redis }),
    });
    for (const line of options.announcement) process.stdout.write(`${line}\n`);
  } catch (error) {
    const known = knownStartupProblem(error, config);
    if (known === undefined) console.error(`${options.name} could not start:`, error);
    else process.stderr.write(`${options.name} could not start: ${known}\n`);
    await app?.close().catch(() => {});
    await metricsServer?.close().catch(() => {});
    await database?.close().catch(() => {});
    redis?.disconnect();
    process.exit(1);
  }
}

/** What stops after the last request, in order: the jobs that write, the metrics, the database, Redis. */
function shutdownSteps(open: {
  jobs: readonly ShutdownStep[];
  metricsServer: FastifyInstance | undefined;
  database: DatabaseHandle;
  redis: Redis | undefined;
}): ShutdownStep[] {
  const { metricsServer, database, redis } = open;
  const steps = [...open.jobs];
  if (metricsServer !== undefined)
    steps.push({ name: 'the metrics server', stop: () => metricsServer.close() });
  // The embedded database releases DATA_DIR's lock as it closes, so a CLI command can run right after.
  steps.push({ name: 'the database', stop: () => database.close() });
  if (redis !== undefined) steps.push({ name: 'Redis', stop: () => redis.quit() });
  return steps;
}

function authNotificationsFor(
  database: DatabaseHandle,
  log: () => FastifyBaseLogger | undefined,
): AuthNotifications | undefined {
  if (database.listen === undefined) return undefined;
  // One listening connection per instance, shared by the credential caches of every resource it serves.
  return sharedAuthNotifications(
    createPostgresAuthNotifications({
      listen: database.listen,
      onError: (error) =>
        log()?.warn(
          { err: error },
          'Not listening for credential changes: every credential is checked in the database until listening again',
        ),
    }),
  );
}

/**
 * One line per lost pooled connection: the driver's code and reason only, which name what happened
 * (`57P01` terminating connection, `ECONNRESET`) and never the connection string or its password.
 */
function warnOfLostConnection(log: FastifyBaseLogger, error: Error): void {
  const code = 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  log.warn(
    { code, reason: error.message },
    'Lost a connection to PostgreSQL; a query on it fails, and the pool opens a new connection when needed',
  );
}
