import {
  type AccessTokenVerifier,
  bearerChallenge,
  protectedResourceMetadataUrl,
  resourceServer,
  type StepUpMarks,
  type VerifiedAccessToken,
} from '@innkeep/auth';
import { errorCatalogue, reportInternalFailure, type Scope, scopeCatalogue } from '@innkeep/domain';
import {
  createMcpDispatcher,
  innkeepServerInfo,
  invalidMessageError,
  isSupportedProtocolVersion,
  type JsonRpcId,
  jsonRpcError,
  jsonRpcErrorCodes,
  jsonRpcIdOf,
  type McpDispatcherDeps,
  type McpServerInfo,
  mcpFirstConnectionScopes,
  mcpSurfaceScopes,
  modernMethods,
  protocolEraOf,
  requiredScopes,
  supportedProtocolVersions,
} from '@innkeep/mcp-tools';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { withModernErrorCode } from './modern-error-codes.ts';
import { isModernPost, modernRequestRefusal } from './modern-headers.ts';
import { createOriginPolicy } from './origin.ts';

/**
 * The scopes `/mcp` uses: those some tool, resource, prompt or completion requires. Its metadata lists them as
 * `scopes_supported`; pass them to the authorization server's `resourceScopes`, so consent offers only these.
 */
export const mcpRouteScopes: readonly Scope[] = mcpSurfaceScopes;

/** What {@link mcpRoute} is built from. */
export interface McpRouteOptions {
  /**
   * What the tools run on: the domain, the clock, where unexpected failures go, and how the server names
   * itself (default: Innkeep's name and version).
   */
  readonly dispatcher: Omit<McpDispatcherDeps, 'serverInfo'> & { readonly serverInfo?: McpServerInfo };
  /**
   * Checks access tokens for the audience `${baseUrl}/mcp` (createAccessTokenVerifier). The caller owns it
   * and closes it.
   */
  readonly verifier: AccessTokenVerifier;
  /** The public address (BASE_URL): the allowed browser origin, and the base of the metadata URL. */
  readonly baseUrl: string;
  /** Further browser origins allowed to call /mcp (MCP_ALLOWED_ORIGINS). */
  readonly allowedOrigins?: readonly string[] | undefined;
  /**
   * Counts requests across instances; without it, and while it does not answer, each instance counts alone.
   */
  readonly redis?: Redis | undefined;
  /** Requests allowed per access token and window; default 300 a minute. */
  readonly rateLimit?: { readonly max: number; readonly timeWindow: number } | undefined;
  /** Told of each request refused for going over the rate limit (the metrics count them). */
  readonly onRateLimited?: ((request: FastifyRequest) => void) | undefined;
  /**
   * Where a refusal for want of scopes is remembered for the token's grant (createStepUpMarks over the
   * token database), so that the authorization server refuses the grant's next refresh and a client that
   * refreshes instead of authorizing again (MCP SDK 1.x) is sent to consent. Without it nothing is
   * remembered, and such a client is left with the refusal's message.
   */
  readonly stepUpMarks?: StepUpMarks | undefined;
}

// Tool inputs are bounded far below this; a larger body is not an MCP message of ours.
const maxBodyBytes = 1024 * 1024;
const corsAllowHeaders =
  'authorization, content-type, accept, mcp-protocol-version, mcp-method, mcp-name, mcp-session-id, last-event-id';
const corsExposeHeaders = 'www-authenticate, retry-after';

/**
 * Fastify plugin serving MCP at `/mcp`, stateless Streamable HTTP with JSON responses (seed §4.1, §5.2):
 *
 * - `POST /mcp`: one JSON-RPC message → 200 with its JSON response, or 202 with no body for a
 *   notification. Batches → 400 (-32600). Unsupported `MCP-Protocol-Version` → 400; an `Accept` that rules
 *   out JSON → 406. `mcp-session-id` is ignored.
 * - `GET /mcp` → 405 with `Allow: POST, DELETE` (no server-initiated stream); `DELETE /mcp` → 204.
 * - Any method with an `Origin` that is not allowed → 403.
 * - MCP 2026-07-28 beside the older revisions: a POST whose `params._meta` names that revision is served
 *   statelessly (server/discover, no initialize). Before its token is looked at it is refused 400 for a
 *   wrong `_meta` envelope (-32602), headers that disagree with the body (-32020) or an unknown revision
 *   (-32022); after it, a method the revision lacks is 404 (-32601). Innkeep's own refusals keep their
 *   statuses and headers, with the revision's codes (1001, 1010, 1011, 1012).
 *
 * Every POST is authenticated on its own, by the resource server of `${baseUrl}/mcp` (`resourceServer` of
 * @innkeep/auth, which also serves the protected resource metadata): no usable owner's token → 401 with
 * the challenge (-32001); a subscription not in good standing → 403 (-32010); over the per-token rate limit
 * → 429 (-32012) with `Retry-After`. Then a tool, resource or prompt outside the grant → 403 (-32011) with
 * an `insufficient_scope` challenge asking for the granted scopes plus the missing ones, and a step-up mark
 * on the token's grant that makes its next refresh fail, so SDK 1.x authorizes again. `authToken` and
 * `apiKey` headers are not credentials here.
 */
export async function mcpRoute(app: FastifyInstance, options: McpRouteOptions): Promise<void> {
  // The guard and its metadata routes belong to this scope; the transport's Origin check, body parsing and
  // JSON-RPC error handler to a child scope, so the metadata stays open to every origin as RFC 9728 wants.
  await app.register(resourceServer, {
    baseUrl: options.baseUrl,
    resource: 'mcp',
    verifier: options.verifier,
    redis: options.redis,
    rateLimit: options.rateLimit,
    onRateLimited: options.onRateLimited,
    metadataAtWellKnownRoot: true,
    // Least privilege: the metadata lists only the scopes tools, resources and prompts use, and a first
    // connection asks for the read ones; each write scope is asked for when a call first needs it.
    scopesSupported: mcpRouteScopes,
    challengeScopes: mcpFirstConnectionScopes,
    // The refusal answers the message: a JSON-RPC error with its id, and the details as `data`.
    refuse: (request, reply, refusal) =>
      reply
        .type('application/json')
        .send(
          JSON.stringify(
            jsonRpcError(
              jsonRpcIdOf(request.body),
              errorCatalogue[refusal.code].jsonRpcCode,
              refusal.message,
              refusal.details,
            ),
          ),
        ),
  });
  await app.register(streamableHttp, options);
}

/** `/mcp` itself; its POST runs `requireAccessToken` of the resource server registered by {@link mcpRoute}. */
async function streamableHttp(app: FastifyInstance, options: McpRouteOptions): Promise<void> {
  const dispatcher = createMcpDispatcher({
    ...options.dispatcher,
    serverInfo: options.dispatcher.serverInfo ?? innkeepServerInfo,
  });
  const report = options.dispatcher.report;
  const origins = createOriginPolicy(options.baseUrl, options.allowedOrigins);
  const resourceMetadata = protectedResourceMetadataUrl(options.baseUrl, 'mcp');

  // MCP messages are JSON; Fastify's text/plain parser would hand a string through as if it were one.
  app.removeContentTypeParser('text/plain');

  /** Sends a JSON-RPC error with an HTTP status. */
  const refuse = (
    reply: FastifyReply,
    status: number,
    id: JsonRpcId | null,
    code: number,
    message: string,
    data?: unknown,
  ) =>
    reply
      .code(status)
      .type('application/json')
      .send(JSON.stringify(jsonRpcError(id, code, message, data)));

  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    if (origin === undefined) return;
    if (!origins.allows(origin)) {
      return refuse(
        reply,
        403,
        null,
        jsonRpcErrorCodes.requestRefused,
        `forbidden_origin: requests from ${origin.slice(0, 200)} may not call this server.`,
      );
    }
    // A browser-based client on an allowed origin must be able to read the challenge and the limit.
    reply
      .header('access-control-allow-origin', origin)
      .header('access-control-expose-headers', corsExposeHeaders)
      .header('vary', 'origin');
  });

  // MCP 2026-07-28 numbers Innkeep's own refusals outside the range it reserves; renumbering them here,
  // whichever check refused (token, subscription, rate limit, scope), keeps statuses and headers as they are.
  app.addHook('onSend', async (request, reply, payload) =>
    reply.statusCode !== 200 && typeof payload === 'string' && protocolEraOf(request.body) === 'modern'
      ? withModernErrorCode(payload)
      : payload,
  );

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return refuse(
        reply,
        400,
        null,
        jsonRpcErrorCodes.parseError,
        'Parse error: the body is not one JSON value.',
      );
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return refuse(
        reply,
        415,
        null,
        jsonRpcErrorCodes.requestRefused,
        'Send the message as Content-Type: application/json.',
      );
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return refuse(
        reply,
        413,
        null,
        jsonRpcErrorCodes.requestRefused,
        `The body is over ${maxBodyBytes / 1024} KiB.`,
      );
    }
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      return refuse(
        reply,
        error.statusCode,
        null,
        jsonRpcErrorCodes.requestRefused,
        'The request is malformed.',
      );
    }
    const { reference, message } = reportInternalFailure(error, report);
    request.log.error({ err: error, reference }, '/mcp failed on a request');
    return refuse(reply, 500, jsonRpcIdOf(request.body), jsonRpcErrorCodes.internalError, message, {
      reference,
    });
  });

  app.get('/mcp', async (_request, reply) =>
    refuse(
      reply.header('allow', 'POST, DELETE'),
      405,
      null,
      jsonRpcErrorCodes.requestRefused,
      'This server keeps no stream to listen on: send each message as a POST and read its response.',
    ),
  );
  // No session is kept, so there is nothing to end; a client's teardown still succeeds, also when it
  // labels its empty body JSON (Fastify would parse that empty body and answer 400).
  app.delete('/mcp', { onRequest: dropEmptyBodyType }, async (_request, reply) => reply.code(204).send());
  app.options('/mcp', async (_request, reply) =>
    reply
      .code(204)
      .header('access-control-allow-methods', 'POST, DELETE')
      .header('access-control-allow-headers', corsAllowHeaders)
      .header('access-control-max-age', '3600')
      .send(),
  );

  /** Refuses a POST whose message this server cannot take, before its token is looked at. */
  const checkMessage = async (request: FastifyRequest, reply: FastifyReply) => {
    const message: unknown = request.body;
    const version = request.headers['mcp-protocol-version'];
    const modern = isModernPost(message, request.headers);
    if (!modern && typeof version === 'string' && !isSupportedProtocolVersion(version)) {
      return refuse(
        reply,
        400,
        jsonRpcIdOf(message),
        jsonRpcErrorCodes.requestRefused,
        `Unsupported MCP-Protocol-Version ${version.slice(0, 40)}; this server speaks ${supportedProtocolVersions.join(', ')}.`,
        { supported: supportedProtocolVersions },
      );
    }
    if (!acceptsJson(request.headers.accept)) {
      return refuse(
        reply,
        406,
        jsonRpcIdOf(message),
        jsonRpcErrorCodes.requestRefused,
        'Accept application/json: every response is JSON.',
      );
    }
    if (Array.isArray(message)) {
      return refuse(
        reply,
        400,
        null,
        jsonRpcErrorCodes.invalidRequest,
        'JSON-RPC batches are not supported: send one message per request.',
      );
    }
    const invalid = invalidMessageError(message);
    if (invalid !== null) return reply.code(400).type('application/json').send(JSON.stringify(invalid));
    const refusal = modern ? modernRequestRefusal(message, request.headers) : null;
    if (refusal !== null) {
      return refuse(reply, 400, jsonRpcIdOf(message), refusal.code, refusal.message, refusal.data);
    }
  };

  app.post(
    '/mcp',
    { bodyLimit: maxBodyBytes, preValidation: checkMessage, preHandler: app.requireAccessToken },
    async (request, reply) => {
      const message: unknown = request.body;
      const id = jsonRpcIdOf(message);
      const verified = request.verifiedAccessToken;
      // requireAccessToken answered every request it did not accept.
      if (verified === null) throw new Error('POST /mcp ran without an accepted access token');
      // MCP 2026-07-28: a method the revision does not have (initialize, ping, …) is 404, not a 200 error.
      const { method } = message as { method?: string };
      if (
        id !== null &&
        method !== undefined &&
        !modernMethods.has(method) &&
        protocolEraOf(message) === 'modern'
      ) {
        return refuse(
          reply,
          404,
          id,
          jsonRpcErrorCodes.methodNotFound,
          `Innkeep has no method ${method.slice(0, 200)} in MCP 2026-07-28.`,
        );
      }

      const required = requiredScopes(message);
      if (required !== 'unknown') {
        const missing = required.filter((scope) => !verified.scopes.includes(scope));
        if (missing.length > 0)
          return await insufficientScope(request, reply, id, verified, missing, message);
      }

      const json = await dispatcher.handleJson(message, callerOf(verified));
      if (json === null) return reply.code(202).send();
      return reply.code(200).type('application/json').send(json);
    },
  );

  /**
   * 403 with ONE challenge asking for the granted scopes plus the missing ones: a 2025-11-25 client
   * authorizes again with exactly that, and keeps what it had; a 2026-07-28 client takes the union itself.
   * A client of SDK 1.x refreshes instead, which cannot widen a grant: the grant is marked, so the
   * authorization server refuses that refresh and the client authorizes again with the challenge's scope.
   * Where no client can do that (a token pasted as a header), the message says what the person does.
   */
  async function insufficientScope(
    request: FastifyRequest,
    reply: FastifyReply,
    id: JsonRpcId | null,
    verified: VerifiedAccessToken,
    missing: readonly Scope[],
    message: unknown,
  ) {
    const wanted = [...verified.scopes, ...missing];
    // Recorded before the answer, since the client of SDK 1.x refreshes as soon as it reads it. Best effort:
    // without the mark that refresh goes through and only the message below helps, which beats a 500.
    await options.stepUpMarks?.mark(verified.grantId, wanted).catch((error: unknown) => {
      request.log.warn({ err: error }, 'Could not record a step-up mark; the refusal is sent without it');
    });
    const lacking = `needs ${missing.join(', ')}, which this connection was not granted.`;
    // The header's description holds nothing the client sent: a resource URI may not be valid header text.
    const description = `This request ${lacking}`;
    reply.header(
      'www-authenticate',
      bearerChallenge({
        error: 'insufficient_scope',
        errorDescription: description,
        scope: wanted.join(' '),
        resourceMetadata,
      }),
    );
    return refuse(
      reply,
      403,
      id,
      jsonRpcErrorCodes.insufficientScope,
      `insufficient_scope: ${subjectOf(message)} ${lacking} ${stepUpInstruction(missing)}`,
      { missing },
    );
  }
}

/** What `message` asks to use, as the insufficient_scope description names it. */
function subjectOf(message: unknown): string {
  const { method, params } = (message ?? {}) as { method?: unknown; params?: Record<string, unknown> };
  const named = (field: string) => String(params?.[field] ?? '').slice(0, 200);
  if (method === 'tools/call') return `The tool ${named('name')}`;
  if (method === 'resources/read') return `Reading ${named('uri')}`;
  if (method === 'prompts/get') return `The prompt ${named('name')}`;
  return 'This request';
}

/**
 * What the person does when their client did not ask for the scopes by itself: reconnect, and tick each
 * one on the consent page, named as the page names it.
 */
function stepUpInstruction(missing: readonly Scope[]): string {
  const named = missing.map(
    (scope) => `${scope} (“${scopeCatalogue.find((entry) => entry.scope === scope)?.grants ?? scope}”)`,
  );
  const list = named.length === 1 ? named.join('') : `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
  return `Reconnect Innkeep in the assistant and, on Innkeep's consent page, allow ${list}.`;
}

/** The acting owner and grant of a verified token. */
function callerOf(verified: VerifiedAccessToken) {
  return {
    actor: {
      accountId: verified.accountId,
      userId: verified.userId,
      role: 'owner' as const,
      via: 'mcp' as const,
      clientId: verified.clientId,
    },
    scopes: verified.scopes,
  };
}

/**
 * False only when the client sent an `Accept` that rules out JSON. Clients MUST accept both JSON and
 * event streams; Innkeep answers only JSON, so that is all it needs, and a missing header is no refusal.
 */
function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return accept
    .split(',')
    .map((range) => range.split(';')[0]?.trim().toLowerCase())
    .some((range) => range === 'application/json' || range === 'application/*' || range === '*/*');
}

/** Drops the `Content-Type` of a request without a body, so that Fastify parses nothing. */
async function dropEmptyBodyType(request: FastifyRequest): Promise<void> {
  const { headers } = request;
  if (headers['transfer-encoding'] === undefined && (headers['content-length'] ?? '0') === '0') {
    delete headers['content-type'];
  }
}
