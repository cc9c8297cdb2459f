import {
  type AuthNotifications,
  refuseUnstorableText,
  strictTransportSecurity,
  withAuthTables,
} from '@innkeep/auth';
import type { Clock } from '@innkeep/domain';
import { restServerOptions, restService } from '@innkeep/rest';
import type { LogLevel } from '@innkeep/service-host';
import {
  gracefulServerOptions,
  healthRoutes,
  observeHttpRequests,
  type ServiceMetrics,
  unmatchedRoute,
} from '@innkeep/service-runtime';
import { createIdentityUseCases, createPostgresDomain, type DatabaseHandle } from '@innkeep/storage';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { sql } from 'kysely';

/** What the REST server app is built from; `main.ts` makes them from the configuration, tests make their own. */
export interface RestOnlyAppDeps {
  readonly database: Pick<DatabaseHandle, 'db' | 'kind'>;
  readonly clock: Clock;
  readonly logLevel: LogLevel;
  /** The deployment's BASE_URL, shared with the Innkeep server that issues the credentials. */
  readonly baseUrl: string;
  readonly trustProxy: boolean;
  readonly redis?: Redis | undefined;
  /** Requests a minute per credential, without and with a partner apiKey; default 120 and 1,200. */
  readonly rateLimits?: { readonly perCredential: number; readonly withApiKey: number } | undefined;
  /**
   * Where this instance hears that a grant, a user's role or a subscription changed
   * (`createPostgresAuthNotifications`). With it, /api keeps a per-instance cache of Bearer token checks
   * that such a change empties at once; without it, every request checks its token in the database.
   */
  readonly authNotifications?: AuthNotifications | undefined;
  /** True once the process is shutting down, so `/health/ready` answers 503; default never. */
  readonly isDraining?: (() => boolean) | undefined;
  /** Where requests and rate-limit refusals are counted (METRICS_PORT); none without it. */
  readonly metrics?: ServiceMetrics | undefined;
}

/**
 * The REST API alone, for deployments that scale `/api` apart from the OAuth server, the web pages and
 * `/mcp` (a load balancer sends `/api` and `/.well-known/oauth-protected-resource/api` here, the rest to the
 * Innkeep server, whose authorization server issues the Bearer tokens this app accepts). Routes: `/api`
 * exactly as the Innkeep server serves it, its protected resource metadata, `GET /health` (200 when the
 * database answers, else 503), `/health/live` and `/health/ready` (see {@link healthRoutes}).
 */
export function buildRestOnlyApp(deps: RestOnlyAppDeps): FastifyInstance {
  const app = Fastify({
    logger: { level: deps.logLevel },
    trustProxy: deps.trustProxy,
    ...gracefulServerOptions,
    ...restServerOptions,
  });
  // As on the Innkeep server, so a path or query holding U+0000 gets the same 400 here as there.
  refuseUnstorableText(app);
  app.register(strictTransportSecurity, { baseUrl: deps.baseUrl });

  const { metrics, redis } = deps;
  if (metrics !== undefined) observeHttpRequests(app, metrics);

  app.register(healthRoutes, {
    database: () => sql`select 1`.execute(deps.database.db),
    healthDetails: () => ({ database: deps.database.kind }),
    readinessChecks: redis === undefined ? undefined : { redis: () => redis.ping() },
    isDraining: deps.isDraining ?? (() => false),
  });

  const db = withAuthTables(deps.database.db);
  app.register(restService, {
    db,
    // The same whole calendar export URLs as the Innkeep server's listings; the server serves the feeds.
    domain: createPostgresDomain({ db: deps.database.db, clock: deps.clock, publicBaseUrl: deps.baseUrl }),
    identity: createIdentityUseCases({ db, clock: deps.clock }),
    clock: deps.clock,
    baseUrl: deps.baseUrl,
    redis: deps.redis,
    rateLimits: deps.rateLimits,
    authNotifications: deps.authNotifications,
    onRateLimited:
      metrics === undefined
        ? undefined
        : (request) => metrics.recordRateLimitRefusal(request.routeOptions.url ?? unmatchedRoute),
  });
  return app;
}
