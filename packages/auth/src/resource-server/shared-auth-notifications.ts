import type { AuthNotifications } from './auth-notifications.ts';

/** One subscriber's three handlers. */
interface Subscriber {
  readonly onMessage: (payload: string) => void;
  readonly onLost: () => void;
  readonly onListening: () => void;
}

/**
 * {@link AuthNotifications} that share one subscription of `source` among every cache of an instance (the
 * `/mcp` and `/api` token checks, REST's credential lookups), so an instance holds one listening connection
 * however many resources it serves. The source is subscribed with the first subscriber and let go with the
 * last; a subscriber that joins while it listens is told so at once.
 */
export function sharedAuthNotifications(source: AuthNotifications): AuthNotifications {
  const subscribers = new Set<Subscriber>();
  let listening = false;
  let unsubscribe: (() => Promise<void>) | undefined;

  return {
    subscribe(onMessage, onLost, onListening) {
      const subscriber: Subscriber = { onMessage, onLost, onListening };
      subscribers.add(subscriber);
      if (unsubscribe === undefined) {
        unsubscribe = source.subscribe(
          (payload) => {
            for (const each of subscribers) each.onMessage(payload);
          },
          () => {
            listening = false;
            for (const each of subscribers) each.onLost();
          },
          () => {
            listening = true;
            for (const each of subscribers) each.onListening();
          },
        );
      } else if (listening) {
        onListening();
      }
      return async () => {
        if (!subscribers.delete(subscriber) || subscribers.size > 0) return;
        const stop = unsubscribe;
        unsubscribe = undefined;
        listening = false;
        await stop?.();
      };
    },
  };
}
