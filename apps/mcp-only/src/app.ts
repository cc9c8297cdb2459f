import type { AuthNotifications } from '@innkeep/auth';
import type { Clock } from '@innkeep/domain';
import type { DatabaseHandle } from '@innkeep/domain/postgres';
import { mcpProtectedResourceMetadata, mcpService } from '@innkeep/mcp-http';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { LogLevel } from './config.ts';

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
}

// A load balancer gives up on a check after a few seconds; answering 503 first tells it why.
const healthCheckTimeoutMs = 3000;

/**
 * The tool server alone, for deployments that scale `/mcp` apart from the OAuth server and the web pages
 * (a load balancer sends `/mcp` and `/.well-known/oauth-protected-resource*` here, the rest to the Innkeep
 * server). Routes: `/mcp` exactly as the Innkeep server serves it, its protected resource metadata, and
 * `GET /health` (200 when the database answers, else 503).
 */
export function buildMcpOnlyApp(deps: McpOnlyAppDeps): FastifyInstance {
  const app = Fastify({ logger: { level: deps.logLevel }, trustProxy: deps.trustProxy });

  app.get('/health', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    try {
      await withTimeout(sql`select 1`.execute(deps.database.db), healthCheckTimeoutMs);
    } catch (error) {
      request.log.error({ err: error }, 'Health check failed: the database did not answer');
      return reply.code(503).send({ status: 'unavailable' });
    }
    return { status: 'ok', database: deps.database.kind };
  });

  app.register(mcpProtectedResourceMetadata, { baseUrl: deps.baseUrl });
  app.register(mcpService, {
    db: deps.database.db,
    clock: deps.clock,
    baseUrl: deps.baseUrl,
    redis: deps.redis,
    allowedOrigins: deps.mcpAllowedOrigins,
    rateLimit: deps.rateLimit,
    authNotifications: deps.authNotifications,
  });
  return app;
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`No answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
