import { IncomingMessage } from 'node:http';
import fastifyRateLimit from '@fastify/rate-limit';
import { type Clock, findUnstorableText, type IdentityUseCases, type Scope } from '@innkeep/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { accountSessionPolicy } from '../interactions/account-session-check.ts';
import { interactionRoutes } from '../interactions/interaction-routes.ts';
import { createConsentStore } from '../postgres/consents.ts';
import type { AuthDatabase } from '../postgres/database.ts';
import { createLoginThrottle } from '../postgres/login-throttle.ts';
import { createStepUpMarks } from '../postgres/step-up-marks.ts';
import { createWebSessionStore } from '../postgres/web-sessions.ts';
import { sharedOrLocalRateLimitStore } from '../resource-server/shared-or-local-rate-limit-store.ts';
import type { ClientIdMetadataDocumentOptions } from './client-id-metadata-document.ts';
import { checkClientRegistration, maxRegistrationBodyBytes } from './client-registration.ts';
import { codeResourceRefusal } from './code-resource-check.ts';
import { createOidcProvider, defaultRefreshTokenGraceSeconds } from './oidc-provider.ts';
import {
  authorizationScope,
  canonicalResource,
  mcpResourceUrl,
  type ResourceName,
  resourceScopesOf,
} from './resource.ts';
import type { SigningKey } from './signing-keys.ts';
import { stepUpRefreshRefusal } from './step-up-refresh-check.ts';

/** What the authorization server is built from; `apps/server` makes them from its configuration. */
export interface AuthorizationServerOptions {
  readonly db: Kysely<AuthDatabase>;
  /**
   * The public address: issuer, and base of every endpoint; tokens are bound to `${baseUrl}/mcp`,
   * `${baseUrl}/api`, or (asked for with no resource) `${baseUrl}` itself, valid on both.
   */
  readonly baseUrl: string;
  /** Cookie and CSRF keys, each at least 32 characters: the first signs, all verify. */
  readonly secretKeys: readonly string[];
  /** Private RS256 keys for ID tokens, identical on every instance; the first signs. */
  readonly signingKeys: readonly SigningKey[];
  readonly identity: Pick<IdentityUseCases, 'verifyLogin' | 'findPrincipal'>;
  readonly clock: Clock;
  /**
   * Shares registration rate limits between instances; without it, and while it does not answer, each
   * instance counts alone.
   */
  readonly redis?: Redis | undefined;
  /**
   * Pass the proxy's X-Forwarded-For through to the provider (TRUST_PROXY). Protocol and host never come
   * from forwarding headers: they are pinned to `baseUrl`. Default false.
   */
  readonly trustProxy?: boolean | undefined;
  /** Seconds a rotated refresh token still works (default 60). */
  readonly refreshTokenGraceSeconds?: number | undefined;
  /**
   * Dynamic registrations allowed per client address and window (default 3,000 per 10 minutes); counted
   * in Redis when given, so across instances.
   */
  readonly registrationRateLimit?: { readonly max: number; readonly timeWindowMs: number } | undefined;
  /** How Client ID Metadata Documents are fetched; the defaults unless given (tests only). */
  readonly clientIdMetadataDocuments?: ClientIdMetadataDocumentOptions | undefined;
  /**
   * The scopes each resource's operations use, as its protected resource metadata lists them
   * (`scopes_supported`); the app that composes the resources computes them from their declarations. The
   * consent page offers only the scopes asked for that the requested resource uses, and tokens carry no
   * other. A resource left out uses every scope.
   */
  readonly resourceScopes?: Partial<Record<ResourceName, readonly Scope[]>> | undefined;
}

/**
 * 3,000 dynamic registrations per client address per 10 minutes. Behind a load balancer that is not
 * trusted for X-Forwarded-For every client shares one address, and a hosted assistant registers one client
 * per user (some register twice per attempt): 1,000 users connecting in 10 minutes fit with room to spare,
 * while a script registering in a loop is stopped within seconds.
 */
const defaultRegistrationRateLimit = { max: 3_000, timeWindowMs: 10 * 60 * 1000 } as const;
// Authorization requests and token calls are small; oidc-provider itself stops at 56 KiB.
const maxTokenBodyBytes = 16 * 1024;
const corsMaxAgeSeconds = '3600';

/**
 * Fastify plugin serving Innkeep's OAuth 2.0 authorization server (oidc-provider) and the metadata
 * clients discover it by (each resource server serves its own RFC 9728 document, see resourceServer):
 *
 * - `GET /.well-known/oauth-authorization-server`, `/.well-known/openid-configuration`: RFC 8414.
 * - `POST /oauth/register`: open dynamic registration (RFC 7591), rate limited per client address.
 *   A client may instead use the https URL of its Client ID Metadata Document as `client_id`.
 * - `GET /oauth/authorize`: PKCE S256 always; `resource` is `${baseUrl}/mcp` or `${baseUrl}/api`, and without
 *   one the token is valid on both; no scope asks for all.
 * - `POST /oauth/token`, `POST /oauth/token/revoke` (RFC 7009), `GET /oauth/jwks`. The first refresh of a
 *   grant whose token `/mcp` refused for want of scopes is refused `invalid_grant`, so a client that
 *   refreshes instead of authorizing again (MCP SDK 1.x) is sent to consent (stepUpRefreshRefusal).
 * - `/oauth/interaction/:uid…`: the sign-in and consent pages.
 *
 * The provider's routes are hijacked and get the raw request, in a scope without body parsing, since the
 * provider reads request bodies itself.
 */
export async function authorizationServer(
  app: FastifyInstance,
  options: AuthorizationServerOptions,
): Promise<void> {
  if (options.secretKeys.length === 0 || options.secretKeys.some((key) => key.length < 32)) {
    throw new Error('authorizationServer needs at least one secret key, each at least 32 characters long');
  }
  if (options.signingKeys.length === 0) {
    throw new Error('authorizationServer needs at least one signing key (a private RS256 JWK)');
  }
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const base = new URL(baseUrl);
  const trustProxy = options.trustProxy ?? false;
  const consents = createConsentStore(options.db, options.clock);
  const webSessions = createWebSessionStore(options.db, options.clock);
  const resourceScopes = resourceScopesOf(options.resourceScopes);
  const provider = createOidcProvider({
    db: options.db,
    baseUrl,
    secretKeys: options.secretKeys,
    signingKeys: options.signingKeys,
    identity: options.identity,
    consents,
    clock: options.clock,
    refreshTokenGraceSeconds: options.refreshTokenGraceSeconds ?? defaultRefreshTokenGraceSeconds,
    interactionPolicy: accountSessionPolicy(webSessions),
    clientIdMetadataDocuments: options.clientIdMetadataDocuments,
    resourceScopes,
  });
  const stepUpCheck = {
    provider,
    marks: createStepUpMarks(options.db, options.clock),
    mcpResource: mcpResourceUrl(baseUrl),
  };
  // Hijacked routes skip Fastify's response logging, so the provider's own failures are logged here.
  provider.on('server_error', (_ctx, error) => {
    app.log.error({ err: error }, 'The authorization server failed on a request');
  });

  const callback = provider.callback();
  /**
   * Hands the request to the provider, which writes the whole response itself. `body` replaces a body we
   * already read (and normalised) from the raw stream.
   */
  function handOff(request: FastifyRequest, reply: FastifyReply, body?: Buffer): void {
    // The provider builds endpoint URLs in discovery and redirects from the request's protocol and host,
    // and marks cookies Secure by the protocol. Both are pinned to BASE_URL here, whatever the client or a
    // proxy sent, so an instance reached directly, or behind TLS offloading, still names BASE_URL. The
    // provider trusts forwarding headers (see createOidcProvider), so every one it reads is set or removed.
    const headers = request.raw.headers;
    headers.host = base.host;
    headers['x-forwarded-host'] = base.host;
    headers['x-forwarded-proto'] = base.protocol.slice(0, -1);
    if (!trustProxy) delete headers['x-forwarded-for'];
    reply.hijack();
    callback(body === undefined ? request.raw : replayRequest(request.raw, body), reply.raw);
  }

  await app.register(async (oauth) => {
    // The provider reads bodies from the raw stream; a Fastify parser here would consume them first.
    oauth.removeAllContentTypeParsers();
    oauth.addContentTypeParser('*', (_request, _payload, done) => done(null));
    await oauth.register(fastifyRateLimit, {
      global: false,
      // While the shared counters are down each instance counts alone: registering clients beats refusing
      // everyone, and a limit per instance beats none (`skipOnError` would count nothing).
      ...(options.redis === undefined
        ? {}
        : {
            store: sharedOrLocalRateLimitStore({
              redis: options.redis,
              nameSpace: 'innkeep:oauth-register:',
              onLocal: (cause) =>
                app.log.warn(
                  { err: cause },
                  'Redis is unreachable: registration rate limits count on each instance until it answers again',
                ),
              onShared: () =>
                app.log.info('Redis answers again: registration rate limits count across instances'),
            }),
          }),
    });

    oauth.get('/oauth/authorize', async (request, reply) => {
      request.raw.url = normalisedAuthorizationUrl(request.raw.url ?? '/oauth/authorize');
      handOff(request, reply);
    });

    oauth.post('/oauth/token', async (request, reply) => {
      const body = await readBody(request.raw, maxTokenBodyBytes);
      if (body === undefined)
        return sendOauthError(reply, 413, 'invalid_request', 'The request body is too large.');
      const canonical = canonicalTokenBody(body.toString('utf8'));
      const params = new URLSearchParams(canonical);
      const unstorable = findUnstorableText(Object.fromEntries(params));
      if (unstorable !== undefined) {
        return sendOauthError(reply, 400, 'invalid_request', unstorableParameter(unstorable.path));
      }
      const wrongResource = await codeResourceRefusal(provider, params);
      if (wrongResource !== undefined) return sendOauthError(reply, 400, 'invalid_target', wrongResource);
      // A mark that cannot be read refuses nothing: the refresh goes on as it would without step-up.
      const stepUp = await stepUpRefreshRefusal(stepUpCheck, params, request.headers.authorization).catch(
        (error: unknown) => {
          request.log.warn({ err: error }, 'Could not check a refresh for a step-up mark; it proceeds');
          return undefined;
        },
      );
      if (stepUp !== undefined) return sendOauthError(reply, 400, 'invalid_grant', stepUp);
      handOff(request, reply, Buffer.from(canonical));
    });

    // Only refusals made before the hand-off arrive here (the rate limit); the provider answers the rest.
    oauth.setErrorHandler((error, request, reply) => {
      if (error instanceof OauthRouteError) {
        return sendOauthError(reply, error.statusCode, error.oauthError, error.message);
      }
      request.log.error({ err: error }, 'An OAuth endpoint failed before reaching the provider');
      return sendOauthError(reply, 500, 'server_error', 'Something went wrong on our side; try again.');
    });

    const limit = options.registrationRateLimit ?? defaultRegistrationRateLimit;
    oauth.post(
      '/oauth/register',
      {
        config: {
          rateLimit: {
            max: limit.max,
            timeWindow: limit.timeWindowMs,
            errorResponseBuilder: (_request, context) =>
              new OauthRouteError(
                429,
                'too_many_requests',
                `Too many registrations from this address; try again in ${context.after}.`,
              ),
          },
        },
        // The provider adds no CORS here, yet browser-based clients (e.g. MCP Inspector) register too.
        onSend: async (_request, reply, payload) => {
          reply.header('access-control-allow-origin', '*').header('cache-control', 'no-store');
          return payload;
        },
      },
      async (request, reply) => {
        const body = await readBody(request.raw, maxRegistrationBodyBytes);
        if (body === undefined) {
          return sendOauthError(
            reply,
            413,
            'invalid_client_metadata',
            'The registration request is too large.',
          );
        }
        let parsed: unknown;
        try {
          parsed = JSON.parse(body.toString('utf8'));
        } catch {
          return sendOauthError(
            reply,
            400,
            'invalid_client_metadata',
            'The registration body is not valid JSON.',
          );
        }
        const check = checkClientRegistration(parsed);
        if (!check.ok) return sendOauthError(reply, 400, check.error, check.description);
        const unstorable = findUnstorableText(check.metadata);
        if (unstorable !== undefined) {
          return sendOauthError(reply, 400, 'invalid_client_metadata', unstorableParameter(unstorable.path));
        }
        reply.raw.setHeader('access-control-allow-origin', '*');
        handOff(request, reply, Buffer.from(JSON.stringify(check.metadata)));
      },
    );
    oauth.options('/oauth/register', async (_request, reply) => preflight(reply, 'POST'));

    const passThrough = async (request: FastifyRequest, reply: FastifyReply) => handOff(request, reply);
    oauth.get('/oauth/authorize/:uid', passThrough);
    oauth.options('/oauth/token', passThrough);
    oauth.options('/oauth/token/revoke', passThrough);
    oauth.post('/oauth/token/revoke', async (request, reply) => {
      const body = await readBody(request.raw, maxTokenBodyBytes);
      if (body === undefined)
        return sendOauthError(reply, 413, 'invalid_request', 'The request body is too large.');
      const unstorable = findUnstorableText(Object.fromEntries(new URLSearchParams(body.toString('utf8'))));
      if (unstorable !== undefined) {
        return sendOauthError(reply, 400, 'invalid_request', unstorableParameter(unstorable.path));
      }
      handOff(request, reply, body);
    });
    for (const url of [
      '/oauth/jwks',
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
    ]) {
      oauth.route({ method: ['GET', 'OPTIONS'], url, handler: passThrough });
    }
  });

  await app.register(interactionRoutes, {
    provider,
    identity: options.identity,
    consents,
    throttle: createLoginThrottle(options.db, options.clock),
    webSessions,
    secretKeys: options.secretKeys,
    baseUrl,
    resourceScopes,
  });
}

/** Why a parameter holding U+0000 is refused: PostgreSQL, where the provider keeps its state, cannot store it. */
function unstorableParameter(path: string): string {
  return `The parameter ${path} must not contain the NUL character (U+0000).`;
}

/** A refusal in OAuth's error format (RFC 6749 §5.2) raised by our own code in front of the provider. */
class OauthRouteError extends Error {
  readonly statusCode: number;
  readonly oauthError: string;

  constructor(statusCode: number, oauthError: string, description: string) {
    super(description);
    this.statusCode = statusCode;
    this.oauthError = oauthError;
  }
}

/**
 * The authorization URL with the gaps MCP clients leave filled: `scope` defaults to every scope, and each
 * `resource` is canonicalised (`…/mcp/` → `…/mcp`) so the token request matches it.
 */
export function normalisedAuthorizationUrl(rawUrl: string): string {
  const url = new URL(rawUrl, 'http://innkeep.invalid');
  const params = url.searchParams;
  params.set('scope', authorizationScope(params.get('scope')));
  const resources = params.getAll('resource');
  if (resources.length > 0) {
    params.delete('resource');
    for (const resource of resources) params.append('resource', canonicalResource(resource));
  }
  return `${url.pathname}?${params.toString()}`;
}

/** A form-encoded token request with each `resource` canonicalised; other bodies pass unchanged. */
export function canonicalTokenBody(body: string): string {
  const params = new URLSearchParams(body);
  const resources = params.getAll('resource');
  if (resources.length === 0) return body;
  params.delete('resource');
  for (const resource of resources) params.append('resource', canonicalResource(resource));
  return params.toString();
}

/** The whole body, or undefined once it passes `limit` bytes. Leaves the stream ended, not destroyed. */
async function readBody(raw: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of raw.iterator({ destroyOnReturn: false })) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > limit) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, size);
}

/**
 * A request like `raw` whose body stream is `body`: the provider then reads a body we already read and
 * normalised exactly as it reads one from the wire, with its own size and length checks (a consumed
 * stream would make it fall back to `req.body`, with a warning about body parsers on every start).
 */
function replayRequest(raw: IncomingMessage, body: Buffer): IncomingMessage {
  const replay = new IncomingMessage(raw.socket);
  replay.method = raw.method;
  replay.url = raw.url;
  replay.httpVersion = raw.httpVersion;
  replay.httpVersionMajor = raw.httpVersionMajor;
  replay.httpVersionMinor = raw.httpVersionMinor;
  replay.headers = { ...raw.headers, 'content-length': String(body.length) };
  delete replay.headers['transfer-encoding'];
  replay.push(body);
  replay.push(null);
  // Marks the message as fully received; otherwise destroying it when read would close the connection.
  replay.complete = true;
  return replay;
}

function sendOauthError(
  reply: FastifyReply,
  status: number,
  error: string,
  description: string,
): FastifyReply {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .header('access-control-allow-origin', '*')
    .send({ error, error_description: description });
}

function preflight(reply: FastifyReply, method: string): FastifyReply {
  return reply
    .code(204)
    .header('access-control-allow-origin', '*')
    .header('access-control-allow-methods', method)
    .header('access-control-allow-headers', 'authorization, content-type, mcp-protocol-version')
    .header('access-control-max-age', corsMaxAgeSeconds)
    .send();
}
