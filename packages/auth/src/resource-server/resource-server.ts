import fastifyRateLimit from '@fastify/rate-limit';
import { allScopes, type ErrorCode, errorCatalogue } from '@innkeep/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { logRequestAs } from '../http/request-log.ts';
import { protectedResourceMetadata, protectedResourceMetadataUrl } from '../provider/protected-resource.ts';
import type { ResourceName } from '../provider/resource.ts';
import type { AccessTokenVerifier, VerifiedAccessToken } from './access-token-verifier.ts';
import { bearerChallenge, bearerToken, rateLimitKey } from './bearer.ts';
import { sharedOrLocalRateLimitStore } from './shared-or-local-rate-limit-store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The `preHandler` of a route {@link resourceServer} guards: refuses the request unless it carries a
     * usable Bearer token of the account's owner, for this resource, with the subscription in good
     * standing and the per-token limit not reached; else sets `request.verifiedAccessToken`.
     */
    requireAccessToken: preHandlerAsyncHookHandler;
  }
  interface FastifyRequest {
    /** The token `requireAccessToken` accepted; null on routes it does not guard. */
    verifiedAccessToken: VerifiedAccessToken | null;
  }
}

/** Why the resource server refused a request: a code of the error wire table (`errorCatalogue`). */
export type ResourceServerRefusalCode = Extract<
  ErrorCode,
  'unauthenticated' | 'subscription_inactive' | 'rate_limited'
>;

/**
 * One refusal, for the transport to write as its body; the reply already carries the code's HTTP status
 * from the wire table and the headers (`WWW-Authenticate`, `Retry-After`).
 */
export interface ResourceServerRefusal {
  readonly code: ResourceServerRefusalCode;
  /** Starts with the code (`unauthenticated: …`), as every Innkeep error message does. */
  readonly message: string;
  /** Facts a client can act on: `{status}` of the subscription, `{retryAfterSeconds}` of a limit. */
  readonly details?: Readonly<Record<string, unknown>>;
}

/**
 * Writes a refusal's body in the transport's format (a JSON-RPC error with the request id on `/mcp`,
 * `{message, code}` on `/api`) and sends it.
 */
export type ResourceServerRefusalWriter = (
  request: FastifyRequest,
  reply: FastifyReply,
  refusal: ResourceServerRefusal,
) => FastifyReply;

/** What {@link resourceServer} is built from. */
export interface ResourceServerOptions {
  /** The deployment's public address (BASE_URL); the resource is `${baseUrl}/<resource>`. */
  readonly baseUrl: string;
  /** Which resource the guarded routes are: `mcp` or `api`. */
  readonly resource: ResourceName;
  /**
   * Checks tokens for `${baseUrl}/<resource>` (createAccessTokenVerifier with that resource). The caller
   * owns it and closes it.
   */
  readonly verifier: AccessTokenVerifier;
  /** Writes each refusal's body; the plugin has set its status and headers. */
  readonly refuse: ResourceServerRefusalWriter;
  /**
   * Counts requests across instances; without it, and while it does not answer, each instance counts alone.
   */
  readonly redis?: Redis | undefined;
  /** Requests allowed per access token and window; default 300 a minute. */
  readonly rateLimit?: { readonly max: number; readonly timeWindow: number } | undefined;
  /** Told of each request refused for going over the rate limit (the metrics count them). */
  readonly onRateLimited?: ((request: FastifyRequest) => void) | undefined;
  /**
   * Also serve this resource's metadata at `/.well-known/oauth-protected-resource` itself, for clients
   * that look there first. Only one resource of a deployment can: `/mcp`'s, since MCP clients do.
   */
  readonly metadataAtWellKnownRoot?: boolean | undefined;
}

/** The seed's limit: 300 requests a minute on one access token. */
const defaultResourceRateLimit = { max: 300, timeWindow: 60_000 } as const;

const subUserDescription =
  'This access token belongs to a team member. Only the account owner can connect an assistant to ' +
  'Innkeep: sign in with an Innkeep account you own and connect again.';

/**
 * The resource-server half of OAuth for one resource (`/mcp` or `/api`), the same for every transport:
 *
 * - Serves the resource's Protected Resource Metadata (RFC 9728) at
 *   `/.well-known/oauth-protected-resource/<resource>` (and under BASE_URL's path), CORS open.
 * - Decorates the registering scope with `requireAccessToken`, the `preHandler` of the routes it guards: no
 *   Bearer token, or one unknown, expired, revoked or bound to another resource → 401 with a
 *   `WWW-Authenticate` challenge naming the metadata (`error="invalid_token"` when a token was sent); a team
 *   member's token → 401 `invalid_token`; a subscription not in good standing → 403; over the per-token
 *   limit → 429 with `Retry-After`, counted in Redis across instances and on each instance while Redis is
 *   down. The accepted token is `request.verifiedAccessToken`, and the request's log lines from then on
 *   carry its accountId, userId and clientId.
 *
 * Registered with fastify-plugin so that the decoration and the rate limiter belong to the caller's scope,
 * where its guarded routes are; give each resource a scope of its own.
 */
async function resourceServerPlugin(app: FastifyInstance, options: ResourceServerOptions): Promise<void> {
  if (app.hasDecorator('createRateLimit')) {
    // @fastify/rate-limit decorates once per scope chain; an outer registration would count in its store.
    throw new Error('Register resourceServer outside any scope that already registered @fastify/rate-limit');
  }
  const path = `/${options.resource}`;
  const resourceMetadata = protectedResourceMetadataUrl(options.baseUrl, options.resource);
  const allScopesText = allScopes.join(' ');
  const limit = options.rateLimit ?? defaultResourceRateLimit;

  serveMetadata(app, options);

  await app.register(fastifyRateLimit, {
    global: false,
    // Serving requests while the shared counters are down beats refusing every one, and counting on each
    // instance meanwhile beats not counting at all.
    ...(options.redis === undefined
      ? {}
      : {
          store: sharedOrLocalRateLimitStore({
            redis: options.redis,
            nameSpace: `innkeep:${options.resource}-rate:`,
            onLocal: (cause) =>
              app.log.warn(
                { err: cause },
                `Redis is unreachable: ${path} rate limits count on each instance until it answers again`,
              ),
            onShared: () => app.log.info(`Redis answers again: ${path} rate limits count across instances`),
          }),
        }),
  });
  const countRequest = app.createRateLimit({
    max: limit.max,
    timeWindow: limit.timeWindow,
    keyGenerator: (request) => rateLimitKey(bearerToken(request.headers.authorization) ?? ''),
  });

  const refuse: ResourceServerRefusalWriter = (request, reply, refusal) =>
    options.refuse(request, reply.code(errorCatalogue[refusal.code].httpStatus), refusal);

  /** 401 with the challenge that sends a client to the protected resource metadata and the AS. */
  const unauthenticated = (
    request: FastifyRequest,
    reply: FastifyReply,
    message: string,
    invalidToken?: { description: string },
  ) => {
    reply.header(
      'www-authenticate',
      bearerChallenge({
        ...(invalidToken === undefined
          ? {}
          : { error: 'invalid_token', errorDescription: invalidToken.description }),
        scope: allScopesText,
        resourceMetadata,
      }),
    );
    return refuse(request, reply, { code: 'unauthenticated', message: `unauthenticated: ${message}` });
  };

  app.decorateRequest('verifiedAccessToken', null);
  app.decorate('requireAccessToken', async (request: FastifyRequest, reply: FastifyReply) => {
    const token = bearerToken(request.headers.authorization);
    if (token === undefined) {
      const legacy = request.headers.authtoken !== undefined || request.headers.apikey !== undefined;
      return unauthenticated(
        request,
        reply,
        legacy
          ? `the authToken and apiKey headers do not work on ${path}. Connect through OAuth: the WWW-Authenticate header says where.`
          : 'send an OAuth access token as Authorization: Bearer <token>. The WWW-Authenticate header says where to get one.',
      );
    }
    const verified = await options.verifier.verify(token);
    if (verified === null) {
      const description = 'The access token is unknown, expired, revoked or for another server.';
      return unauthenticated(request, reply, `${description} Refresh it or connect again.`, { description });
    }
    if (verified.role !== 'owner') {
      return unauthenticated(request, reply, subUserDescription, { description: subUserDescription });
    }
    logRequestAs(request, reply, {
      accountId: verified.accountId,
      userId: verified.userId,
      clientId: verified.clientId,
    });
    if (!verified.inGoodStanding) {
      return refuse(request, reply, {
        code: 'subscription_inactive',
        message:
          `subscription_inactive: the account's subscription is ${verified.subscriptionStatus.replace('_', ' ')}, so ` +
          'Innkeep is unavailable to assistants. The owner can renew it in Innkeep, then try again.',
        details: { status: verified.subscriptionStatus },
      });
    }

    const counted = await countRequest(request);
    if (!counted.isAllowed && counted.isExceeded) {
      options.onRateLimited?.(request);
      const seconds = Math.max(1, counted.ttlInSeconds);
      reply.header('retry-after', String(seconds));
      return refuse(request, reply, {
        code: 'rate_limited',
        message:
          `rate_limited: more than ${counted.max} requests in ${Math.round(counted.timeWindow / 1000)} seconds on ` +
          `this access token. Wait ${seconds} seconds, then try again.`,
        details: { retryAfterSeconds: seconds },
      });
    }
    request.verifiedAccessToken = verified;
  });
}

/** The resource's RFC 9728 document, at each URL clients look for it, CORS open, cacheable for an hour. */
function serveMetadata(app: FastifyInstance, options: ResourceServerOptions): void {
  const document = protectedResourceMetadata(options.baseUrl, options.resource);
  const paths = new Set([
    `/.well-known/oauth-protected-resource/${options.resource}`,
    new URL(protectedResourceMetadataUrl(options.baseUrl, options.resource)).pathname,
    ...(options.metadataAtWellKnownRoot === true ? ['/.well-known/oauth-protected-resource'] : []),
  ]);
  for (const url of paths) {
    app.get(url, async (_request, reply) => {
      reply.header('access-control-allow-origin', '*').header('cache-control', 'public, max-age=3600');
      return document;
    });
    app.options(url, async (_request, reply) =>
      reply
        .code(204)
        .header('access-control-allow-origin', '*')
        .header('access-control-allow-methods', 'GET')
        .header('access-control-allow-headers', 'authorization, content-type, mcp-protocol-version')
        .header('access-control-max-age', '3600')
        .send(),
    );
  }
}

/** See {@link resourceServerPlugin}. */
export const resourceServer = fastifyPlugin(resourceServerPlugin, { fastify: '5.x' });
