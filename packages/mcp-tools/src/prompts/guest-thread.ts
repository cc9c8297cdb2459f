import type { Message, MessageThread } from '@innkeep/domain';
import type { ToolContext } from '../tool-definition.ts';

// Most messages of one thread a prompt pages through; a bound for safety, threads that long do not occur.
const maxThreadMessages = 5000;

const pageSize = 500;

/** The newest part of a reservation's conversation. */
export interface ThreadRead {
  readonly thread: Omit<MessageThread, 'messages'>;
  /** The newest `keep` messages read, oldest first. */
  readonly messages: readonly Message[];
  /** Messages before `messages` that were left out. */
  readonly earlier: number;
}

/**
 * Reads a reservation's conversation and keeps its newest `keep` messages (the thread pages oldest
 * first, so it is read to the end). `not_found` for ids outside the account.
 */
export async function readThread(
  { actor, domain }: ToolContext,
  reservationId: string,
  keep: number,
): Promise<ThreadRead> {
  const first = await domain.messages.getThread(actor, { reservationId, limit: pageSize });
  const { messages: firstPage, ...thread } = first;
  let newest = firstPage.items.slice(-keep);
  let seen = firstPage.items.length;
  let page = firstPage;
  while (page.hasMore && page.nextCursor !== null && seen < maxThreadMessages) {
    page = (
      await domain.messages.getThread(actor, { reservationId, limit: pageSize, cursor: page.nextCursor })
    ).messages;
    seen += page.items.length;
    newest = [...newest, ...page.items].slice(-keep);
  }
  return { thread, messages: newest, earlier: seen - newest.length };
}

/** The newest message the guest wrote, or undefined when they never wrote (or not among `messages`). */
export function latestGuestMessage(messages: readonly Message[]): Message | undefined {
  return messages.findLast((message) => message.sender === 'guest');
}
