import type { z } from 'zod';
import { DomainError } from './errors.ts';

/**
 * Validates raw input against a use case's schema. Failures become one `invalid_argument` error whose
 * message names every offending field, so a person or a model can fix the call in one go.
 */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(input)',
    message: issue.message,
  }));
  const summary = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
  throw new DomainError('invalid_argument', `Invalid input — ${summary}`, { details: { issues } });
}
