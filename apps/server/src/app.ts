import {
  type AuthNotifications,
  accountPages,
  authorizationServer,
  refuseUnstorableText,
  type SigningKey,
  strictTransportSecurity,
  withAuthTables,
} from '@innkeep/auth';
import { calendarFeedRoutes } from '@innkeep/calendar-feeds';
import type { Clock } from '@innkeep/domain';
import { mcpRouteScopes, mcpService } from '@innkeep/mcp-http';
import { restRoutes, restServerOptions, restService, scopesOfRoutes } from '@innkeep/rest';
import type { LogLevel } from '@innkeep/service-host';
import {
  gracefulServerOptions,
  healthRoutes,
  observeHttpRequests,
  type ServiceMetrics,
  unmatchedRoute,
} from '@innkeep/service-runtime';
import {
  createCalendarFeedReader,
  createIdentityUseCases,
  createPostgresDomain,
  type DatabaseHandle,
} from '@innkeep/storage';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { sql } from 'kysely';

/** Everything the HTTP app is built from; `main.ts` makes them from the configuration, tests make their own. */
export interface AppDeps {
  readonly database: Pick<DatabaseHandle, 'db' | 'kind'>;
  readonly clock: Clock;
  readonly logLevel: LogLevel;
  /** The public address (BASE_URL), without a trailing slash: OAuth issuer and base of every URL. */
  readonly baseUrl: string;
  /** Cookie, session and CSRF keys: the first signs, all verify. */
  readonly secretKeys: readonly string[];
  /** The private key(s) that sign ID tokens, the same on every instance. */
  readonly signingKeys: readonly SigningKey[];
  /** Believe X-Forwarded-For from the proxy in front (TRUST_PROXY). */
  readonly trustProxy: boolean;
  /** Shared counters for rate limits across instances (REDIS_URL); without it each instance counts alone. */
  readonly redis?: Redis | undefined;
  /** Browser origins besides BASE_URL's that may call /mcp (MCP_ALLOWED_ORIGINS). */
  readonly mcpAllowedOrigins?: readonly string[] | undefined;
  /** Requests a minute one access token may send to /mcp (MCP_RATE_LIMIT); default 300. */
  readonly mcpRateLimit?: number | undefined;
  /**
   * Requests a minute one authToken or access token may send to /api, without and with a partner apiKey
   * (REST_RATE_LIMIT, REST_PARTNER_RATE_LIMIT); default 120 and 1,200.
   */
  readonly restRateLimits?: { readonly perCredential: number; readonly withApiKey: number } | undefined;
  /**
   * Dynamic client registrations allowed per client address and window (OAUTH_REGISTRATION_RATE_LIMIT,
   * OAUTH_REGISTRATION_RATE_WINDOW_MINUTES); default 3,000 per 10 minutes.
   */
  readonly registrationRateLimit?: { readonly max: number; readonly timeWindowMs: number } | undefined;
  /**
   * Where this instance hears that a grant, a user's role or a subscription changed (PostgreSQL
   * deployments: `createPostgresAuthNotifications`). With it, /mcp and /api keep a per-instance cache of token
   * checks that such a change empties at once; without it (PGlite), every request checks its token in
   * the database.
   */
  readonly authNotifications?: AuthNotifications | undefined;
  /** True once the process is shutting down, so `/health/ready` answers 503; default never. */
  readonly isDraining?: (() => boolean) | undefined;
  /** Where requests, tool calls and rate-limit refusals are counted (METRICS_PORT); none without it. */
  readonly metrics?: ServiceMetrics | undefined;
  /** Where the log lines go instead of standard output (tests read them). */
  readonly logDestination?: { write(line: string): void } | undefined;
  /** Email messages to direct guests (SMTP_URL is set): they are stored `queued` for the delivery job. */
  readonly emailDelivery?: boolean | undefined;
}

/**
 * Builds the Innkeep HTTP app without listening, so tests can `inject()` requests and `main.ts` decides
 * where to listen. Plugins load on `ready()`, `listen()` or the first `inject()`.
 *
 * Routes:
 * - `GET /health` → 200 `{status: 'ok', database, uptimeSeconds}` when the database answers, else 503
 *   `{status: 'unavailable'}` (the cause goes to the log, never to the caller); `GET /health/live` and
 *   `GET /health/ready` (database and, with REDIS_URL, Redis; 503 while shutting down), see
 *   {@link healthRoutes}.
 * - The OAuth authorization server: discovery, `/oauth/*` and the sign-in and consent pages.
 * - The account pages: `/` (welcome, or the signed-in dashboard), `/login`, `/logout`, `/settings`,
 *   `/settings/apps`, `/settings/webhooks`, `/assets/innkeep.css`.
 * - The MCP tool server at `/mcp` (POST; GET 405, DELETE 204), for access tokens bound to `${BASE_URL}/mcp`.
 * - The REST API under `/api` (see `restApi`), for authTokens (with an optional partner apiKey) and access
 *   tokens bound to `${BASE_URL}/api`; operation names match in any letter case and with a trailing slash,
 *   which `restServerOptions` sets for the whole server.
 * - The calendar exports at `GET`/`HEAD /ical/<token>.ics` (see {@link calendarFeedRoutes}): each channel
 *   link's secret iCal feed, polled by the channels without credentials.
 */
export function buildApp(deps: AppDeps): FastifyInstance {
  const app = Fastify({
    logger: {
      level: deps.logLevel,
      ...(deps.logDestination === undefined ? {} : { stream: deps.logDestination }),
    },
    trustProxy: deps.trustProxy,
    ...gracefulServerOptions,
    ...restServerOptions,
  });
  const startedAt = deps.clock.now().getTime();
  // Once, on the root, so the check covers the routes of every plugin below.
  refuseUnstorableText(app);
  app.register(strictTransportSecurity, { baseUrl: deps.baseUrl });

  const { metrics, redis } = deps;
  if (metrics !== undefined) observeHttpRequests(app, metrics);

  app.register(healthRoutes, {
    database: () => sql`select 1`.execute(deps.database.db),
    healthDetails: () => ({
      database: deps.database.kind,
      uptimeSeconds: Math.floor((deps.clock.now().getTime() - startedAt) / 1000),
    }),
    readinessChecks: redis === undefined ? undefined : { redis: () => redis.ping() },
    isDraining: deps.isDraining ?? (() => false),
  });

  // The auth tables are migrated with the domain's (prepareDatabase), so the handle reaches them too.
  const db = withAuthTables(deps.database.db);
  const identity = createIdentityUseCases({ db, clock: deps.clock });
  app.register(authorizationServer, {
    db,
    baseUrl: deps.baseUrl,
    secretKeys: deps.secretKeys,
    signingKeys: deps.signingKeys,
    identity,
    clock: deps.clock,
    redis: deps.redis,
    trustProxy: deps.trustProxy,
    registrationRateLimit: deps.registrationRateLimit,
    // Consent offers, and tokens carry, only the scopes the requested route uses: what its metadata lists.
    resourceScopes: { mcp: mcpRouteScopes, api: scopesOfRoutes(restRoutes) },
  });
  // One domain for the pages and both transports, so they run the same use cases over one connection pool.
  // With the public address, so listings show whole calendar export URLs.
  const domain = createPostgresDomain({
    db: deps.database.db,
    clock: deps.clock,
    publicBaseUrl: deps.baseUrl,
    emailDelivery: deps.emailDelivery,
  });
  app.register(accountPages, {
    db,
    identity,
    secretKeys: deps.secretKeys,
    baseUrl: deps.baseUrl,
    clock: deps.clock,
    webhooks: { subscriptions: domain.webhooks, deliveries: domain.webhookDeliveries },
    listings: domain.listings,
    home: { audit: domain.audit },
  });
  const onRateLimited =
    metrics === undefined
      ? undefined
      : (request: FastifyRequest) =>
          metrics.recordRateLimitRefusal(request.routeOptions.url ?? unmatchedRoute);
  app.register(mcpService, {
    db,
    domain,
    clock: deps.clock,
    baseUrl: deps.baseUrl,
    redis: deps.redis,
    allowedOrigins: deps.mcpAllowedOrigins,
    rateLimit: deps.mcpRateLimit === undefined ? undefined : { max: deps.mcpRateLimit, timeWindow: 60_000 },
    authNotifications: deps.authNotifications,
    onToolCall: metrics === undefined ? undefined : (call) => metrics.recordToolCall(call),
    onRateLimited,
  });
  app.register(restService, {
    db,
    domain,
    identity,
    clock: deps.clock,
    baseUrl: deps.baseUrl,
    redis: deps.redis,
    rateLimits: deps.restRateLimits,
    authNotifications: deps.authNotifications,
    onRateLimited,
  });
  app.register(calendarFeedRoutes, {
    feeds: createCalendarFeedReader({ db: deps.database.db, clock: deps.clock }),
  });

  return app;
}
