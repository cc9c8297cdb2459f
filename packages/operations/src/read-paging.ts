import type { Page } from '@innkeep/domain';
import { z } from 'zod';

/**
 * Largest reply, in characters of JSON, an operation's output should come to: a model reads the whole of
 * it, so lists page before they grow past it and the MCP adapter refuses a larger result.
 */
export const maxReplyChars = 100_000;

/** Page sizes for models: small by default so a reply stays readable, at most 100 per call. */
export const modelPageLimits = { default: 20, max: 100 } as const;

/** The `limit` field of a read tool that lists `what` (e.g. "reservations"). */
export function modelLimit(what: string) {
  return z
    .number()
    .int()
    .min(1)
    .max(modelPageLimits.max)
    .default(modelPageLimits.default)
    .describe(`Most ${what} per page.`);
}

/** Room kept in a reply for what surrounds a page (a thread's reservation, the JSON around it). */
const replyOverheadChars = 4_000;

/**
 * Fetches a page of at most `limit` items that fits in one reply. When long items (notes, message
 * bodies, review texts) would push the reply over the size cap, it asks again for fewer, so the caller
 * gets a smaller page with a correct `nextCursor` instead of an error; only a single item larger than the
 * cap can still overflow.
 *
 * @param fetch - reads the reply with a page of the given size from the domain.
 * @param pageOf - the page inside a reply (the reply itself for plain lists).
 */
export async function fetchPageThatFits<Item, Reply = Page<Item>>(
  limit: number,
  fetch: (limit: number) => Promise<Reply>,
  pageOf: (reply: Reply) => Page<Item>,
): Promise<Reply> {
  const budget = maxReplyChars - replyOverheadChars;
  let size = limit;
  for (;;) {
    const reply = await fetch(size);
    const chars = JSON.stringify(reply).length;
    const count = pageOf(reply).items.length;
    if (chars <= budget || count <= 1) return reply;
    // Shrink in proportion to the overflow, and always by at least one so the loop ends.
    size = Math.max(1, Math.min(count - 1, Math.floor((count * budget) / chars)));
  }
}
