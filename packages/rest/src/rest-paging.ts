import { DomainError, type Page, pageInputShape, pageLimits } from '@innkeep/domain';
import type { OperationContext } from '@innkeep/operations';
import type { z } from 'zod';
import type { RestRoute } from './route-definition.ts';

/**
 * Most items one whole-list answer collects. Far above any real account (2,000 listings, a year of
 * reservations); past it the client is asked to page rather than be sent an unbounded answer.
 */
export const maxWholeListItems = 100_000;

/**
 * The schema a route's input is validated with: the operation's own, with REST's page size where the route
 * pages a list (default 50, at most 500; the operations' own limits are sized for a model's reply).
 */
export function restInputSchema(route: RestRoute): z.ZodObject {
  // Only lists take REST's page size: an analytics operation's own `limit` (rows of a breakdown) stays its own.
  return route.paging !== undefined && 'limit' in route.inputSchema.shape
    ? route.inputSchema.safeExtend({ limit: pageInputShape.limit })
    : route.inputSchema;
}

/** True when the client sent `limit` or `cursor`, asking for one page of a list. */
export function asksForPage(query: Readonly<Record<string, unknown>>): boolean {
  return query.limit !== undefined || query.cursor !== undefined;
}

/**
 * Runs the route's operation once, or, for a `whole-unless-asked` list that the client sent without
 * `limit` and `cursor`, page after page until the list ends, answering every item as one page with
 * `hasMore: false` (PRODUCT.md: Host Tools operations return the whole answer unless asked to page).
 */
export async function runPaged(
  route: RestRoute,
  input: unknown,
  query: Readonly<Record<string, unknown>>,
  context: OperationContext,
): Promise<unknown> {
  const whole = route.paging === 'whole-unless-asked' && !asksForPage(query);
  if (!whole) return route.run(input as Record<string, unknown>, context);
  const base = { ...(input as Record<string, unknown>), limit: pageLimits.max };
  // The route's operation lists (its paging says so), so its output is a page.
  const items: unknown[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = (await route.run(
      cursor === undefined ? base : { ...base, cursor },
      context,
    )) as unknown as Page<unknown>;
    items.push(...page.items);
    if (items.length > maxWholeListItems) {
      throw new DomainError(
        'failed_precondition',
        `failed_precondition: the answer would hold more than ${maxWholeListItems} items. Send limit (at most ${pageLimits.max}) and follow nextCursor.`,
      );
    }
    if (!page.hasMore || page.nextCursor === null)
      return { ...page, items, nextCursor: null, hasMore: false };
    cursor = page.nextCursor;
  }
}
