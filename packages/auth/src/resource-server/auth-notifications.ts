/**
 * Where a cache of access-token checks learns that facts behind them changed: a source of the messages the
 * `innkeep_auth` triggers send (`grant:<id>`, `user:<id>`, `account:<id>`, `reset`), and of whether it is
 * listening. While it is not, nothing may be cached, because a message could be missed.
 */
export interface AuthNotifications {
  /**
   * Starts listening; returns the function that stops it.
   *
   * @param onMessage - each message's payload, in the order the changes committed.
   * @param onLost - the source stopped listening (a dropped connection): messages may be missed from now
   *   until `onListening` is called again.
   * @param onListening - the source listens (again); called once listening starts and after each recovery.
   */
  subscribe(
    onMessage: (payload: string) => void,
    onLost: () => void,
    onListening: () => void,
  ): () => Promise<void>;
}

/** What an auth notification says to drop. */
export type AuthInvalidation =
  | { readonly kind: 'grant' | 'user' | 'account'; readonly id: string }
  | { readonly kind: 'everything' };

/**
 * Reads a notification payload. Anything unrecognised means {@link AuthInvalidation} `everything`: a newer
 * instance may send messages this one does not know, and dropping too much only costs a query.
 */
export function parseAuthNotification(payload: string): AuthInvalidation {
  const separator = payload.indexOf(':');
  const kind = payload.slice(0, separator);
  const id = payload.slice(separator + 1);
  if (separator > 0 && id !== '' && (kind === 'grant' || kind === 'user' || kind === 'account')) {
    return { kind, id };
  }
  return { kind: 'everything' };
}
