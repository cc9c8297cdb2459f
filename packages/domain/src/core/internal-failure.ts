import { randomUUID } from 'node:crypto';

/** An unexpected failure as a caller sees it: a fresh reference id and the generic message quoting it. */
export interface InternalFailure {
  readonly reference: string;
  readonly message: string;
}

/**
 * The one place the generic "something went wrong" answer is built. `report` receives the cause with the
 * reference the caller is shown, so driver text and stack traces reach the log and never the caller, and
 * support can find the log line from what the caller quotes.
 */
export function reportInternalFailure(
  cause: unknown,
  report: (reference: string, cause: unknown) => void,
): InternalFailure {
  const reference = randomUUID();
  report(reference, cause);
  return {
    reference,
    message: `Something went wrong on Innkeep's side; nothing was changed. Reference: ${reference}.`,
  };
}
