import { z } from 'zod';
import { type JsonRpcError, jsonRpcErrorCodes } from './json-rpc.ts';

/**
 * The MCP revisions of the stateless era Innkeep speaks: no `initialize`, each request names its revision and
 * the client's capabilities in `params._meta`. Kept apart from the `initialize` revisions
 * (`supportedProtocolVersions`), so a 2026 revision can never be offered in a legacy handshake.
 */
export const modernProtocolVersions = ['2026-07-28'] as const;

/** One of {@link modernProtocolVersions}. */
export type ModernProtocolVersion = (typeof modernProtocolVersions)[number];

/** The reserved keys of a request's `params._meta` in MCP 2026-07-28. */
const requestMetaKeys = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
} as const;

/** Which generation of MCP a message belongs to: `initialize` revisions, or the stateless 2026 ones. */
export type ProtocolEra = 'legacy' | 'modern';

// Revisions are ISO dates, so the first stateless one orders every later one after it; an unknown name that
// sorts after it (the conformance suite's `v999.0.0`) is a modern client asking for a revision Innkeep lacks.
const firstModernProtocolVersion = '2026-07-28';

const loggingLevels = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;

/** The envelope of MCP 2026-07-28 (`RequestMetaObject`); other keys (progress tokens, extensions) pass. */
const requestMetaSchema = z.looseObject({
  [requestMetaKeys.protocolVersion]: z.string(),
  [requestMetaKeys.clientCapabilities]: z.looseObject({}),
  [requestMetaKeys.clientInfo]: z.looseObject({ name: z.string(), version: z.string() }).optional(),
  [requestMetaKeys.logLevel]: z.enum(loggingLevels).optional(),
});

/**
 * The era of one JSON-RPC message, read from its body alone (MCP 2026-07-28, versioning): a message whose
 * `params._meta` names a protocol version of the stateless era is modern; so is one whose claim is not even
 * a string, since a malformed envelope must be refused, never served as legacy. `initialize` stays legacy
 * unless its envelope is valid and modern (the modern era then answers it "method not found"). Everything
 * else (no claim, a claim naming a legacy revision) is legacy and takes the unchanged path.
 */
export function protocolEraOf(message: unknown): ProtocolEra {
  const meta = requestMetaOf(message);
  if (meta === undefined || !(requestMetaKeys.protocolVersion in meta)) return 'legacy';
  const claimed = meta[requestMetaKeys.protocolVersion];
  if (typeof claimed === 'string' && claimed < firstModernProtocolVersion) return 'legacy';
  if (methodOf(message) === 'initialize' && requestMetaError(message) !== null) return 'legacy';
  return 'modern';
}

/** True when `version` names a revision of the stateless era, known to Innkeep or not. */
export function isModernProtocolVersion(version: string): boolean {
  return version >= firstModernProtocolVersion;
}

/** True when Innkeep serves `version` as a stateless revision. */
export function isSupportedModernProtocolVersion(version: string): version is ModernProtocolVersion {
  return (modernProtocolVersions as readonly string[]).includes(version);
}

/** The protocol version a modern message's envelope names; undefined when it names none as a string. */
export function claimedProtocolVersion(message: unknown): string | undefined {
  const claimed = requestMetaOf(message)?.[requestMetaKeys.protocolVersion];
  return typeof claimed === 'string' ? claimed : undefined;
}

/**
 * The -32602 error for a modern request whose `params._meta` lacks a required key (protocol version, client
 * capabilities) or holds a malformed one, naming the key; null when the envelope is valid. `clientInfo` is
 * optional: the client SHOULD send it, and the server MUST NOT require it.
 */
export function requestMetaError(message: unknown): JsonRpcError | null {
  const meta = requestMetaOf(message);
  const missing =
    meta === undefined
      ? ['_meta']
      : [requestMetaKeys.protocolVersion, requestMetaKeys.clientCapabilities].filter((key) => !(key in meta));
  if (missing.length > 0) return envelopeError(`missing ${missing.join(', ')}`, { missing });
  const parsed = requestMetaSchema.safeParse(meta);
  if (parsed.success) return null;
  const [issue] = parsed.error.issues;
  const key = issue?.path.map(String).join('.') || '_meta';
  return envelopeError(`${key}: ${issue?.message ?? 'invalid'}`, { invalid: key });
}

/**
 * The -32602 error for a request sent with a stateless revision's `MCP-Protocol-Version` header but no
 * envelope in its body: the client means 2026-07-28 and left out what that revision requires.
 */
export function missingRequestMetaError(headerVersion: string): JsonRpcError {
  return envelopeError(
    `the MCP-Protocol-Version header names ${headerVersion.slice(0, 40)}, but params._meta lacks ` +
      `${requestMetaKeys.protocolVersion} and ${requestMetaKeys.clientCapabilities}`,
    { missing: [requestMetaKeys.protocolVersion, requestMetaKeys.clientCapabilities] },
  );
}

/**
 * The -32022 error for a modern request naming a revision Innkeep does not serve: the versions it does, and
 * the one asked for, so the client can retry with one of them.
 */
export function unsupportedProtocolVersionError(requested: string): JsonRpcError {
  return {
    code: jsonRpcErrorCodes.unsupportedProtocolVersion,
    message: `Unsupported protocol version ${requested.slice(0, 40)}; this server speaks ${modernProtocolVersions.join(', ')} (and, through initialize, older revisions).`,
    data: { supported: [...modernProtocolVersions], requested },
  };
}

function envelopeError(problem: string, data: Record<string, unknown>): JsonRpcError {
  return {
    code: jsonRpcErrorCodes.invalidParams,
    message: `Invalid params: the request's _meta envelope (MCP 2026-07-28) is wrong: ${problem}.`,
    data,
  };
}

function methodOf(message: unknown): unknown {
  return isRecord(message) ? message.method : undefined;
}

function requestMetaOf(message: unknown): Readonly<Record<string, unknown>> | undefined {
  if (!isRecord(message) || !isRecord(message.params)) return undefined;
  const meta = message.params._meta;
  return isRecord(meta) ? meta : undefined;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
