import type { z } from 'zod';
import { DomainError } from './errors.ts';
import { findUnstorableText } from './storable-text.ts';

/**
 * Validates raw input against a use case's schema. Failures become one `invalid_argument` error whose
 * message names every offending field, so a person or a model can fix the call in one go; so does text
 * holding U+0000, which PostgreSQL cannot store.
 */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const result = schema.safeParse(input);
  if (result.success) {
    // The one check every use case, tool, prompt and resource argument passes: text the database cannot
    // store is refused here, by field, before any query could fail on it.
    const unstorable = findUnstorableText(result.data);
    if (unstorable === undefined) return result.data;
    throw invalidArgument([unstorable]);
  }
  throw invalidArgument(
    result.error.issues.map((issue) => ({
      path: issue.path.map(String).join('.') || '(input)',
      message: issue.message,
    })),
  );
}

function invalidArgument(issues: readonly { path: string; message: string }[]): DomainError {
  const summary = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
  return new DomainError('invalid_argument', `Invalid input — ${summary}`, { details: { issues } });
}
