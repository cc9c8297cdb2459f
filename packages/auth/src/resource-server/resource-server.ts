import fastifyRateLimit from '@fastify/rate-limit';
import {
  allScopes,
  type ErrorCode,
  errorCatalogue,
  type IdentityUseCases,
  isGoodStanding,
  type Principal,
  type Scope,
  type SubscriptionStatus,
  type UserRole,
} from '@innkeep/domain';
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
    /** The Bearer token `requireAccessToken` accepted; null on routes it does not guard and for authTokens. */
    verifiedAccessToken: VerifiedAccessToken | null;
    /** Who `requireAccessToken` accepted, whatever the credential; null on routes it does not guard. */
    verifiedCaller: VerifiedCaller | null;
  }
}

/**
 * Who a request of a guarded route speaks for, whatever credential it carried: an OAuth access token, or
 * (where the resource takes them) a user's authToken, with or without a partner's apiKey.
 */
export interface VerifiedCaller {
  readonly accountId: string;
  readonly userId: string;
  readonly role: UserRole;
  readonly subscriptionStatus: SubscriptionStatus;
  readonly credential: 'bearer' | 'authToken';
  /**
   * The scopes of a Bearer token's grant. Null for an authToken, which acts with everything the user's role
   * allows (PRODUCT.md: viewers read only).
   */
  readonly scopes: readonly Scope[] | null;
  /** The OAuth client of a Bearer token, or `partner:<id>` of an apiKey; null for a bare authToken. */
  readonly clientId: string | null;
}

/** The authToken and apiKey credentials of Host Tools-style integrations, for the resources that take them. */
export interface AuthTokenCredentials {
  /** Looks the credentials up (the account model's identity use cases). */
  readonly identity: Pick<IdentityUseCases, 'authenticateAuthToken' | 'resolvePartnerApiKey'>;
  /** Requests per authToken and window when a valid apiKey comes with it (PRODUCT.md: 1,200 a minute). */
  readonly partnerMax: number;
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
  /** Requests allowed per access token (or authToken) and window; default 300 a minute. */
  readonly rateLimit?: { readonly max: number; readonly timeWindow: number } | undefined;
  /**
   * Also accept a user's `authToken` header (optionally with a partner's `apiKey`), as REST does. Without
   * it those headers are refused with a message that says the resource takes OAuth only.
   */
  readonly authTokens?: AuthTokenCredentials | undefined;
  /** Send `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` on every counted answer. */
  readonly rateLimitHeaders?: boolean | undefined;
  /** Who the resource serves, in refusals: "assistants" on /mcp, "integrations" on /api. */
  readonly servedParty?: string | undefined;
  /** Told of each request refused for going over the rate limit (the metrics count them). */
  readonly onRateLimited?: ((request: FastifyRequest) => void) | undefined;
  /**
   * Also serve this resource's metadata at `/.well-known/oauth-protected-resource` itself, for clients
   * that look there first. Only one resource of a deployment can: `/mcp`'s, since MCP clients do.
   */
  readonly metadataAtWellKnownRoot?: boolean | undefined;
  /**
   * The scopes the resource's routes require, which its metadata lists as `scopes_supported`; default every
   * Innkeep scope. Pass the same list to the authorization server's `resourceScopes`, so consent offers it.
   */
  readonly scopesSupported?: readonly Scope[] | undefined;
  /**
   * What a 401 challenge's `scope` asks a client to request; MCP clients take it as the scope of their
   * authorization. Default: `scopesSupported`.
   */
  readonly challengeScopes?: readonly Scope[] | undefined;
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
 * - Where `authTokens` is given (REST), an `authToken` header (with an optional partner `apiKey`, which
 *   raises the limit and must be valid) is accepted in place of a Bearer token, from the owner or a
 *   team member, who acts with their role. Whatever the credential, the caller is `request.verifiedCaller`.
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
  const challengeScopeText = (options.challengeScopes ?? options.scopesSupported ?? allScopes).join(' ');
  const limit = options.rateLimit ?? defaultResourceRateLimit;
  const servedParty = options.servedParty ?? 'assistants';
  const { authTokens } = options;

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
  // One counter per credential: the hash of the Bearer token or authToken, never the secret itself. An
  // apiKey raises the ceiling of the authToken it comes with rather than counting apart.
  const countRequest = app.createRateLimit({
    max: (request) =>
      authTokens !== undefined && request.verifiedCaller?.clientId?.startsWith(partnerClientPrefix) === true
        ? authTokens.partnerMax
        : limit.max,
    timeWindow: limit.timeWindow,
    keyGenerator: (request) => rateLimitKey(credentialOf(request, authTokens !== undefined)?.secret ?? ''),
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
        scope: challengeScopeText,
        resourceMetadata,
      }),
    );
    return refuse(request, reply, { code: 'unauthenticated', message: `unauthenticated: ${message}` });
  };

  /** The caller of a Bearer token; null after refusing it. */
  const callerOfBearer = async (
    request: FastifyRequest,
    reply: FastifyReply,
    token: string,
  ): Promise<VerifiedCaller | null> => {
    const verified = await options.verifier.verify(token);
    if (verified === null) {
      // Some Host Tools integrations send their authToken as a Bearer token; where authTokens work, so does that.
      const principal =
        authTokens === undefined ? null : await authTokens.identity.authenticateAuthToken(token);
      if (principal !== null) return callerOfPrincipal(principal, null);
      const description = 'The access token is unknown, expired, revoked or for another server.';
      unauthenticated(request, reply, `${description} Refresh it or connect again.`, { description });
      return null;
    }
    if (verified.role !== 'owner') {
      unauthenticated(request, reply, subUserDescription, { description: subUserDescription });
      return null;
    }
    request.verifiedAccessToken = verified;
    return {
      accountId: verified.accountId,
      userId: verified.userId,
      role: verified.role,
      subscriptionStatus: verified.subscriptionStatus,
      credential: 'bearer',
      scopes: verified.scopes,
      clientId: verified.clientId,
    };
  };

  /** The caller of an authToken (and apiKey); null after refusing them. */
  const callerOfAuthToken = async (
    request: FastifyRequest,
    reply: FastifyReply,
    credentials: AuthTokenCredentials,
    authToken: string,
    apiKey: string | undefined,
  ): Promise<VerifiedCaller | null> => {
    const principal = await credentials.identity.authenticateAuthToken(authToken);
    if (principal === null) {
      unauthenticated(
        request,
        reply,
        'the authToken is unknown or was replaced by a newer one. Generate a new one at the bottom of the settings page.',
      );
      return null;
    }
    if (apiKey === undefined) return callerOfPrincipal(principal, null);
    const partner = await credentials.identity.resolvePartnerApiKey(apiKey);
    if (partner === null) {
      unauthenticated(
        request,
        reply,
        'the apiKey is unknown or revoked. Send the authToken alone, or a valid apiKey.',
      );
      return null;
    }
    return callerOfPrincipal(principal, `${partnerClientPrefix}${partner.id}`);
  };

  app.decorateRequest('verifiedAccessToken', null);
  app.decorateRequest('verifiedCaller', null);
  app.decorate('requireAccessToken', async (request: FastifyRequest, reply: FastifyReply) => {
    const credential = credentialOf(request, authTokens !== undefined);
    if (credential === undefined) {
      const legacy = request.headers.authtoken !== undefined || request.headers.apikey !== undefined;
      if (authTokens === undefined) {
        return unauthenticated(
          request,
          reply,
          legacy
            ? `the authToken and apiKey headers do not work on ${path}. Connect through OAuth: the WWW-Authenticate header says where.`
            : 'send an OAuth access token as Authorization: Bearer <token>. The WWW-Authenticate header says where to get one.',
        );
      }
      if (request.headers.apikey !== undefined) {
        return unauthenticated(
          request,
          reply,
          'an apiKey works only together with a user’s authToken: send both headers, authToken and apiKey.',
        );
      }
      return unauthenticated(
        request,
        reply,
        'send your authToken in the authToken header, or an OAuth access token as Authorization: Bearer <token>.',
      );
    }
    // An authToken credential exists only where authTokens are taken; the second test keeps the types honest.
    const caller =
      credential.kind === 'bearer' || authTokens === undefined
        ? await callerOfBearer(request, reply, credential.secret)
        : await callerOfAuthToken(
            request,
            reply,
            authTokens,
            credential.authToken,
            headerValue(request.headers.apikey),
          );
    if (caller === null) return reply;
    logRequestAs(request, reply, {
      accountId: caller.accountId,
      userId: caller.userId,
      clientId: caller.clientId,
    });
    if (!isGoodStanding(caller.subscriptionStatus)) {
      request.verifiedAccessToken = null;
      return refuse(request, reply, {
        code: 'subscription_inactive',
        message:
          `subscription_inactive: the account's subscription is ${caller.subscriptionStatus.replace('_', ' ')}, so ` +
          `Innkeep is unavailable to ${servedParty}. The owner can renew it in Innkeep, then try again.`,
        details: { status: caller.subscriptionStatus },
      });
    }

    // The limit's ceiling depends on the caller (an apiKey raises it), so the caller is known before counting.
    request.verifiedCaller = caller;
    const counted = await countRequest(request);
    // `isAllowed` is true only for an allow-list, which no resource has: every request is counted.
    if (counted.isAllowed) return;
    if (options.rateLimitHeaders === true) {
      reply
        .header('ratelimit-limit', String(counted.max))
        .header('ratelimit-remaining', String(Math.max(0, counted.remaining)))
        .header('ratelimit-reset', String(Math.max(0, counted.ttlInSeconds)));
    }
    if (counted.isExceeded) {
      request.verifiedCaller = null;
      request.verifiedAccessToken = null;
      options.onRateLimited?.(request);
      const seconds = Math.max(1, counted.ttlInSeconds);
      reply.header('retry-after', String(seconds));
      return refuse(request, reply, {
        code: 'rate_limited',
        message:
          `rate_limited: more than ${counted.max} requests in ${Math.round(counted.timeWindow / 1000)} seconds on ` +
          `this ${caller.credential === 'bearer' ? 'access token' : 'authToken'}. Wait ${seconds} seconds, then try again.`,
        details: { retryAfterSeconds: seconds },
      });
    }
  });
}

/** The client id an apiKey's partner acts under in the audit log: `partner:<id>`. */
const partnerClientPrefix = 'partner:';

/**
 * The credential a request carries: its Bearer token first, else (where `takesAuthTokens`) its authToken
 * header.
 */
function credentialOf(
  request: FastifyRequest,
  takesAuthTokens: boolean,
): { kind: 'bearer'; secret: string } | { kind: 'authToken'; secret: string; authToken: string } | undefined {
  const token = bearerToken(request.headers.authorization);
  if (token !== undefined) return { kind: 'bearer', secret: token };
  const authToken = takesAuthTokens ? headerValue(request.headers.authtoken) : undefined;
  // A different prefix keeps an authToken's counter apart from any Bearer token with the same characters.
  return authToken === undefined
    ? undefined
    : { kind: 'authToken', secret: `authToken ${authToken}`, authToken };
}

/** A header's single value; undefined when absent, empty or repeated. */
function headerValue(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** The caller of an authToken's principal, acting through `clientId` (a partner) or none. */
function callerOfPrincipal(principal: Principal, clientId: string | null): VerifiedCaller {
  return {
    accountId: principal.accountId,
    userId: principal.userId,
    role: principal.role,
    subscriptionStatus: principal.subscriptionStatus,
    credential: 'authToken',
    scopes: null,
    clientId,
  };
}

/** The resource's RFC 9728 document, at each URL clients look for it, CORS open, cacheable for an hour. */
function serveMetadata(app: FastifyInstance, options: ResourceServerOptions): void {
  const document = protectedResourceMetadata(options.baseUrl, options.resource, options.scopesSupported);
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
