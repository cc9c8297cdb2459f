import compress from '@fastify/compress';
import {
  type AuthDatabase,
  type AuthNotifications,
  createAccessTokenVerifier,
  createStepUpMarks,
  mcpResourceUrl,
} from '@innkeep/auth';
import type { Clock, InnkeepDomain } from '@innkeep/domain';
import type { McpToolCallReport } from '@innkeep/mcp-tools';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { mcpRoute } from './mcp-route.ts';

const compressAboveBytes = 1024;

/** What {@link mcpService} composes /mcp from. */
export interface McpServiceOptions {
  /** The authorization server's tables (`withAuthTables` of the account database), where tokens are checked. */
  readonly db: Kysely<AuthDatabase>;
  /** What the tools run on; the app builds it over the same database (`createPostgresDomain`). */
  readonly domain: InnkeepDomain;
  readonly clock: Clock;
  /** The deployment's BASE_URL: tokens must be bound to `${baseUrl}/mcp`, or to `${baseUrl}` itself. */
  readonly baseUrl: string;
  readonly redis?: Redis | undefined;
  readonly allowedOrigins?: readonly string[] | undefined;
  /** Requests per access token and window; default 300 a minute. */
  readonly rateLimit?: { readonly max: number; readonly timeWindow: number } | undefined;
  /**
   * Where this instance hears that a grant, a user's role or a subscription changed. With it, token checks
   * are cached per instance and such a change empties the cache at once; without it, every request checks
   * its token in the database.
   */
  readonly authNotifications?: AuthNotifications | undefined;
  /** Told of every finished call of a known tool, for the metrics. */
  readonly onToolCall?: ((call: McpToolCallReport) => void) | undefined;
  /** Told of every request refused for going over the rate limit, for the metrics. */
  readonly onRateLimited?: ((request: FastifyRequest) => void) | undefined;
}

/**
 * /mcp as every Innkeep app serves it: the token verifier (closed with the app) and {@link mcpRoute}, which
 * registers the resource server of `${baseUrl}/mcp` and its protected resource metadata, with answers over
 * 1 KB compressed (gzip, deflate or brotli) for clients that accept it. One composition, so the full server
 * and the /mcp-only app cannot drift.
 */
export async function mcpService(app: FastifyInstance, options: McpServiceOptions): Promise<void> {
  const verifier = createAccessTokenVerifier({
    db: options.db,
    resource: mcpResourceUrl(options.baseUrl),
    clock: options.clock,
    cache:
      options.authNotifications === undefined
        ? undefined
        : {
            notifications: options.authNotifications,
            onBackgroundError: (error) =>
              app.log.warn({ err: error }, 'Could not record when a connected app last used its access'),
          },
  });
  app.addHook('onClose', () => verifier.close());
  // Answers over 1 KB go compressed to a client that accepts it: tools/list is tens of kilobytes.
  await app.register(compress, { threshold: compressAboveBytes });
  await app.register(mcpRoute, {
    dispatcher: {
      domain: options.domain,
      clock: options.clock,
      report: (reference, cause) =>
        app.log.error({ err: cause, reference }, 'An MCP request failed unexpectedly'),
      onToolCall: options.onToolCall,
    },
    verifier,
    baseUrl: options.baseUrl,
    allowedOrigins: options.allowedOrigins,
    redis: options.redis,
    rateLimit: options.rateLimit,
    onRateLimited: options.onRateLimited,
    stepUpMarks: createStepUpMarks(options.db, options.clock),
  });
}
