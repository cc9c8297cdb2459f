/**
 * The closed set of error codes every Innkeep operation may fail with. Adapters (REST, MCP, CLI)
 * translate them through {@link errorCatalogue} and nowhere else.
 */
export const errorCodes = [
  'invalid_argument',
  'unauthenticated',
  'permission_denied',
  'insufficient_scope',
  'subscription_inactive',
  'not_found',
  'conflict',
  'failed_precondition',
  'rate_limited',
  'internal',
] as const;

/** One of {@link errorCodes}. */
export type ErrorCode = (typeof errorCodes)[number];

/**
 * How each error code reaches a caller: the one wire table every adapter reads (REST routes, the /mcp route,
 * the MCP dispatcher and SDK registration, the account pages). It is data, not HTTP, so it lives here.
 */
export interface ErrorCodeInfo {
  /** HTTP status a REST response (or a transport-level MCP refusal) carries. */
  readonly httpStatus: number;
  /**
   * JSON-RPC error code for MCP revisions up to 2025-11-25, when the failure ends a request rather than
   * becoming a tool result. Innkeep's own refusals sit in the implementation-defined range -32000…-32019.
   */
  readonly jsonRpcCode: number;
  /**
   * The same for MCP 2026-07-28 and later, which reserves -32000…-32099 for the spec: Innkeep's own
   * refusals move outside it (1010, 1011, 1012); the rest keep the standard codes.
   */
  readonly jsonRpcCodeFrom2026: number;
  /** True when the same request may succeed if simply retried later. */
  readonly retryable: boolean;
  /** What the code means, in one line, for documentation and logs. */
  readonly meaning: string;
}

// JSON-RPC's standard codes the table uses: invalid params, and internal error.
const invalidParams = -32602;
const internalError = -32603;

/**
 * Code → wire behaviour. Adding a code means adding a row here, and every adapter follows. Failures the
 * caller can correct (bad input, a record that is not there, a clash) are JSON-RPC invalid params; MCP's
 * resources/read alone answers `not_found` with its own "resource not found" code on the older revisions.
 */
export const errorCatalogue: Readonly<Record<ErrorCode, ErrorCodeInfo>> = {
  invalid_argument: {
    httpStatus: 400,
    jsonRpcCode: invalidParams,
    jsonRpcCodeFrom2026: invalidParams,
    retryable: false,
    meaning: 'The input is malformed or out of range.',
  },
  unauthenticated: {
    httpStatus: 401,
    jsonRpcCode: -32001,
    jsonRpcCodeFrom2026: 1001,
    retryable: false,
    meaning: 'No valid credential was presented.',
  },
  permission_denied: {
    httpStatus: 403,
    jsonRpcCode: invalidParams,
    jsonRpcCodeFrom2026: invalidParams,
    retryable: false,
    meaning: 'The caller may not do this.',
  },
  insufficient_scope: {
    httpStatus: 403,
    jsonRpcCode: -32011,
    jsonRpcCodeFrom2026: 1011,
    retryable: false,
    meaning: 'The OAuth grant lacks a needed scope.',
  },
  subscription_inactive: {
    httpStatus: 403,
    jsonRpcCode: -32010,
    jsonRpcCodeFrom2026: 1010,
    retryable: false,
    meaning: 'The account subscription is not in good standing.',
  },
  not_found: {
    httpStatus: 404,
    jsonRpcCode: invalidParams,
    jsonRpcCodeFrom2026: invalidParams,
    retryable: false,
    meaning: 'No such record in this account.',
  },
  conflict: {
    httpStatus: 409,
    jsonRpcCode: invalidParams,
    jsonRpcCodeFrom2026: invalidParams,
    retryable: false,
    meaning: 'The change clashes with existing data.',
  },
  failed_precondition: {
    httpStatus: 422,
    jsonRpcCode: invalidParams,
    jsonRpcCodeFrom2026: invalidParams,
    retryable: false,
    meaning: 'The record is not in a state that allows this.',
  },
  rate_limited: {
    httpStatus: 429,
    jsonRpcCode: -32012,
    jsonRpcCodeFrom2026: 1012,
    retryable: true,
    meaning: 'Too many requests; wait and retry.',
  },
  internal: {
    httpStatus: 500,
    jsonRpcCode: internalError,
    jsonRpcCodeFrom2026: internalError,
    retryable: true,
    meaning: 'An unexpected failure; nothing was changed.',
  },
};

/**
 * A failure the caller can act on. `message` is safe to show to people and models; `details` carries
 * structured facts (clashing dates, invalid fields). Never put driver text or stack traces in either.
 */
export class DomainError extends Error {
  override readonly name = 'DomainError';
  readonly code: ErrorCode;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.code = code;
    this.details = options.details;
  }
}

/** Shorthand for the most common failure: a record that does not exist in the acting account. */
export function notFound(kind: string, id: string): DomainError {
  return new DomainError('not_found', `No ${kind} with id ${id} in this account.`, { details: { kind, id } });
}
