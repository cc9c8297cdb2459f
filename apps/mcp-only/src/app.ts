import { type AuthNotifications, strictTransportSecurity, withAuthTables } from '@innkeep/auth';
import type { Clock } from '@innkeep/domain';
import { mcpService } from '@innkeep/mcp-http';
import type { LogLevel } from '@innkeep/service-host';
import {
  gracefulServerOptions,
  healthRoutes,
  observeHttpRequests,
  type ServiceMetrics,
  unmatchedRoute,
} from '@innkeep/service-runtime';
import { createPostgresDomain, type DatabaseHandle } from '@innkeep/storage';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { sql } from 'kysely';

/** What the tool server app is built from; `main.ts` makes them from the configuration, tests make their own. */
export interface McpOnlyAppDeps {
  readonly database: Pick<DatabaseHandle, 'db' | 'kind'>;
  readonly clock: Clock;
  readonly logLevel: LogLevel;
  /** The deployment's BASE_URL, shared with the Innkeep server that issues the tokens. */
  readonly baseUrl: string;
  readonly trustProxy: boolean;
  readonly redis?: Redis | undefined;
  readonly mcpAllowedOrigins?: readonly string[] | undefined;
  /** Requests per access token and window; default 300 a minute. */
  readonly rateLimit?: { readonly max: number; readonly timeWindow: number } | undefined;
  /**
   * Where this instance hears that a grant, a user's role or a subscription changed
   * (`createPostgresAuthNotifications`). With it, /mcp keeps a per-instance cache of token checks that such
   * a change empties at once; without it, every request checks its token in the database.
   */
  readonly authNotifications?: AuthNotifications | undefined;
  /** True once the process is shutting down, so `/health/ready` answers 503; default never. */
  readonly isDraining?: (() => boolean) | undefined;
  /** Where requests, tool calls and rate-limit refusals are counted (METRICS_PORT); none without it. */
  readonly metrics?: ServiceMetrics | undefined;
}

/**
 * The tool server alone, for deployments that scale `/mcp` apart from the OAuth server and the web pages
 * (a load balancer sends `/mcp` and `/.well-known/oauth-protected-resource*` here, the rest to the Innkeep
 * server). Routes: `/mcp` exactly as the Innkeep server serves it, its protected resource metadata,
 * `GET /health` (200 when the database answers, else 503), `/health/live` and `/health/ready` (see
 * {@link healthRoutes}).
 */
export function buildMcpOnlyApp(deps: McpOnlyAppDeps): FastifyInstance {
  const app = Fastify({
    logger: { level: deps.logLevel },
    trustProxy: deps.trustProxy,
    ...gracefulServerOptions,
  });
  app.register(strictTransportSecurity, { baseUrl: deps.baseUrl });

  const { metrics, redis } = deps;
  if (metrics !== undefined) observeHttpRequests(app, metrics);

  app.register(healthRoutes, {
    database: () => sql`select 1`.execute(deps.database.db),
    healthDetails: () => ({ database: deps.database.kind }),
    readinessChecks: redis === undefined ? undefined : { redis: () => redis.ping() },
    isDraining: deps.isDraining ?? (() => false),
  });

  app.register(mcpService, {
    db: withAuthTables(deps.database.db),
    domain: createPostgresDomain({ db: deps.database.db, clock: deps.clock, publicBaseUrl: deps.baseUrl }),
    clock: deps.clock,
    baseUrl: deps.baseUrl,
    redis: deps.redis,
    allowedOrigins: deps.mcpAllowedOrigins,
    rateLimit: deps.rateLimit,
    authNotifications: deps.authNotifications,
    onToolCall: metrics === undefined ? undefined : (call) => metrics.recordToolCall(call),
    onRateLimited:
      metrics === undefined
        ? undefined
        : (request) => metrics.recordRateLimitRefusal(request.routeOptions.url ?? unmatchedRoute),
  });
  return app;
}
