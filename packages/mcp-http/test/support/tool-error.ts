import { expect } from 'vitest';

/** What a tool error result says, as a model reads it from its one text block. */
export interface ToolErrorBody {
  readonly code: string;
  readonly message: string;
  readonly details?: Record<string, unknown>;
}

/**
 * The error of a tool result: `isError`, no `structuredContent`, and one text block holding
 * `{"error": {code, message, details?}}`. Fails the test on anything else (a success included).
 */
export function toolErrorIn(result: unknown): ToolErrorBody {
  const { isError, structuredContent, content } = (result ?? {}) as {
    isError?: unknown;
    structuredContent?: unknown;
    content?: { type: string; text?: string }[];
  };
  expect(isError, JSON.stringify(result)).toBe(true);
  expect(structuredContent).toBeUndefined();
  expect(content).toHaveLength(1);
  return (JSON.parse(content?.[0]?.text ?? '') as { error: ToolErrorBody }).error;
}
