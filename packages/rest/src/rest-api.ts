import {
  type AccessTokenVerifier,
  bearerChallenge,
  protectedResourceMetadataUrl,
  resourceServer,
  type VerifiedCaller,
} from '@innkeep/auth';
import {
  type Actor,
  type Clock,
  type IdentityUseCases,
  type InnkeepDomain,
  parseInput,
  type Scope,
} from '@innkeep/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { runIdempotentWrite } from './idempotent-write.ts';
import { openApiDocs } from './openapi/openapi-docs.ts';
import { queryCoercion } from './query-coercion.ts';
import { sendRestError, sendRestFailure } from './rest-errors.ts';
import { asksForPage, restInputSchema, runPaged } from './rest-paging.ts';
import type { RestRoute } from './route-definition.ts';
import { scopesOfRoutes } from './route-scopes.ts';

/** The limits of PRODUCT.md: 120 requests a minute per authToken or access token, 1,200 with an apiKey. */
export const defaultRestRateLimits = { perCredential: 120, withApiKey: 1_200, timeWindowMs: 60_000 } as const;

/** Largest request body a REST route reads: a setPrices of a year for one listing fits many times over. */
export const maxRestBodyBytes = 1024 * 1024;

/** What {@link restApi} serves and from what. */
export interface RestApiOptions {
  /** The routes to serve, usually `restRoutes`. */
  readonly routes: readonly RestRoute[];
  /** What the operations run on. */
  readonly domain: InnkeepDomain;
  /** Looks up authTokens and apiKeys (the account model's identity use cases). */
  readonly identity: Pick<IdentityUseCases, 'authenticateAuthToken' | 'resolvePartnerApiKey'>;
  /** Checks Bearer tokens for `${baseUrl}/api` (createAccessTokenVerifier); the caller closes it. */
  readonly verifier: AccessTokenVerifier;
  readonly clock: Clock;
  /** The deployment's public address (BASE_URL), without a trailing slash. */
  readonly baseUrl: string;
  /** Counts requests across instances; without it each instance counts alone. */
  readonly redis?: Redis | undefined;
  /** Requests a minute per credential, without and with an apiKey; default {@link defaultRestRateLimits}. */
  readonly rateLimits?: { readonly perCredential: number; readonly withApiKey: number } | undefined;
  /** Told of failures that are not the caller's, with the reference id the caller is shown. */
  readonly report: (reference: string, cause: unknown) => void;
  /** Told of each request refused for going over the rate limit (the metrics count them). */
  readonly onRateLimited?: ((request: FastifyRequest) => void) | undefined;
}

/**
 * The REST API as a Fastify plugin: every route of `options.routes` under `/api`, behind the resource
 * server of `${baseUrl}/api` (the owner's or a team member's authToken with an optional apiKey, acting with
 * the user's role, or an owner's OAuth Bearer token for `/api`; subscription checked and the per-credential limit counted on every request,
 * with `RateLimit-*` headers). Then, per route: a Bearer caller needs one of the route's scope sets
 * (403 `insufficient_scope` with a challenge), a viewer may not write (403 `permission_denied`), the input
 * is built from path, query and body and validated by the operation's schema (400 naming each problem), a
 * write with an `Idempotency-Key` runs once per key, and the answer is JSON. Every error is JSON
 * `{message, code, details?}`, unknown paths included (404). The OpenAPI document of the routes is at
 * `/api/openapi.json` and a reference page at `/api/docs`, both public.
 *
 * Serve it from a Fastify server made with `restServerOptions`, so that operation names match in any
 * letter case and with a trailing slash, as Host Tools clients send them.
 */
export async function restApi(app: FastifyInstance, options: RestApiOptions): Promise<void> {
  const limits = options.rateLimits ?? defaultRestRateLimits;
  await app.register(resourceServer, {
    baseUrl: options.baseUrl,
    resource: 'api',
    verifier: options.verifier,
    redis: options.redis,
    rateLimit: { max: limits.perCredential, timeWindow: defaultRestRateLimits.timeWindowMs },
    authTokens: { identity: options.identity, partnerMax: limits.withApiKey },
    rateLimitHeaders: true,
    scopesSupported: scopesOfRoutes(options.routes),
    servedParty: 'integrations',
    onRateLimited: options.onRateLimited,
    refuse: (_request, reply, refusal) =>
      sendRestError(reply, refusal.code, refusal.message, refusal.details),
  });
  await app.register(async (api) => routesScope(api, options), { prefix: '/api' });
  // Beside the routes' scope, not in it: the description is public and answers without a credential.
  await app.register(openApiDocs, { routes: options.routes, baseUrl: options.baseUrl, rateLimits: limits });
}

/** The `/api` scope: JSON-only body parsing, JSON errors and 404s, and the routes. */
async function routesScope(api: FastifyInstance, options: RestApiOptions): Promise<void> {
  const resourceMetadata = protectedResourceMetadataUrl(options.baseUrl, 'api');
  // JSON only: a form or text body would otherwise reach the operation as a string and be ignored.
  api.removeAllContentTypeParsers();
  const parseJson = api.getDefaultJsonParser('error', 'error');
  api.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // Host Tools clients send `{}` to cancelReservation; some send nothing at all with the JSON type.
    const text = body.toString();
    if (text.trim() === '') return done(null, {});
    return parseJson(request, text, done);
  });
  api.setErrorHandler((error, _request, reply) => sendRestFailure(reply, error, options.report));
  api.setNotFoundHandler((request, reply) =>
    sendRestError(
      reply,
      'not_found',
      `not_found: there is no operation ${request.method} ${request.url.split('?')[0]}. The operations are listed at /api/openapi.json.`,
    ),
  );

  for (const route of options.routes) {
    // Built once per route, not per request.
    const inputSchema = restInputSchema(route);
    const coerceQuery = queryCoercion(route.inputSchema);
    api.route({
      method: route.method,
      url: route.path,
      bodyLimit: maxRestBodyBytes,
      preHandler: api.requireAccessToken,
      handler: async (request, reply) => {
        // requireAccessToken answered every request it did not accept.
        const caller = request.verifiedCaller as VerifiedCaller;
        const missing = missingScopes(route, caller);
        if (missing !== undefined) return refuseScope(reply, caller, missing, resourceMetadata);
        if (route.access === 'write' && caller.role === 'viewer') {
          return sendRestError(
            reply,
            'permission_denied',
            'permission_denied: viewers can read this account but not change it.',
          );
        }
        const actor: Actor = {
          accountId: caller.accountId,
          userId: caller.userId,
          role: caller.role,
          via: 'rest',
          clientId: caller.clientId,
        };
        const params = (request.params ?? {}) as Record<string, string>;
        const query = coerceQuery((request.query ?? {}) as Record<string, string>);
        const body = request.body ?? {};
        const input = parseInput(inputSchema, route.input({ params, query, body }));
        const context = { actor, domain: options.domain, clock: options.clock };
        const answerContext = {
          accountId: caller.accountId,
          userId: caller.userId,
          input,
          paged: asksForPage(query),
        };
        if (route.access === 'read') {
          const output = await runPaged(route, input, query, context);
          return reply.code(route.successStatus).send(route.answer(output, answerContext));
        }
        const result = await runIdempotentWrite(
          options.domain.idempotency,
          actor,
          request.headers['idempotency-key'],
          { method: route.method, route: route.path, params, body },
          async () => ({
            status: route.successStatus,
            body: route.answer(await runPaged(route, input, query, context), answerContext),
          }),
        );
        if (result.replayed) reply.header('idempotent-replayed', 'true');
        return reply.code(result.status).send(result.body);
      },
    });
  }
}

/** The scopes a Bearer caller lacks for `route` (those of its first scope set); undefined when it may call it. */
function missingScopes(route: RestRoute, caller: VerifiedCaller): Scope[] | undefined {
  const granted = caller.scopes;
  if (granted === null) return undefined;
  if (route.scopeAlternatives.some((scopes) => scopes.every((scope) => granted.includes(scope)))) {
    return undefined;
  }
  return (route.scopeAlternatives[0] ?? []).filter((scope) => !granted.includes(scope));
}

/** 403 `insufficient_scope`, with a challenge asking for what was granted plus what is missing (RFC 6750 §3.1). */
function refuseScope(
  reply: FastifyReply,
  caller: VerifiedCaller,
  missing: readonly Scope[],
  resourceMetadata: string,
): FastifyReply {
  const wanted = [...new Set([...(caller.scopes ?? []), ...missing])];
  reply.header(
    'www-authenticate',
    bearerChallenge({
      error: 'insufficient_scope',
      errorDescription: `This operation needs ${missing.join(', ')}.`,
      scope: wanted.join(' '),
      resourceMetadata,
    }),
  );
  return sendRestError(
    reply,
    'insufficient_scope',
    `insufficient_scope: this operation needs ${missing.join(', ')}, which this access token was not granted. ` +
      'Authorize again and allow it.',
    { required: missing },
  );
}
