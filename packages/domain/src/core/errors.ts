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

/** How each error code reaches a caller; the single table both wire adapters read. */
export interface ErrorCodeInfo {
  /** HTTP status a REST response (or a transport-level MCP refusal) carries. */
  readonly httpStatus: number;
  /** True when the same request may succeed if simply retried later. */
  readonly retryable: boolean;
  /** What the code means, in one line, for documentation and logs. */
  readonly meaning: string;
}

/** Code → wire behaviour. Adding a code means adding a row here, and every adapter follows. */
export const errorCatalogue: Readonly<Record<ErrorCode, ErrorCodeInfo>> = {
  invalid_argument: { httpStatus: 400, retryable: false, meaning: 'The input is malformed or out of range.' },
  unauthenticated: { httpStatus: 401, retryable: false, meaning: 'No valid credential was presented.' },
  permission_denied: { httpStatus: 403, retryable: false, meaning: 'The caller may not do this.' },
  insufficient_scope: { httpStatus: 403, retryable: false, meaning: 'The OAuth grant lacks a needed scope.' },
  subscription_inactive: {
    httpStatus: 403,
    retryable: false,
    meaning: 'The account subscription is not in good standing.',
  },
  not_found: { httpStatus: 404, retryable: false, meaning: 'No such record in this account.' },
  conflict: { httpStatus: 409, retryable: false, meaning: 'The change clashes with existing data.' },
  failed_precondition: {
    httpStatus: 422,
    retryable: false,
    meaning: 'The record is not in a state that allows this.',
  },
  rate_limited: { httpStatus: 429, retryable: true, meaning: 'Too many requests; wait and retry.' },
  internal: { httpStatus: 500, retryable: true, meaning: 'An unexpected failure; nothing was changed.' },
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
