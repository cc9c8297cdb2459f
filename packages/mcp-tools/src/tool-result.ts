import { DomainError, type ErrorCode, reportInternalFailure } from '@innkeep/domain';
import { maxReplyChars } from '@innkeep/operations';

/**
 * The result of a tools/call, as MCP defines it: a success has the output as `structuredContent` and as JSON
 * text; an error result (`isError`) has only the text, so no client checks it against the output schema.
 */
export interface ToolCallResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * Largest result, in characters of JSON, sent to a model; beyond it the model is told how to narrow. The
 * operations page to stay under the same figure.
 */
export const maxResultChars = maxReplyChars;

/** A successful result: the output as structured content and the same JSON as text for older clients. */
export function toolSuccess(output: Record<string, unknown>): ToolCallResult {
  const text = JSON.stringify(output);
  if (text.length > maxResultChars) {
    return toolError(
      'invalid_argument',
      `The result is about ${Math.ceil(text.length / 1000)} KB, over the ${maxResultChars / 1000} KB a reply may hold. ` +
        'Ask for less: a smaller limit (then page with cursor), a shorter date range, or filters such as listingId.',
      { resultChars: text.length, limitChars: maxResultChars },
    );
  }
  return { content: [{ type: 'text', text }], structuredContent: output };
}

/**
 * A failure the model can act on: `isError`, and one text block holding the JSON
 * `{"error": {"code", "message", "details"?}}`. It has no `structuredContent`: the listed output schemas
 * describe the output alone, and clients validate `structuredContent` only when it is there.
 */
export function toolError(
  code: ErrorCode,
  message: string,
  details?: Readonly<Record<string, unknown>>,
): ToolCallResult {
  const error = { code, message, ...(details === undefined ? {} : { details }) };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error }) }] };
}

/**
 * Turns anything a handler threw into a tool result. Domain errors keep their code, message and details;
 * anything else becomes a generic `internal` error with a reference id that `report` receives together
 * with the cause, so driver text and stack traces reach the log and never the model.
 */
export function toolFailure(
  thrown: unknown,
  report: (reference: string, cause: unknown) => void,
): ToolCallResult {
  if (thrown instanceof DomainError) return toolError(thrown.code, thrown.message, thrown.details);
  const { reference, message } = reportInternalFailure(thrown, report);
  return toolError('internal', message, { reference });
}
