import { z } from 'zod';

/** Output schema of a paged list: `items`, `nextCursor` (null on the last page) and `hasMore`. */
export function pageOutput<Item extends z.ZodType>(item: Item) {
  return z.object({
    items: z.array(item),
    nextCursor: z
      .string()
      .nullable()
      .describe('Pass as `cursor` for the next page; null when this is the last.'),
    hasMore: z.boolean().describe('True when more items exist beyond this page.'),
  });
}
