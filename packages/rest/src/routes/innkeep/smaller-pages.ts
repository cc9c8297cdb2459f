import type { Operation } from '@innkeep/operations';
import { z } from 'zod';
import type { RestRequestParts } from '../../route-definition.ts';

/**
 * The input of a paged GET route whose operation refuses pages as large as REST allows (its `limit` is
 * bounded below REST's 500, e.g. 100 listing-group summaries). A larger `limit` is lowered to the
 * operation's largest page instead of refused: a page may hold fewer items than asked, and `hasMore` and
 * `nextCursor` still lead a client through the whole list.
 */
export function smallerPagesInput(operation: Operation): (parts: RestRequestParts) => unknown {
  const largest = largestPage(operation);
  return ({ query, params }) => {
    const { limit } = query;
    // A limit that is not a number is left for the input schema to name.
    const lowered = typeof limit === 'number' && limit > largest ? { limit: largest } : {};
    return { ...query, ...params, ...lowered };
  };
}

/** The largest `limit` the operation's input accepts. */
function largestPage(operation: Operation): number {
  let field: unknown = operation.input.shape.limit;
  while (field instanceof z.ZodDefault || field instanceof z.ZodOptional) field = field.unwrap();
  if (!(field instanceof z.ZodNumber) || field.maxValue === null || !Number.isFinite(field.maxValue)) {
    throw new Error(`${operation.id} has no bounded numeric limit to page by.`);
  }
  return field.maxValue;
}
