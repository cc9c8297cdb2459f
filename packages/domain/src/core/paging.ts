import { z } from 'zod';
import { DomainError } from './errors.ts';

/** One page of a list, and how to get the next one. Lists never truncate silently. */
export interface Page<Item> {
  readonly items: Item[];
  /** Pass as `cursor` to get the next page; null on the last page. */
  readonly nextCursor: string | null;
  readonly hasMore: boolean;
}

/** Default and largest page sizes for every list. */
export const pageLimits = { default: 50, max: 500 } as const;

/** The `limit` and `cursor` fields every list input shares. */
export const pageInputShape = {
  limit: z
    .number()
    .int()
    .min(1)
    .max(pageLimits.max)
    .default(pageLimits.default)
    .describe('Most items per page.'),
  cursor: z.string().max(512).optional().describe('nextCursor of the previous page.'),
};

/** Encodes the sort key of the last item of a page as an opaque cursor. */
export function encodeCursor(key: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** Decodes a cursor made by {@link encodeCursor}; `arity` is the expected number of key parts. */
export function decodeCursor(cursor: string, arity: number): (string | number)[] {
  try {
    const key: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(key) &&
      key.length === arity &&
      key.every((part) => typeof part === 'string' || typeof part === 'number')
    ) {
      return key;
    }
  } catch {
    // fall through to the error below
  }
  throw new DomainError(
    'invalid_argument',
    'The cursor is not one this list produced; start again without it.',
  );
}

/**
 * Turns `limit + 1` fetched rows into a page: the extra row only tells that more exists.
 * @param sortKey - the sort key of an item, which becomes the next cursor.
 */
export function toPage<Row, Item>(
  rows: readonly Row[],
  limit: number,
  map: (row: Row) => Item,
  sortKey: (row: Row) => readonly (string | number)[],
): Page<Item> {
  const hasMore = rows.length > limit;
  const kept = hasMore ? rows.slice(0, limit) : rows;
  const last = kept[kept.length - 1];
  return {
    items: kept.map(map),
    nextCursor: hasMore && last !== undefined ? encodeCursor(sortKey(last)) : null,
    hasMore,
  };
}
