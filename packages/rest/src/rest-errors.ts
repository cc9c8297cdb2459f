import { DomainError, type ErrorCode, errorCatalogue, reportInternalFailure } from '@innkeep/domain';
import type { FastifyError, FastifyReply } from 'fastify';

/**
 * The body of every REST error: `message` first, because Host Tools clients read it; the wire code of
 * `errorCatalogue` beside it; facts the client can act on in `details`.
 */
export interface RestErrorBody {
  readonly message: string;
  readonly code: ErrorCode;
  readonly details?: Readonly<Record<string, unknown>>;
}

/** Sends `code`'s status from the wire table (or `status` where HTTP needs a finer one) and its body. */
export function sendRestError(
  reply: FastifyReply,
  code: ErrorCode,
  message: string,
  details?: Readonly<Record<string, unknown>>,
  status: number = errorCatalogue[code].httpStatus,
): FastifyReply {
  const body: RestErrorBody = details === undefined ? { message, code } : { message, code, details };
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/**
 * Answers any failure of a REST request. A DomainError keeps its code, message and details; what Fastify
 * refused before the route ran (malformed JSON, a body over the limit, a content type other than JSON)
 * becomes `invalid_argument` with the status HTTP has for it; anything else is reported with a reference id
 * and answered with one fixed message, never the error's own text, stack, SQL or driver detail.
 */
export function sendRestFailure(
  reply: FastifyReply,
  error: unknown,
  report: (reference: string, cause: unknown) => void,
): FastifyReply {
  if (error instanceof DomainError && error.code !== 'internal') {
    return sendRestError(reply, error.code, error.message, error.details);
  }
  const refused = requestRefusal(error);
  if (refused !== undefined) {
    return sendRestError(reply, 'invalid_argument', refused.message, undefined, refused.status);
  }
  const failure = reportInternalFailure(error, report);
  return sendRestError(reply, 'internal', failure.message, { reference: failure.reference });
}

/** What Fastify refused about the request itself, in words for the caller; undefined for other errors. */
function requestRefusal(error: unknown): { status: number; message: string } | undefined {
  if (!(error instanceof Error)) return undefined;
  const fastifyError = error as FastifyError;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, message: 'invalid_argument: the request body is too large.' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        status: 415,
        message: 'invalid_argument: send the request body as JSON, with Content-Type: application/json.',
      };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, message: 'invalid_argument: the request body is not valid JSON.' };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, message: 'invalid_argument: the Content-Length header does not match the body.' };
    default:
      break;
  }
  // The JSON parser's syntax errors (and prototype-poisoning refusals) carry status 400 and no code of ours.
  if (fastifyError.statusCode === 400 && (error instanceof SyntaxError || fastifyError.code === undefined)) {
    return { status: 400, message: 'invalid_argument: the request body is not valid JSON.' };
  }
  return undefined;
}
