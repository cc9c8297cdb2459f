import { errorCatalogue } from '@innkeep/domain';

/** A JSON-RPC request id; MCP allows strings and numbers, never null. */
export type JsonRpcId = string | number;

/** A JSON-RPC error object. */
export interface JsonRpcError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** A JSON-RPC response: a result, or an error whose id is null when the request's id could not be read. */
export type JsonRpcResponse =
  | { readonly jsonrpc: '2.0'; readonly id: JsonRpcId; readonly result: unknown }
  | { readonly jsonrpc: '2.0'; readonly id: JsonRpcId | null; readonly error: JsonRpcError };

/**
 * Every JSON-RPC error code Innkeep's MCP endpoint answers with. The standard ones (-32700…-32603), MCP's
 * "resource not found" (-32002), and Innkeep's own in the implementation-defined range: refusals made by the
 * HTTP transport before a message is handled. Clients and docs read them from here; the codes of the domain's
 * errors come from the wire table (`errorCatalogue`), so both always agree. MCP 2026-07-28 adds its own
 * (-32020, -32022) and renumbers Innkeep's (`modernErrorCode`: -32002 → -32602, -32010 → 1010, …).
 */
export const jsonRpcErrorCodes = {
  /** The body is not JSON. */
  parseError: -32700,
  /** Not a single JSON-RPC 2.0 message (e.g. a batch, or no `method`). */
  invalidRequest: -32600,
  methodNotFound: -32601,
  /** Unknown tool or prompt, a prompt's arguments wrong, a completion reference wrong, a bad cursor. */
  invalidParams: -32602,
  /** Something unexpected; the message carries a reference id and nothing else. */
  internalError: errorCatalogue.internal.jsonRpcCode,
  /** resources/read of a URI that names nothing, before MCP 2026-07-28 (which uses -32602); `data.uri` echoes it. */
  resourceNotFound: -32002,
  /** MCP 2026-07-28: a standard header (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`) is missing or disagrees with the body (HTTP 400). */
  headerMismatch: -32020,
  /** MCP 2026-07-28: the request names a protocol version this server does not serve; `data.supported` lists those it does (HTTP 400). */
  unsupportedProtocolVersion: -32022,
  /** The HTTP request was refused before its message was read (Origin, protocol version, media type). */
  requestRefused: -32000,
  /** No usable access token (HTTP 401). */
  unauthenticated: errorCatalogue.unauthenticated.jsonRpcCode,
  /** The account's subscription is not in good standing (HTTP 403). */
  subscriptionInactive: errorCatalogue.subscription_inactive.jsonRpcCode,
  /** The grant lacks a scope the request needs (HTTP 403). */
  insufficientScope: errorCatalogue.insufficient_scope.jsonRpcCode,
  /** Too many requests on one access token (HTTP 429). */
  rateLimited: errorCatalogue.rate_limited.jsonRpcCode,
} as const;

/** A successful response. */
export function jsonRpcResult(id: JsonRpcId, result: unknown): JsonRpcResponse {
  return { jsonrpc: '2.0', id, result };
}

/** An error response; `data` is left out when undefined. */
export function jsonRpcError(
  id: JsonRpcId | null,
  code: number,
  message: string,
  data?: unknown,
): JsonRpcResponse {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}

/** The id of `message` when it has a usable one (a string or a finite number), else null. */
export function jsonRpcIdOf(message: unknown): JsonRpcId | null {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return null;
  const id = (message as { id?: unknown }).id;
  if (typeof id === 'string') return id;
  if (typeof id === 'number' && Number.isFinite(id)) return id;
  return null;
}
