import {
  type AccessTokenVerifier,
  bearerChallenge,
  protectedResourceMetadataUrl,
  resourceServer,
  type VerifiedAccessToken,
} from '@innkeep/auth';
import { errorCatalogue, reportInternalFailure } from '@innkeep/domain';
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
  requiredScopes,
  supportedProtocolVersions,
} from '@innkeep/mcp-tools';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { createOriginPolicy } from './origin.ts';

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
}

// Tool inputs are bounded far below this; a larger body is not an MCP message of ours.
const maxBodyBytes = 1024 * 1024;
const corsAllowHeaders =
  'authorization, content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id';
const corsExposeHeaders = 'www-authenticate, retry-after';

/**
 * Fastify plugin serving MCP at `/mcp`, stateless Streamable HTTP with JSON responses (seed §4.1, §5.2):
 *
 * - `POST /mcp`: one JSON-RPC message → 200 with its JSON response, or 202 with no body for a
 *   notification. Batches → 400 (-32600). Unsupported `MCP-Protocol-Version` → 400; an `Accept` that rules
 *   out JSON → 406. `mcp-session-id` is ignored.
 * - `GET /mcp` → 405 with `Allow: POST, DELETE` (no server-initiated stream); `DELETE /mcp` → 204.
 * - Any method with an `Origin` that is not allowed → 403.
 *
 * Every POST is authenticated on its own, by the resource server of `${baseUrl}/mcp` (`resourceServer` of
 * @innkeep/auth, which also serves the protected resource metadata): no usable owner's token → 401 with
 * the challenge (-32001); a subscription not in good standing → 403 (-32010); over the per-token rate limit
 * → 429 (-32012) with `Retry-After`. Then a tool, resource or prompt outside the grant → 403 (-32011) with
 * an `insufficient_scope` challenge asking for the granted scopes plus the missing ones. `authToken` and
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
    if (typeof version === 'string' && !isSupportedProtocolVersion(version)) {
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

      const required = requiredScopes(message);
      if (required !== 'unknown') {
        const missing = required.filter((scope) => !verified.scopes.includes(scope));
        if (missing.length > 0) return insufficientScope(reply, id, verified, missing);
      }

      const json = await dispatcher.handleJson(message, callerOf(verified));
      if (json === null) return reply.code(202).send();
      return reply.code(200).type('application/json').send(json);
    },
  );

  function insufficientScope(
    reply: FastifyReply,
    id: JsonRpcId | null,
    verified: VerifiedAccessToken,
    missing: readonly string[],
  ) {
    const wanted = [...verified.scopes, ...missing].join(' ');
    const description = `This request needs ${missing.join(', ')}, which was not granted.`;
    reply.header(
      'www-authenticate',
      bearerChallenge({
        error: 'insufficient_scope',
        errorDescription: description,
        scope: wanted,
        resourceMetadata,
      }),
    );
    return refuse(
      reply,
      403,
      id,
      jsonRpcErrorCodes.insufficientScope,
      `insufficient_scope: ${description} Ask the person to reconnect Innkeep and allow it; the tool stays listed.`,
      { missing },
    );
  }
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
