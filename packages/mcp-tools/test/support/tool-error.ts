import { errorCodes } from '@innkeep/domain';
import { expect } from 'vitest';
import { z } from 'zod';

const toolErrorTextSchema = z.strictObject({
  error: z.strictObject({
    code: z.enum(errorCodes),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});

/** What a tool error result says: the code, the message for the model, and the facts behind it. */
export type ToolErrorBody = z.infer<typeof toolErrorTextSchema>['error'];

/**
 * The error of a tool result, as a model reads it: the result has `isError`, no `structuredContent`, and one
 * text block holding `{"error": {code, message, details?}}` on one line. Fails the test on anything else
 * (a success included). Takes the result as a tool, the dispatcher or a client returned it.
 */
export function toolErrorOf(result: unknown): ToolErrorBody {
  const { isError, structuredContent, content } = result as {
    isError?: unknown;
    structuredContent?: unknown;
    content?: { type: string; text?: string }[];
  };
  expect(isError, JSON.stringify(result)).toBe(true);
  expect(structuredContent).toBeUndefined();
  expect(content).toHaveLength(1);
  const [block] = content ?? [];
  expect(block?.type).toBe('text');
  expect(block?.text).not.toContain('\n');
  return toolErrorTextSchema.parse(JSON.parse(block?.text ?? '')).error;
}
