import type { Page } from '@innkeep/domain';

/** Items gathered from several pages of a domain list, and whether the list ended before the cap. */
export interface CollectedPages<Item> {
  readonly items: Item[];
  /** True when every item of the list is in `items`; false when the cap stopped the paging. */
  readonly complete: boolean;
}

/**
 * Pages through a domain list until it ends or `maxItems` are gathered. Resources, prompts and completions
 * read whole lists to summarise them; the cap keeps one read bounded on a 2,000-listing account.
 *
 * @param fetchPage - reads one page of at most `limit` items starting at `cursor` (undefined for the first).
 */
export async function collectPages<Item>(
  fetchPage: (cursor: string | undefined, limit: number) => Promise<Page<Item>>,
  maxItems: number,
  pageSize = 500,
): Promise<CollectedPages<Item>> {
  const items: Item[] = [];
  let cursor: string | undefined;
  while (items.length < maxItems) {
    const page = await fetchPage(cursor, Math.min(pageSize, maxItems - items.length));
    items.push(...page.items);
    if (!page.hasMore || page.nextCursor === null) return { items, complete: true };
    cursor = page.nextCursor;
  }
  return { items, complete: false };
}
