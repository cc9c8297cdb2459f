import { z } from 'zod';

/**
 * The paging fields a Host Tools list answer carries beside its list, only when the client paged. Host
 * Tools clients read the whole list and never page, so a whole answer keeps exactly their shape.
 */
export const hostToolsPagingShape = {
  nextCursor: z
    .string()
    .nullable()
    .optional()
    .describe(
      'Only when paging (limit or cursor sent): pass as cursor for the next page; null on the last page.',
    ),
  hasMore: z
    .boolean()
    .optional()
    .describe('Only when paging (limit or cursor sent): true when more items exist beyond this page.'),
};

/** The paging fields of a Host Tools list answer. */
export type HostToolsPaging = {
  nextCursor?: string | null;
  hasMore?: boolean;
};

/**
 * The paging fields for a list answer: none when the answer is the whole list, `nextCursor` and `hasMore`
 * when it is a page the client asked for with `limit` or `cursor`.
 */
export function hostToolsPaging(
  page: { readonly nextCursor: string | null; readonly hasMore: boolean },
  paged: boolean,
): HostToolsPaging {
  return paged ? { nextCursor: page.nextCursor, hasMore: page.hasMore } : {};
}
