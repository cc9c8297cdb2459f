/**
 * The JSON-RPC error code a client call failed with, read from the SDK's error class `errorClass` (v1:
 * `McpError`, v2: `ProtocolError`); undefined when the call succeeded. Any other failure is rethrown.
 */
export async function errorCodeOf(
  call: Promise<unknown>,
  errorClass: abstract new (...args: never[]) => { readonly code: number },
): Promise<number | undefined> {
  try {
    await call;
  } catch (error) {
    if (error instanceof errorClass) return error.code;
    throw error;
  }
  return undefined;
}

/** The `{code, message, details}` an error result carries as JSON in its last text block. */
export function errorIn(result: Record<string, unknown>): unknown {
  const blocks = (result.content ?? []) as { type: string; text?: string }[];
  return JSON.parse(blocks.at(-1)?.text ?? '{}').error;
}

/** The JSON document of a resources/read result. */
export function jsonOf(contents: readonly ({ text: string } | { blob: string })[]): unknown {
  const [first] = contents;
  return JSON.parse(first !== undefined && 'text' in first ? first.text : 'null');
}
